"""Chinese recipe collections in shapes other than HowToCook's: food-blog posts
(zh-cpq: YAML front matter, "1、…" numbered prose items, prose steps),
Nuxt notes with ingredients as front-matter records (zh-zehua), ingredient
tables, Pelican metadata blocks — each reader behaviour and cue pinned by
sentences of at least two corpora (zh-cpq, zh-zehua, zh-meow, bundled
HowToCook). Every expected value is a literal read from the corpus text; the
line it comes from is checked against the file first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CORPORA, quoted as _quoted, extract_copies as _extract, edge_names as _names

GEN = Path(__file__).resolve().parents[1] / "benchmarks" / "generalization"
CPQ = GEN / "zh-cpq" / "docs"
ZEHUA = GEN / "zh-zehua" / "docs"
MEOW = GEN / "zh-meow" / "docs"
HTC = CORPORA / "howtocook" / "dishes"


# -- reader: "1、…" paragraphs are a numbered list ----------------------------------------------------
def test_numbered_paragraphs_are_items_and_a_recipe():
    from threadgraph.ingest.readers import parse_file
    from threadgraph.ingest.recipes import is_recipe

    doc = parse_file(CPQ / "gali-chaofan.md", "gali-chaofan.md")
    _quoted(CPQ / "gali-chaofan.md", 25, "2、鸡蛋 2~3 个")
    item = next(b for b in doc.blocks if b.line == 25)
    assert (item.kind, item.text, item.ordered, item.order) == ("item", "鸡蛋 2~3 个", True, 2)
    assert is_recipe(doc)


def test_enumeration_marks_only_at_the_start_of_a_paragraph():
    from threadgraph.ingest.readers.markdown import numbered_lines

    # zh-cpq caishen-zhushou.md:33 (a CommonMark list "1. 姜一块") stays a list; a paragraph of "1、"
    assert numbered_lines(_quoted(CPQ / "wandouli-chao-roumo.md", 35, "6、虾皮抓一小把，没有的话也问题不大")) == [
        (0, 6, "虾皮抓一小把，没有的话也问题不大")]
    # HowToCook 炸酱面.md:48: "第 2、3 步" in running text is no numbering
    assert numbered_lines(_quoted(HTC / "staple" / "炸酱面.md", 48, "如有条件（另一个锅）且熟练后，第 2、3 步和 1、4、5、6 步可分时并行执行。")) == []


# -- items written as sentences ------------------------------------------------------------------------
@pytest.mark.parametrize("path, line, text, name, amount, optional, alternatives", [
    # zh-cpq: the name, then remarks on it
    (CPQ / "chaozhou-guotiaojuan.md", 28, "芋头，切一小块就足够了，约 2 元", "芋头", "", False, []),
    (CPQ / "wandouli-chao-roumo.md", 35, "虾皮抓一小把，没有的话也问题不大", "虾皮", "", True, []),
    (CPQ / "xiangkao-jituikuai.md", 33, "白酱油 1 勺，或者生抽，主要调味", "白酱油", "1 勺", False, ["生抽"]),
    (CPQ / "chaozhou-sunjiao.md", 26, "猪肉我今天买了一块梅头肉", "猪肉", "", False, []),
    (CPQ / "wandouli-chao-roumo.md", 27, "瘦肉一块，这里大约 4 两", "瘦肉", "", False, []),
    (CPQ / "chaoshan-suantoulao.md", 27, "食用油会用的比较多，你可以理解为芝麻香油那样的作用，所以油是少不了的。", "食用油", "", False,
     []),
    # zh-zehua: a remark under an item is one sentence, not a list of three things
    (ZEHUA / "recipes" / "spaghetti.md", 22, "最好用西红柿丁罐头, 其他罐头, 鲜西红柿酸味不足", "最好用西红柿丁罐头", "", False, []),
    # HowToCook: the same shapes in a tidier collection
    (HTC / "meat_dish" / "乡村啤酒鸭.md", 37, "小米辣 3 颗，切两段即可(不吃辣的可以不用", "小米辣", "3 颗", True, []),
    (HTC / "soup" / "陈皮排骨汤.md", 24, "排骨，用猪骨也替代也可，4-5 块", "排骨", "", False, ["用猪骨也替代"]),
])
def test_sentence_items_keep_their_first_clause(path, line, text, name, amount, optional, alternatives):
    from threadgraph.ingest.items import parse_item

    _quoted(path, line, text)
    first = parse_item(text)[0]
    assert (first.name, first.amount, first.optional) == (name, amount, optional)
    assert [a.raw for a in first.alternatives] == alternatives


def test_a_line_of_names_stays_a_list():
    from threadgraph.ingest.items import parse_item

    # HowToCook 蚂蚁上树.md:17: "、" between plain names still gives several items
    text = _quoted(HTC / "meat_dish" / "蚂蚁上树.md", 17, "蒜末、姜末")
    assert [p.name for p in parse_item(text)] == ["蒜末", "姜末"]
    text = _quoted(ZEHUA / "recipes" / "borscht.md", 16, "牛骨汤或者牛肉汤")
    assert [(p.name, [a.raw for a in p.alternatives]) for p in parse_item(text)] == [("牛骨汤", ["牛肉汤"])]


# -- procedure headings ------------------------------------------------------------------------------
@pytest.mark.parametrize("path, line, heading, steps", [
    (CPQ / "gali-chaofan.md", 35, "## 制作步骤", True),
    (CPQ / "fuzhu-chao-roupian.md", 43, "## 备料过程", True),
    (CPQ / "shacha-roupi-men-fensi.md", 36, "## 处理食材", True),
    (CPQ / "gali-chaofan.md", 21, "## 主要食材", False),
    (HTC / "meat_dish" / "回锅肉" / "回锅肉.md", 45, "### 配菜处理", True),
    (HTC / "staple" / "蒸卤面.md", 47, "### 备料", True),
    (CPQ / "huasheng-lianou-paigu-tang.md", 62, "## 浸泡食材", True),
    (HTC / "aquatic" / "红烧鱼头.md", 43, "### 腌制鱼头", True),
])
def test_processing_headings_are_procedure_sections(path, line, heading, steps):
    from threadgraph.ingest.recipes import in_steps

    _quoted(path, line, heading)
    assert in_steps((heading.lstrip("# "),)) is steps


# -- the dish a title names ----------------------------------------------------------------------------
@pytest.mark.parametrize("path, line, title, dish", [
    (CPQ / "chaozhou-chao-doufan.md", 2, "省钱菜谱：3.4元的潮州炒豆饭（10min）", "潮州炒豆饭"),
    (CPQ / "chaoshan-suantoulao.md", 2, "超简单的潮汕蒜头朥做法（我菜谱里常出现的）", "潮汕蒜头朥"),
    (CPQ / "chaozhou-sunjiao.md", 2, "在广州新家做的第一顿晚餐：潮州笋饺", "潮州笋饺"),
    (CPQ / "xinaoerliang-kaorou-juanbing.md", 2, "菜单分享：新奥尔良烤肉卷饼（20min）", "新奥尔良烤肉卷饼"),
    (MEOW / "宫保鸡丁（老饭骨）.md", 1, "宫保鸡丁（老饭骨版）", "宫保鸡丁（老饭骨版）"),
    (HTC / "meat_dish" / "回锅肉" / "回锅肉.md", 1, "回锅肉的做法", "回锅肉"),
])
def test_dish_name_of_a_title(path, line, title, dish):
    from threadgraph.ingest.recipes import dish_name

    _quoted(path, line, title)
    assert dish_name(title) == dish


# -- front-matter records: "optional: true" ---------------------------------------------------------------
def test_front_matter_records_mark_optional_items(tmp_path):
    pancake, spaghetti = ZEHUA / "recipes" / "pancake.md", ZEHUA / "recipes" / "garlic-spaghetti.md"
    _quoted(pancake, 35, "- name: 黄油")
    _quoted(pancake, 38, "optional: true")
    _quoted(spaghetti, 15, "- name: 奶酪丝")
    _quoted(spaghetti, 16, "optional: true")
    _quoted(spaghetti, 12, "- name: 胡椒粉")
    ex = _extract(tmp_path, pancake, spaghetti)
    optional = _names(ex, "CONTAINS", required=False)
    assert {("薄饼", "黄油"), ("薄饼", "香精"), ("蒜香意面", "奶酪丝"), ("蒜香意面", "高汤")} <= optional
    assert ("蒜香意面", "胡椒粉") not in optional  # no "optional" key: required


# -- ingredient tables ---------------------------------------------------------------------------------
def test_ingredient_tables_list_a_recipes_ingredients():
    from threadgraph.ingest.readers import parse_file
    from threadgraph.ingest.recipes import ingredient_table_rows

    chicken = ZEHUA / "recipes" / "new-orleans-chicken.md"
    _quoted(chicken, 17, "| 盐         | 40       | 0.14 |")
    rows = ingredient_table_rows(parse_file(chicken, chicken.name))
    assert (rows[0].name, rows[0].amount) == ("盐", "40")
    pork = HTC / "meat_dish" / "虎皮肘子.md"
    _quoted(pork, 37, "|猪前肘|1|个|")
    rows = ingredient_table_rows(parse_file(pork, pork.name))
    assert (rows[0].name, rows[0].amount) == ("猪前肘", "1 个")
    # a conversion table in the notes of a recipe that has its own list is no ingredient list
    bread = HTC / "staple" / "基础牛奶面包" / "基础牛奶面包.md"
    _quoted(bread, 177, "|1          |黄油  |227      |")
    assert ingredient_table_rows(parse_file(bread, bread.name)) == []


# -- Pelican / MultiMarkdown metadata --------------------------------------------------------------------
def test_pelican_metadata_block_is_front_matter():
    from threadgraph.ingest.readers.frontmatter import split_metadata_block

    title = _quoted(CPQ / "shacha-chao-jielan.md", 2, "省钱菜谱：4块钱的沙茶炒芥兰（5min）")
    body = _quoted(CPQ / "shacha-chao-jielan.md", 23, "1、芥兰大半把，约 1.5 元（中午拆了小半把炒粿条了）")
    fm, text = split_metadata_block(f"Title: {title}\nDate: 2021-10-10 22:39\nCategory: teochew\n\n{body}\n")
    assert fm.fields["title"] == title and fm.fields["category"] == "teochew"
    assert text.split("\n")[4] == body  # lines keep their numbers
    zehua_title = _quoted(ZEHUA / "recipes" / "borscht.md", 2, "title: 罗宋汤")
    fm, _ = split_metadata_block(f"{zehua_title.capitalize()}\nTags: dinner\n\n- 西红柿\n")
    assert fm.fields["title"] == "罗宋汤"
    # a note that starts with "Word: …" and no title is text, not metadata
    note = _quoted(HTC / "staple" / "炸酱面.md", 48, "如有条件")
    assert split_metadata_block(f"Note: {note}\nMore: text\n")[0] is None


# -- cues ------------------------------------------------------------------------------------------------
def _subs(sentence: str, in_item: bool = False) -> list[tuple[str, str]]:
    from threadgraph.knowledge import cues

    return [(c.x, c.y) for c in cues.read(sentence, in_item=in_item) if c.kind == "substitute"]


def test_bare_or_in_running_prose_is_no_stand_in():
    # zh-cpq shacha-roupi-men-fensi.md:16 and HowToCook 咸肉菜饭.md:51: "，或者…" goes on with the sentence
    assert _subs(_quoted(CPQ / "shacha-roupi-men-fensi.md", 16, "建议搭配个汤一起吃，或者准备点 AD 钙奶啥的饮料嘿嘿")) == []
    assert _subs(_quoted(HTC / "staple" / "咸肉菜饭.md", 51, "如果不是淡咸肉可以混入新鲜五花肉丁，或减少咸肉的用量")) == []


def test_or_in_a_note_or_an_item_is_a_stand_in():
    # a note "（或者生抽）" (zh-cpq) / "（或鸡油）" (HowToCook); "，或者 Y" inside an ingredient item
    assert _subs(_quoted(CPQ / "fuzhu-chao-roupian.md", 37, "（或者生抽）")) == [("", "生抽")]
    assert _subs(_quoted(HTC / "staple" / "鲜肉烧卖.md", 53, "猪油（或鸡油）15 g")) == [("", "鸡油")]
    assert _subs(_quoted(CPQ / "xiangkao-jituikuai.md", 33, "白酱油 1 勺，或者生抽"), in_item=True) == [("", "生抽")]


def test_or_after_a_stand_in_continues_the_stand_ins():
    # HowToCook 鲜肉烧卖.md:75; zh-cpq zhuhou-kaorou-pei-qingguasi-juanbing.md:19 (a spoken list with 啊)
    assert ("", "饺子皮擀薄") in _subs(_quoted(HTC / "staple" / "鲜肉烧卖.md", 75, "如果没有烧卖皮，可用大馄饨皮，或者饺子皮擀薄"))
    from threadgraph.knowledge import cues

    text = _quoted(CPQ / "zhuhou-kaorou-pei-qingguasi-juanbing.md", 19, "你也可以用奥尔良腌料啊沙茶酱啊之类的去做烤肉")
    found = [c for c in cues.read(text) if c.kind == "substitute"]
    assert [cues.split_alternatives(c.y) for c in found] == [["奥尔良腌料", "沙茶酱"]]


def test_no_stand_in_from_negations_and_amounts():
    # 没办法 / 没有用 are no "没有 X" (zh-cpq); "多一点也…" is an amount (zh-cpq, HowToCook); "但也不错" (HowToCook)
    assert _subs(_quoted(CPQ / "shacha-dansi-chao-mifen.md", 54, "所以没办法和我妈用煤气炉那样晃的超薄")) == []
    assert _subs(_quoted(CPQ / "jinzhengu-roupi-men-doufu.md", 17, "然后这次我没有用蚝油，昨天新买的豆酱就炒了个番薯叶")) == []
    assert _subs(_quoted(CPQ / "chaoshan-suantoulao.md", 61, "至少需要淹没蒜头，多一点也可以")) == []
    assert _subs(_quoted(HTC / "meat_dish" / "羊排焖面" / "羊排焖面.md", 34, "（多一点也没关系）")) == []
    assert _subs(_quoted(HTC / "drink" / "奇异果菠菜特调" / "奇异果菠菜特调.md", 42, "没有宜家的好喝，但也不错")) == []


def test_y_also_fine_after_or():
    # zh-cpq wawacai-fensi-men-roupi.md:87 "或者是生抽也不错"; zh-cpq gali-chaofan.md:27 "用生抽酱油也可以"
    assert _subs(_quoted(CPQ / "wawacai-fensi-men-roupi.md", 87, "有鱼露用鱼露更鲜美，或者是生抽也不错")) == [("", "生抽")]
    assert ("", "生抽酱油") in _subs(_quoted(CPQ / "gali-chaofan.md", 27, "平时喜欢用生抽酱油也可以"))


# -- whole documents: what the new shapes give --------------------------------------------------------------
def test_blog_posts_give_their_stand_ins(tmp_path):
    files = [CPQ / "fuzhu-chao-roupian.md", CPQ / "xiannengduozhi-zhajitui.md", CPQ / "jiaofen-roumo-jiandan.md",
             CPQ / "shacha-roupi-men-fensi.md", ZEHUA / "recipes" / "livers.md"]
    _quoted(files[0], 37, "2、白酱油 1 勺（或者生抽）")
    _quoted(files[1], 27, "3、方便面麻油（自己就用芝麻香油代替）")
    _quoted(files[2], 31, "4、辣椒粉或者孜然粉啥的你喜欢的调味粉哈哈哈")
    _quoted(files[4], 11, "- name: 鸡汤(或水)")
    ex = _extract(tmp_path, *files)
    subs = _names(ex, "SUBSTITUTES")
    assert {("白酱油", "生抽"), ("方便面麻油", "芝麻香油"), ("辣椒粉", "孜然粉"), ("鸡汤", "水")} <= subs
    # "建议搭配个汤一起吃，或者准备点 AD 钙奶啥的饮料" (shacha-roupi-men-fensi.md:16) gives nothing
    assert not [s for s in subs if "饮料" in s[1] or "钙奶" in s[1]]
    recipes = {e.name for e in ex.entities.values() if e.type == "recipe"}
    assert {"炸腐竹炒肉片", "鲜嫩多汁炸鸡腿", "椒粉肉末煎蛋", "沙茶肉皮焖粉丝", "动物肝脏"} <= recipes


def test_leaving_out_with_bu_jia():
    from threadgraph.knowledge import cues

    def optional(sentence: str) -> list[tuple[str, str]]:
        return [(c.rule, c.x) for c in cues.read(sentence) if c.kind == "optional"]

    # zh-cpq shacha-chao-jielan.md:41 "不加肉也可以"; HowToCook 麻辣减脂荞麦面.md:51 "可以不加醋"
    assert optional(_quoted(CPQ / "shacha-chao-jielan.md", 41, "如果你做了不止一道菜，不加肉也可以哈哈哈")) == [
        ("zh.omit_x_also_ok", "肉")]
    # (read since 不加 now triggers the optional rules)
    assert [r for r, _ in optional(_quoted(HTC / "staple" / "麻辣减脂荞麦面.md", 51, "如果不能吃酸，可以不加醋"))] == [
        "zh.optional"]
    # a stand-in reading never takes "不加肉" or "当然你" as the stand-in
    assert [c for c in cues.read("如果你做了不止一道菜，不加肉也可以哈哈哈") if c.kind == "substitute"] == []
    text = _quoted(CPQ / "huasheng-lianou-paigu-tang.md", 149, "当然你也可以搭配排骨辣酱，哈哈哈也非常棒！")
    assert [(c.kind, c.x) for c in cues.read(text)] == [("optional", "排骨辣酱")]
