"""Chinese substitution and optional-item constructions that generalize (issues 10 and 11): word
orders and note shapes the zh cue rules did not read. Each construction is pinned by real lines of at
least two corpora (zh dev corpora, bundled HowToCook); every expected value is a literal of the source
text, and the line it comes from is checked first (:func:`conftest.quoted`).
"""

from __future__ import annotations

from pathlib import Path

from conftest import CORPORA, GEN, edge_names as _names, extract_copies as _extract, one_file as _one, quoted as _quoted

ZEHUA = GEN / "zh-zehua" / "docs" / "recipes"
CPQ = GEN / "zh-cpq" / "docs"
DRINKS = GEN / "zh-drinks" / "docs" / "drinks"
HIDE = GEN / "zh-hidetoshi" / "docs"
MENU = GEN / "zh-mymenu" / "docs"
SR = GEN / "zh-seraphroy" / "docs"
HTC = CORPORA / "howtocook"


def _htc(name: str) -> Path:
    found = sorted(HTC.rglob(name))
    assert found, name
    return found[0]


def _cues(sentence: str, rule: str, *, in_item: bool = False) -> list[tuple[str, str]]:
    from threadgraph.knowledge import cues

    return [(c.x, c.y) for c in cues.read(sentence, in_item=in_item) if c.rule == rule]


def _optional(sentence: str) -> bool:
    from threadgraph.knowledge import cues

    return any(c.kind == "optional" for c in cues.read(sentence))


# -- "X可以用Y代替": X named first, the clause closed by 代替 -----------------------------------------------
def test_x_can_use_y_instead_names_x_before():
    s = _quoted(ZEHUA / "new-orleans-chicken.md", 30, "糖可以用蜂蜜替代")
    assert _cues(s, "zh.x_use_y_replace") == [("糖", "蜂蜜")]
    s = _quoted(_htc("凉拌油麦菜.md"), 45, "芝麻酱可以用花生酱代替")
    assert _cues(s, "zh.x_use_y_replace") == [("芝麻酱", "花生酱")]
    # a clause led by a pronoun or a condition names no X before the cue
    s = _quoted(CPQ / "chaozhou-guotiaojuan.md", 20, "你也可以用陈村粉来代替")
    assert _cues(s, "zh.x_use_y_replace") == []
    s = _quoted(SR / "2025-01-06-萝卜-芋头糕.md", 41, "没有大的蒸炉可以用烤箱代替")
    assert _cues(s, "zh.x_use_y_replace") == []


def test_x_can_use_y_instead_extracts(tmp_path):
    f = _htc("凉拌油麦菜.md")
    _quoted(f, 45, "芝麻酱可以用花生酱代替")
    ex = _extract(tmp_path, f)
    assert ("芝麻酱", "花生酱") in _names(ex, "SUBSTITUTES")


# -- "将/把 X 换成 Y": the object marker and what comes before it are no part of X -------------------------
def test_object_marker_is_cut_from_x():
    s = _quoted(CPQ / "gali-chaofan.md", 17, "上色步骤将生抽酱油换成咖喱粉就行")
    assert _cues(s, "zh.x_replace_with_y") == [("生抽酱油", "咖喱粉")]
    s = _quoted(_htc("牛奶燕麦.md"), 34, "将燕麦替换为快煮燕麦")
    assert _cues(s, "zh.x_replace_with_y") == [("燕麦", "快煮燕麦")]


# -- one verb of putting on or choosing, two things joined by 或 -----------------------------------------
def test_verb_x_or_y_reads_more_verbs():
    s = _quoted(CPQ / "suzha-heiyupian.md", 57, "最后淋上酸梅酱或者桔油就可以吃啦")
    assert _cues(s, "zh.verb_x_or_y") == [("酸梅酱", "桔油")]
    s = _quoted(DRINKS / "soup" / "chinese-clear-soup.md", 64, "选用老母鸡或土鸡")
    assert _cues(s, "zh.verb_x_or_y") == [("老母鸡", "土鸡")]
    # a space (or a note, blanked) after Y ends it as a comma would
    s = _quoted(_htc("田螺酿.md"), 92, "倒入清水或高汤约 300ml")
    assert _cues(s, "zh.verb_x_or_y") == [("清水", "高汤")]
    # X is a name, not a described portion ("锅中剩余的油"): not read
    s = _quoted(_htc("牛排.md"), 86, "取出配菜，装盘，淋上锅中剩余的油或者牛排酱汁（可选）")
    assert _cues(s, "zh.verb_x_or_y") == []
    # the verb starts its clause: "在冰沙表面均匀撒上…" (a place before the verb) is not read
    s = _quoted(_htc("砂糖椰子冰沙.md"), 32, "在冰沙表面均匀撒上咖啡调糖或坚果碎")
    assert _cues(s, "zh.verb_x_or_y") == []


# -- a note "（如果有）", "（如有）", "（如果有的话）": the thing before it is optional --------------------------
def test_if_available_note_is_optional():
    assert _optional(_quoted(HIDE / "staple-dishes" / "抓饭.md", 49, "黄萝卜（如果有）"))
    assert _optional(_quoted(SR / "2023-02-27-巴斯克蛋糕.md", 33, "跟柠檬汁滴进去（如果有的话）"))
    assert _optional(_quoted(_htc("杨枝甘露.md"), 38, "放上点缀材料（如有）"))
    # a time or a chance is not a thing one has ("如果有时间…"): no note, no reading
    assert not _optional("如果有时间可以多泡一会")


# -- a note that lists kinds: "肉（羊肉/牛肉/鸡肉）", "淀粉（玉米淀粉或土豆淀粉）" -------------------------------
def test_note_of_kinds_reads_alternatives():
    s = _quoted(HIDE / "staple-dishes" / "抓饭.md", 24, "肉（羊肉/牛肉/鸡肉）")
    assert _cues(s, "zh.note_kinds") == [("羊肉", "牛肉/鸡肉")]
    s = _quoted(_htc("肉蟹煲.md"), 26, "淀粉（玉米淀粉或土豆淀粉）")
    assert _cues(s, "zh.note_kinds") == [("玉米淀粉", "土豆淀粉")]
    # only a note read on its own: the same words in running text are no note
    assert _cues("羊肉/牛肉/鸡肉", "zh.note_kinds") == []


def _corpus(folder: Path):
    """The rule extraction of a whole dev corpus folder (its vocabulary is what names a thing)."""
    from threadgraph.ingest.pipeline import extract_corpus

    return extract_corpus([folder], root=folder)


def test_note_of_kinds_extracts_only_kinds():
    _quoted(HIDE / "staple-dishes" / "抓饭.md", 24, "肉（羊肉/牛肉/鸡肉）")
    steps = _quoted(HIDE / "cooking-tips.md", 6, "小火（保温/焖）")
    subs = _names(_corpus(HIDE), "SUBSTITUTES")
    assert ("羊肉", "牛肉") in subs and ("羊肉", "鸡肉") in subs
    # a note of two ways of cooking names no thing: nothing is read from it
    first, second = steps.split("（")[1].strip("）").split("/")
    assert not any(first in pair or second in pair for pair in subs)


# -- "（有Y更好）", "（如有Y是最好的）": Y is the better choice for the thing the note follows -------------------
def test_have_y_better_note():
    s = _quoted(MENU / "vegetable" / "清炒菜心.md", 12, "热锅放油（有猪油更好）")
    assert [y for _, y in _cues(s, "zh.have_y_better")] == ["猪油"]
    s = _quoted(_htc("基础牛奶面包.md"), 17, "糖 *（如有糖浆是最好的。）*")
    assert [y for _, y in _cues(s, "zh.have_y_better")] == ["糖浆"]
    # a way of doing it ends in another word: "用糖腌制更好吃" names no thing
    s = _quoted(_htc("凉拌黄瓜.md"), 35, "（用糖腌制更好吃")
    assert _cues(s + "）", "zh.have_y_better") == []


def test_note_after_step_is_about_the_object_of_its_verb(tmp_path):
    caixin = MENU / "vegetable" / "清炒菜心.md"
    _quoted(caixin, 12, "热锅放油（有猪油更好）")
    cabbage = _one(MENU / "vegetable", "手撕包心菜")
    _quoted(cabbage, 17, "热锅放油（有猪油更好）")
    lard = MENU / "vegetable" / "干锅花菜.md"  # lists 猪油: a thing of the corpus
    _quoted(lard, 9, "猪油")
    ex = _extract(tmp_path, caixin, cabbage, lard)
    assert ("油", "猪油") in _names(ex, "SUBSTITUTES")


def test_verb_object():
    from threadgraph.ingest.relations import _verb_object

    assert _verb_object(_quoted(MENU / "vegetable" / "清炒菜心.md", 12, "热锅放油")) == "油"
    assert _verb_object(_quoted(HIDE / "staple-dishes" / "新疆马肠子抓饭.md", 46, "倒入跟大米1:1比例的肉汤或者清水")) == ""
    assert _verb_object("翻炒均匀") == ""
