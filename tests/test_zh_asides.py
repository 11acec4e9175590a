"""Chinese recipe extraction: the author's asides in list items and notes
("不能吃辣可以换Y", "不吃辣可以不要", …), pinned by sentences of zh-mymenu and at
least one other corpus each (zh-jzkitchen, zh-hidetoshi, zh-seraphroy, bundled
HowToCook). Every expected value is a literal read from the corpus text, and the
line it comes from is checked first (:func:`conftest.quoted`).
"""

from __future__ import annotations

from pathlib import Path

from conftest import CORPORA, edge_names, extract_copies, one_file as _one, quoted as _quoted

GEN = Path(__file__).resolve().parents[1] / "benchmarks" / "generalization"
MENU = GEN / "zh-mymenu" / "docs"
JZ = GEN / "zh-jzkitchen" / "docs"
HIDE = GEN / "zh-hidetoshi" / "docs"
HTC = CORPORA / "howtocook" / "dishes"


def _alts(text: str) -> list[tuple[str, bool, list[tuple[str, str]]]]:
    """``(name, optional, [(alternative, condition)])`` of each mention of list item ``text``."""
    from threadgraph.ingest.items import parse_item

    return [(ip.name, ip.optional, [(a.raw.strip(), a.condition) for a in ip.alternatives]) for ip in parse_item(text)]


# -- "可以换 Y" after a taste condition: Y stands in for the item, the condition kept ------------------------------
def test_taste_condition_then_can_swap_to_y():
    s1 = _quoted(MENU / "meat" / "青椒炒肉丝.md", 4, "青椒（不能吃辣可以换薄皮椒）")
    assert _alts(s1) == [("青椒", False, [("薄皮椒", "不能吃辣")])]
    # the same cue without a condition, as other corpora write it (zh-jzkitchen, HowToCook): unchanged
    s2 = _quoted(_one(JZ, "2017-05-21"), 32, "罐裝蕃茄 1罐 (可改用新鮮蕃茄)")
    assert _alts(s2) == [("罐裝蕃茄", False, [("新鮮蕃茄", "")])]
    bbq = sorted(HTC.rglob("淄博烧烤.md"))[0]
    note = _quoted(bbq, 39, "（可以换成\"芝麻盐\"）")
    from threadgraph.ingest.items import note_clauses

    assert [(a.raw, a.condition) for a in note_clauses(note.strip("（）"))[1]] == [("\"芝麻盐\"", "")]


# -- "可以不要" ending a note marks the item optional; a bare "不要" does not ------------------------------------------
def test_can_do_without_marks_optional():
    from threadgraph.ingest.items import note_clauses

    s1 = _quoted(MENU / "meat" / "香辣鸡翅.md", 11, "小米辣（不吃辣可以不要）")
    assert _alts(s1) == [("小米辣", True, [])]
    # "綠色的部份不要" (zh-jzkitchen) discards a part: no optional marker
    leek = _one(JZ, "2015-12-11")
    s2 = _quoted(leek, 37, "綠色的部份不要")
    assert note_clauses(s2) == (False, [])
    # the neighbouring "可不放" of zh-hidetoshi still reads as optional
    s3 = _quoted(HIDE / "staple-dishes" / "抓饭.md", 57, "羊肉自带鲜味可不放")
    assert note_clauses(s3)[0] is True


def test_taste_asides_edges(tmp_path):
    ex = extract_copies(tmp_path, MENU / "meat" / "青椒炒肉丝.md", MENU / "meat" / "香辣鸡翅.md")
    assert ("青椒", "薄皮椒") in edge_names(ex, "SUBSTITUTES", condition="不能吃辣")
    assert ("香辣鸡翅", "小米辣") in edge_names(ex, "CONTAINS", required=False)
    assert ("青椒炒肉丝", "青椒") in edge_names(ex, "CONTAINS", required=True)


# -- a category label before a list of things: the label is no ingredient, the things are -------------------------
def test_category_label_lists_its_things():
    polu = HIDE / "staple-dishes" / "抓饭.md"
    label = _quoted(polu, 45, "**肉类**：")  # the Markdown reader drops the bold marks
    s1 = "肉类：" + _quoted(polu, 45, "羊排/羊腿肉（传统），牛腩/牛肋条（有嚼劲），或鸡肉（易熟、低脂）。")
    assert label.strip("*：") == "肉类"
    # the last part's "或" makes the list one choice: every other meat stands in for the first
    assert _alts(s1) == [("羊排", False, [("羊腿肉", ""), ("牛腩", ""), ("牛肋条", ""), ("鸡肉", "")])]
    # a name before an amount stays the name (zh-hidetoshi "肉：500g"); a label before a remark is left
    # as it was (HowToCook): no remark becomes an ingredient
    _quoted(polu, 24, "**肉（羊肉/牛肉/鸡肉）**：500g")
    assert [n for n, _, _ in _alts("肉（羊肉/牛肉/鸡肉）：500g")] == ["肉"]
    soup = sorted(HTC.rglob("汤面.md"))[0]
    s3 = _quoted(soup, 23, "菜类：体积大约和面类相当")
    assert [n for n, _, _ in _alts(s3)] == ["菜类"]
    # one phrase after a category word is a remark, not a list (zh-hidetoshi "大米：按上述说明准备")
    s5 = "大米：" + _quoted(polu, 46, "按上述说明准备。")
    assert [n for n, _, _ in _alts(s5)] == ["大米"]
    fryer = sorted((CORPORA / "howtocook" / "tips").rglob("空气炸锅.md"))[0]
    s4 = _quoted(fryer, 64, "肉类：用筷子按压，硬挺为全熟，柔软带弹性为半熟")
    assert [n for n, _, _ in _alts(s4)] == ["肉类"]


def test_category_label_edges(tmp_path):
    ex = extract_copies(tmp_path, HIDE / "staple-dishes" / "抓饭.md")
    subs = edge_names(ex, "SUBSTITUTES")
    assert {("羊排", "牛腩"), ("羊排", "鸡肉"), ("羊排", "羊腿肉")} <= subs
    assert not any(a == "肉类" for a, _ in subs)
    assert not any(b == "肉类" for _, b in edge_names(ex, "CONTAINS"))


# -- "有 Y 更好" / "用上 Y 更好": Y is the better choice for the thing the note follows -----------------------------
def test_y_is_better_note():
    from threadgraph.ingest.items import note_clauses

    balls = _one(JZ, "2016-07-04")
    s1 = _quoted(balls, 34, "麵包糠 半碗 [用上新鮮麵包粒更好]")
    assert _alts(s1) == [("麵包糠", False, [("新鮮麵包粒", "")])]
    # zh-mymenu writes it after the oil of a step
    note = _quoted(MENU / "vegetable" / "清炒菜心.md", 12, "热锅放油（有猪油更好）")
    assert [(a.raw, a.symmetric) for a in note_clauses(note.split("（")[1].rstrip("）"))[1]] == [("猪油", False)]
    # "更好" after a state or a timing is no thing (HowToCook, zh-cpq)
    bun = sorted(HTC.rglob("炒馍.md"))[0]
    s3 = _quoted(bun, 11, "馒头（隔天略硬更好）")
    assert _alts(s3) == [("馒头", False, [])]
    rice = GEN / "zh-cpq" / "docs" / "chaozhou-chao-doufan.md"
    note2 = _quoted(rice, 39, "水少一点，提前冷藏 6 小时以上，提前一晚上会更好")
    assert note_clauses(note2) == (False, [])


def test_y_is_better_edge(tmp_path):
    ex = extract_copies(tmp_path, _one(JZ, "2016-07-04"))
    assert ("麵包糠", "新鮮麵包粒") in edge_names(ex, "SUBSTITUTES")



# -- title noise: a trailing " - 终极详解教程" or " – <remark>" after the dish, not a dish after the dash ----------
def test_title_guide_or_remark_suffix_is_noise():
    from threadgraph.ingest.recipes import dish_name

    t1 = _quoted(HIDE / "staple-dishes" / "抓饭.md", 1, "新疆抓饭 (Xinjiang Polu) - 终极详解教程")
    assert dish_name(t1) == "新疆抓饭 (Xinjiang Polu)"
    t2 = _quoted(_one(JZ, "2014-09-15"), 4, "檸檬蜜糖雞 – 新手也能煮出唾涎欲滴的菜式")
    assert dish_name(t2) == "檸檬蜜糖雞"
    # the dish after the dash stays (zh-jzkitchen)
    t3 = _quoted(_one(JZ, "2016-01-06"), 4, "韓式泡菜鍋 - 韓式泡菜炆豬手")
    assert dish_name(t3) == "韓式泡菜鍋 - 韓式泡菜炆豬手"
