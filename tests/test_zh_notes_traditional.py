"""Chinese recipe notes in two more shapes: Jekyll cooking notes whose front
matter titles the post and whose H1s are sections (zh-seraphroy: "# 原材料",
"# 步骤"), and a Hong Kong food blog in traditional Chinese with notes in
square brackets and English glosses after the names (zh-jzkitchen: "西芹鹽
celery salt 少許 [可改用海鹽]"). Each reader behaviour and cue is pinned by
sentences of at least two corpora (zh-seraphroy, zh-jzkitchen, zh-zehua,
zh-cpq, zh-meow, bundled HowToCook); every expected value is a literal read
from the corpus text, and the line it comes from is checked first.
"""

from __future__ import annotations

from pathlib import Path

from conftest import CORPORA, one_file as _one, quoted as _quoted, extract_copies as _extract, edge_names as _names

GEN = Path(__file__).resolve().parents[1] / "benchmarks" / "generalization"
SR = GEN / "zh-seraphroy" / "docs"
JZ = GEN / "zh-jzkitchen" / "docs"
ZEHUA = GEN / "zh-zehua" / "docs"
CPQ = GEN / "zh-cpq" / "docs"
MEOW = GEN / "zh-meow" / "docs"
HTC = CORPORA / "howtocook" / "dishes"


def _htc(name: str) -> Path:
    found = sorted(HTC.rglob(name))
    assert found, name
    return found[0]


def _cues(sentence: str, *, in_item: bool = False) -> list[tuple[str, str, str]]:
    from threadgraph.knowledge import cues

    return [(c.rule, c.x, c.y) for c in cues.read(sentence, in_item=in_item)]


# -- reader: an H1 that names a section under a front-matter title -------------------------------------
def test_section_h1_under_front_matter_title_is_a_section():
    from threadgraph.ingest.readers import parse_file
    from threadgraph.ingest.recipes import is_recipe

    f = _one(SR, "2023-01-13-risotto")
    _quoted(f, 2, "title: Risotto偷懒版")
    _quoted(f, 12, "# 原材料")
    doc = parse_file(f, f.name)
    assert doc.h1 == "Risotto偷懒版"
    item = next(b for b in doc.blocks if b.kind == "item" and b.line == 20)
    assert item.path == ("原材料",)
    assert is_recipe(doc)


def test_h1_repeating_the_front_matter_title_stays_the_title():
    from threadgraph.ingest.readers import parse_file

    f = ZEHUA / "knowledge" / "ingredients.md"
    _quoted(f, 2, "title: 原材料")
    _quoted(f, 5, "# 原材料")
    doc = parse_file(f, "ingredients.md")
    assert doc.h1 == "原材料"
    assert all("原材料" not in b.path for b in doc.blocks)


def test_section_h1_recipe_reads_its_optional_items(tmp_path):
    f = _one(SR, "2023-01-13-risotto")
    g = _one(SR, "2025-07-06-胡椒猪肚鸡")
    _quoted(f, 20, "蘑菇（optional）")
    _quoted(g, 16, "猪骨（可选）")
    ex = _extract(tmp_path, f, g)
    opt = _names(ex, "CONTAINS", required=False)
    assert ("Risotto偷懒版", "蘑菇") in opt
    assert ("胡椒猪肚鸡", "猪骨") in opt


# -- traditional Chinese is read through its simplified form -------------------------------------------
def test_simplified_keeps_length_and_offsets():
    from threadgraph.knowledge.text import simplified

    s = _quoted(_one(JZ, "2017-06-16"), 41, "如沒有，可改用平底鑊及焗盤")
    assert simplified(s) == "如没有，可改用平底镬及焗盘"
    assert len(simplified(s)) == len(s)
    plain = _quoted(CPQ / "zhuhou-roujiang-laomian.md", 41, "不用再另外加酱油或者盐了")
    assert simplified(plain) == plain


def test_traditional_cue_slots_come_back_as_written():
    jz = _quoted(_one(JZ, "2017-06-16"), 33, "當然可改用米酒、孖蒸")
    assert _cues(jz) == [("zh.or_use_y", "", "米酒、孖蒸")]
    # the same rule in simplified text (HowToCook): "可改用更少的油…" is a way of cooking, not a
    # thing — the slot cut at 更 names nothing, so no cue
    htc = _quoted(_htc("干煸仔鸡.md"), 61, "可改用更少的油煎鸡块和土豆块")
    assert _cues(htc) == []
    cpq = _quoted(CPQ / "zhuhou-roujiang-laomian.md", 41, "不用再另外加酱油或者盐了")
    assert _cues(cpq) == []


def test_traditional_bracket_note_and_gloss(tmp_path):
    from threadgraph.ingest.items import parse_item

    bloody = _one(JZ, "2015-05-07")
    line = _quoted(bloody, 28, "西芹鹽 celery salt 少許 [可改用海鹽]")
    ip = parse_item(line)
    assert [(i.name, i.amount) for i in ip] == [("西芹鹽", "少許 [可改用海鹽]")]
    rib = _one(JZ, "2017-06-16")
    _quoted(rib, 33, "酒 1杯 (我用上家中剩下的威士忌，當然可改用米酒、孖蒸)")
    ex = _extract(tmp_path, bloody, rib)
    subs = _names(ex, "SUBSTITUTES")
    assert ("西芹鹽", "海鹽") in subs
    assert ("酒", "米酒") in subs and ("酒", "孖蒸") in subs


def test_not_necessary_marks_optional(tmp_path):
    jz = _one(JZ, "2015-11-27")
    _quoted(jz, 27, "蕃茜 parsley (非必要)")
    htc = _htc("披萨饼皮.md")
    _quoted(htc, 27, "擀面杖（非必需）")
    ex = _extract(tmp_path, jz, htc)
    opt = _names(ex, "CONTAINS", required=False)
    assert ("代替感恩節火雞 - Paprika 烤雞", "蕃茜") in opt
    assert ("披萨饼皮", "擀面杖") in opt


# -- "不用X，改用Y" / "不用X用Y…" -------------------------------------------------------------------------
def test_not_x_use_y_two_corpora(tmp_path):
    sr = _one(SR, "2025-01-06-萝卜")
    jz = _one(JZ, "2016-01-06")
    s1 = _quoted(sr, 41, "不用保鲜膜用锡纸将容器封起来")
    s2 = _quoted(jz, 13, "今次不用上豬腩片，改用豬手")
    assert ("zh.not_x_use_y", "保鲜膜", "锡纸") in _cues(s1)
    assert ("zh.not_x_use_y", "豬腩片", "豬手") in _cues(s2)
    subs = _names(_extract(tmp_path, sr, jz), "SUBSTITUTES")
    assert ("保鲜膜", "锡纸") in subs
    assert ("豬腩片", "豬手") in subs


def test_not_adding_is_not_a_substitution():
    # "不用再另外加酱油或者盐了": nothing is used instead
    s = _quoted(CPQ / "zhuhou-roujiang-laomian.md", 41, "所以我觉得不用再另外加酱油或者盐了")
    assert _cues(s) == []


# -- "用X或者Y封好", "用湿布或保鲜膜盖住", "加X或者Y" -------------------------------------------------------
def test_verb_x_or_y_two_corpora(tmp_path):
    s1 = _quoted(_one(SR, "2025-08-24-生腌"), 22, "用真空袋或者保鲜膜封好")
    s2 = _quoted(_htc("印度烤饼.md"), 53, "用湿布或保鲜膜盖住碗口")
    s3 = _quoted(_one(SR, "2025-08-24-葡国鸡"), 32, "加鸡汤或者水")
    s4 = _quoted(CPQ / "zhuhou-roujiang-laomian.md", 63, "加入一勺蒜头油或者香油拌匀")
    assert ("zh.verb_x_or_y", "真空袋", "保鲜膜") in _cues(s1)
    assert ("zh.verb_x_or_y", "湿布", "保鲜膜") in _cues(s2)
    assert ("zh.verb_x_or_y", "鸡汤", "水") in _cues(s3)
    assert ("zh.verb_x_or_y", "蒜头油", "香油") in _cues(s4)
    # "用于喷涂或刷涂": a purpose, not two things
    s5 = _quoted(_htc("空气炸锅脆皮现腌炸鸡.md"), 19, "食用油（用于喷涂或刷涂）")
    assert not [c for c in _cues(s5, in_item=True) if c[0] == "zh.verb_x_or_y"]


def test_verb_x_or_y_keeps_the_whole_phrase(tmp_path):
    # "倒入香菇水或清水": X is 香菇水, not the 香菇 inside it
    f = _htc("黄焖鸡.md")
    _quoted(f, 54, "倒入香菇水或清水")
    subs = _names(_extract(tmp_path, f), "SUBSTITUTES")
    assert not any(x == "香菇" for x, _ in subs)


# -- "如果没有就加一点Y…作替代", "没有的直接下Y也行", "（没有就用Y代替）" ----------------------------------------
def _rule_y(rule_id: str, sentence: str) -> list[str]:
    from threadgraph.knowledge import cues

    rx = next(r.rx for r in cues.rules() if r.id == rule_id)
    return [m.group("y") for m in rx.finditer(sentence)]


def test_none_then_y_two_corpora(tmp_path):
    sauce = _one(SR, "2024-02-20-甜椒洋葱酱")
    s1 = _quoted(sauce, 28, "加入鱼露，如果没有就加一点水和一些盐调味作替代")
    gumbo = _one(SR, "2023-01-16-gumbo")
    s2 = _quoted(gumbo, 41, "有butter的话把butter用煎锅融化，没有的直接下油也行")
    s3 = _quoted(_htc("照烧鸡腿饭.md"), 18, "西兰花（没有就用不辣的青椒代替）")
    assert _rule_y("zh.none_then_y", s1) == ["水和一些盐"]
    assert _rule_y("zh.none_then_y", s2) == ["油"]
    assert _rule_y("zh.none_then_y", s3) == ["不辣的青椒"]
    subs = _names(_extract(tmp_path, gumbo), "SUBSTITUTES")
    assert ("butter", "油") in subs


# -- list items: an amount in numeral characters, a note in brackets, an English gloss --------------------
def test_item_amount_words_gloss_and_bracket_note():
    from threadgraph.ingest.items import parse_item

    ball = _one(JZ, "2016-07-04")
    thyme = _quoted(ball, 35, "百里香 thyme 數株 (optional)")
    [ip] = parse_item(thyme)
    assert (ip.name, ip.amount, ip.optional) == ("百里香", "數株 (optional)", True)
    crumbs = _quoted(ball, 34, "麵包糠 半碗 [用上新鮮麵包粒更好]")
    assert [(i.name, i.amount) for i in parse_item(crumbs)] == [("麵包糠", "半碗 [用上新鮮麵包粒更好]")]
    cheese = _quoted(_one(JZ, "2015-01-09"), 38, "磨碎芝士 grated parmesan cheese [可改用其他 cheese，如 cheddar cheese]")
    [ip] = parse_item(cheese)
    assert ip.name == "磨碎芝士" and [a.raw for a in ip.alternatives] == ["其他 cheese"]
    # simplified text in another corpus: "少量", "一丢丢" amounts and an English-named item are unchanged
    pate = _quoted(_one(SR, "2025-01-06-鸡肝酱"), 19, "Heavy Cream 100g（没有的话用half&half也行）")
    [ip] = parse_item(pate)
    assert ip.name == "Heavy Cream" and ip.alternatives[0].raw.startswith("half&half")
    fish = _quoted(_htc("烤鱼.md"), 38, "大葱 半根")
    assert [(i.name, i.amount) for i in parse_item(fish)] == [("大葱", "半根")]


# -- "（无X可用Y代替）" names its X outright; "根据口味调整" adjusts an amount --------------------------------
def test_none_x_use_y_names_x_outright(tmp_path):
    balls = _one(SR, "2025-01-01-潮汕肉丸")
    s1 = _quoted(balls, 15, "（无肥肉可用黄油代替，")
    assert ("zh.none_x_use_y", "肥肉", "黄油") in _cues(_quoted(balls, 15, "猪/牛后腿肉：1000克（含25%的背部肥肉）（无肥肉可用黄油代替，但要控制在每500克肉加入15-30克黄油）"), in_item=True)
    assert s1
    subs = _names(_extract(tmp_path, balls), "SUBSTITUTES")
    assert ("肥肉", "黄油") in subs
    assert ("猪", "黄油") not in subs
    # a variant's label before a colon is not "无 X" (zh-drinks): the sugar is what the dates replace
    soup = GEN / "zh-drinks" / "docs" / "drinks" / "soup" / "sweet-soup.md"
    s2 = _quoted(soup, 75, "无糖版本：可用红枣、桂圆等代替糖分")
    assert _cues(s2, in_item=True) == [("zh.use_y_replace_x", "糖分", "红枣、桂圆")]


def test_adjust_to_taste_is_not_optional():
    s1 = _quoted(_one(SR, "2025-04-21"), 23, "可增至1.5g，根据口味调整")
    s2 = _quoted(_htc("金枪鱼酱三明治.md"), 24, "俄式酸黄瓜汁 10-15mL（可根据个人口味调整）")
    assert _cues(s1) == []
    assert _cues(s2, in_item=True) == []
    s3 = _quoted(GEN / "zh-drinks" / "docs" / "drinks" / "juice" / "lemonade.md", 16, "糖或蜂蜜（根据口味添加）")
    assert [r for r, _, _ in _cues(s3, in_item=True) if r == "zh.optional"] == ["zh.optional"]


# -- precision guards of the Chinese cue rules -------------------------------------------------------------
def test_instrument_and_second_action_are_not_substitutes():
    herb = _one(JZ, "2016-05-06")
    s1 = _quoted(herb, 42, "可用小掃子把油份輕輕抹在雞腿皮上")
    assert _cues(s1) == []  # a brush used for a step, not a stand-in for the butter
    leek = _one(JZ, "2015-12-11")
    s2 = _quoted(leek, 18, "今年加入雞件及改用烈酒白蘭地作為湯汁的主角")
    assert _cues(s2) == []  # a second action, not "雞件 replaced by brandy"
    # the rules still read a plain "也可以换成 Y" (HowToCook)
    s3 = _quoted(_htc("淄博烧烤.md"), 50, "也可以换成芝麻盐")
    assert _cues(s3) == [("zh.or_use_y", "", "芝麻盐")]


def test_addition_ends_before_where_it_goes():
    chimi = _one(JZ, "2015-01-22")
    s1 = _quoted(chimi, 46, "可加入半個檸檬到烤盤")
    assert _cues(s1) == [("zh.can_add_x", "半個檸檬", "")]
    # an amount range "2 至 5 克" stays the amount of the addition (HowToCook)
    s2 = _quoted(_htc("酸辣蕨根粉.md"), 27, "可以加入 2 至 5 克盐")
    assert _cues(s2) == [("zh.can_add_x", "2 至 5 克盐", "")]


# -- steps: traditional section headings, and an addition of a listed ingredient -----------------------------
def test_traditional_step_heading_and_step_additions(tmp_path):
    from threadgraph.ingest.recipes import in_steps, section_kind

    pesto = _one(JZ, "2016-12-27")
    _quoted(pesto, 33, "### 步驟")
    assert in_steps(("牛油果香蒜醬意粉", "步驟")) and section_kind(("牛油果香蒜醬意粉", "材料")) == "ingredient"
    _quoted(pesto, 28, "- 橄欖油 約 1/4 杯")
    _quoted(pesto, 38, "可加入少許橄欖油炒勻")
    portuguese = _one(SR, "2025-08-24-葡国鸡")
    _quoted(portuguese, 14, "* 椰浆")
    _quoted(portuguese, 33, "可以加椰浆，淡奶和椰丝了")
    opt = _names(_extract(tmp_path, pesto, portuguese), "CONTAINS", required=False)
    assert not any(o == "橄欖油" for _, o in opt)  # more of a listed ingredient, in a step
    assert not any(o == "椰浆" for _, o in opt)
    assert ("葡国鸡", "淡奶") in opt  # "淡奶（optional）" in the list stays optional
