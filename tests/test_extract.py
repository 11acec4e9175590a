"""Extraction + normalization tests on the bundled corpora (no database)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from threadgraph.ingest.items import is_tool, parse_item
from threadgraph.ingest.normalize import Normalizer
from threadgraph.ingest.document import DocumentError
from threadgraph.ingest.readers import parse_file
from threadgraph.ingest.pipeline import extract_corpus
from threadgraph.knowledge.records import entity_id

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT / "corpora"
GBJD = "howtocook/dishes/meat_dish/宫保鸡丁/宫保鸡丁.md"


@pytest.fixture(scope="module")
def ex():
    return extract_corpus([CORPORA], root=CORPORA)


def _norm() -> Normalizer:
    return Normalizer(90.0)


def _contains(ex, recipe: str, ingredient: str):
    canon = _norm().canonical(ingredient, "ingredient")
    hits = [t for t in ex.triples if t.relation == "CONTAINS" and t.subject == entity_id("recipe", recipe)
            and t.object == entity_id("ingredient", canon)]
    assert hits, f"{recipe} CONTAINS {ingredient} ({canon}) missing"
    return hits[0]


def _line_of(path: Path, needle: str) -> int:
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() == needle:
            return no
    raise AssertionError(f"{needle!r} not in {path}")


def test_gongbao_contains_dacong_required(ex):
    t = _contains(ex, "宫保鸡丁", "大葱")
    assert t.properties["required"] is True
    assert t.properties["amount"].startswith("1 根")
    assert t.provenance.doc == GBJD


def test_tomato_egg_sugar_optional(ex):
    t = _contains(ex, "西红柿炒鸡蛋", "糖")
    assert t.properties["required"] is False
    assert _contains(ex, "西红柿炒鸡蛋", "鸡蛋").properties["required"] is True


def test_gongbao_optional_subheading(ex):
    assert _contains(ex, "宫保鸡丁", "莴笋").properties["required"] is False


def test_gongbao_substitutions(ex):
    n = _norm()
    line = _line_of(CORPORA / GBJD, "- 手枪腿（或者鸡胸脯肉）")
    subs = [t for t in ex.triples if t.relation == "SUBSTITUTES"
            and t.subject == entity_id("ingredient", n.canonical("手枪腿", "ingredient"))
            and t.object == entity_id("ingredient", n.canonical("鸡胸脯肉", "ingredient"))]
    assert subs, "手枪腿 -> 鸡胸脯肉 missing"
    t = subs[0]
    assert t.properties["context"] == "recipe:宫保鸡丁"
    assert t.properties["symmetric"] is True
    assert t.provenance.line == line
    assert t.provenance.doc == GBJD
    assert any(t.subject == "ingredient:干辣椒" and t.object == "ingredient:二荆条" for t in ex.triples
               if t.relation == "SUBSTITUTES")


def test_directional_substitution_with_condition(ex):
    subs = [t for t in ex.triples if t.relation == "SUBSTITUTES" and t.properties.get("context") == "recipe:照烧鸡腿饭"]
    honey = [t for t in subs if t.subject == "ingredient:蜂蜜" and t.object == "ingredient:白糖"]
    assert honey and honey[0].properties["symmetric"] is False and "没有" in honey[0].properties["condition"]


def test_tools_never_ingredients(ex):
    names = {e.name for e in ex.entities.values() if e.type == "ingredient"}
    for tool in ("锅", "砧板", "微波炉", "烤箱", "空气炸锅", "保鲜膜", "剪刀", "厨房纸", "电饭煲"):
        assert tool not in names
    tools = {e.name for e in ex.entities.values() if e.type == "tool"}
    assert {"微波炉", "烤箱", "锅"} <= tools
    for t in ex.triples:
        if t.relation == "SUBSTITUTES" and (t.subject.startswith("tool:") or t.object.startswith("tool:")):
            assert t.subject.startswith("tool:") and t.object.startswith("tool:")
    assert is_tool("平底锅") and not is_tool("锅巴") and not is_tool("大葱")


def _mini(tmp_path: Path, name: str, body: str):
    d = tmp_path / "docs"
    d.mkdir(exist_ok=True)
    (d / name).write_text(body, encoding="utf-8")
    return extract_corpus([d], root=d)


def test_unit_and_method_alternatives_are_not_substitutions(tmp_path):
    ex = _mini(tmp_path, "soup.md", (
        "# Tomato soup\n\n## Ingredients\n\n- 14 ounces or 400 grams canned tomatoes\n- 1 onion\n\n"
        "## Steps\n\n1. Chop or dice the onion.\n2. Simmer.\n"))
    assert not [t for t in ex.triples if t.relation == "SUBSTITUTES"]
    objs = {t.object for t in ex.triples if t.relation == "CONTAINS"}
    assert "ingredient:canned tomato" in objs and "ingredient:onion" in objs
    ex = _mini(tmp_path, "汤.md", "# 番茄汤的做法\n\n## 必备原料和工具\n\n- 牛奶 1 杯或 240ml\n- 土豆 2-3 个\n- 胡萝卜（切片或切丝）\n")
    assert not [t for t in ex.triples if t.relation == "SUBSTITUTES"]
    assert {"ingredient:牛奶", "ingredient:胡萝卜"} <= {t.object for t in ex.triples}


def test_english_alternatives(tmp_path):
    ex = _mini(tmp_path, "r.md", "# Pancakes\n\n## What you need\n\n- butter or margarine\n- milk (optional)\n- a pan\n\n"
               "## Method\n\nUse honey instead of sugar.\n\n- sugar\n")
    subs = {(t.subject, t.object, t.properties["symmetric"]) for t in ex.triples if t.relation == "SUBSTITUTES"}
    assert ("ingredient:butter", "ingredient:margarine", True) in subs
    contains = {t.object: t for t in ex.triples if t.relation == "CONTAINS"}
    assert contains["ingredient:milk"].properties["required"] is False
    assert "tool:pan" in contains


def test_parse_item_phrasings():
    p = parse_item("西兰花（没有就用不辣的青椒代替）")[0]
    assert p.name == "西兰花" and p.alternatives[0].raw.endswith("青椒") and not p.alternatives[0].symmetric
    p = parse_item("干辣椒(或二荆条)")[0]
    assert p.alternatives[0].raw == "二荆条" and p.alternatives[0].symmetric
    p = parse_item("糖（可选）")[0]
    assert p.optional and p.name == "糖"
    p = parse_item("大葱 = 1 根（约 180g）")[0]
    assert p.name == "大葱" and p.amount == "1 根（约 180g）"


def test_pagerduty_roles(ex):
    roles = {e.name: e for e in ex.entities.values() if e.type == "role"}
    for name in ("Incident Commander", "Deputy", "Scribe", "Subject Matter Expert", "Customer Liaison",
                 "Internal Liaison", "Crisis Team Leader"):
        assert name in roles, name
    assert "IC" in roles["Incident Commander"].aliases
    assert "SME" in roles["Subject Matter Expert"].aliases
    assert "IC" not in roles and "SME" not in roles


def _role_sub(ex, a: str, b: str):
    return [t for t in ex.triples if t.relation == "SUBSTITUTES"
            and t.subject == entity_id("role", a) and t.object == entity_id("role", b)]


def test_role_standins(ex):
    subs = _role_sub(ex, "Scribe", "Deputy")
    assert subs and subs[0].properties["condition"] == "if the incident is small enough in scope"
    path = CORPORA / "pagerduty-incident-response/docs/before/different_roles.md"
    text = path.read_text(encoding="utf-8").splitlines()
    assert "take on the responsibilities of the Scribe" in text[subs[0].provenance.line - 1]
    assert _role_sub(ex, "Internal Liaison", "Deputy")
    # "the IC is responsible for delegating somebody … in their stead": the IC delegates,
    # it does not stand in (see test_delegating_is_not_a_standin)
    assert not _role_sub(ex, "Customer Liaison", "Incident Commander")
    assert _role_sub(ex, "Incident Commander", "Deputy")


def test_sop_structure(ex):
    doc = "pagerduty-incident-response/docs/before/different_roles.md"
    did = entity_id("document", doc)
    assert did in ex.entities
    sections = [t.object for t in ex.triples if t.relation == "CONTAINS" and t.subject == did]
    assert entity_id("section", f"{doc}#Deputy") in sections
    steps = [t for t in ex.triples if t.relation == "CONTAINS" and t.object.startswith("step:")
             and t.provenance.doc == doc]
    assert len(steps) > 10
    mentions = [t for t in ex.triples if t.relation == "RELATED" and t.properties.get("predicate") == "mentions_role"]
    assert any(t.object == "role:Incident Commander" for t in mentions)


def test_chunks(ex):
    assert ex.chunks
    assert all(len(c.text) <= 800 for c in ex.chunks)
    gb = [c for c in ex.chunks if c.doc == GBJD]
    assert any(c.section == "必备原料和工具" and c.language == "zh" for c in gb)
    assert any("recipe:宫保鸡丁" in c.entity_ids or "ingredient:大葱" in c.entity_ids for c in gb)
    pd = [c for c in ex.chunks if c.doc.endswith("different_roles.md")]
    assert any(c.language == "en" and "role:Deputy" in c.entity_ids for c in pd)
    assert len({c.id for c in ex.chunks}) == len(ex.chunks)


def test_bad_files_skipped(tmp_path):
    d = tmp_path / "c"
    d.mkdir()
    (d / "good.md").write_text("# Good\n\nSome text about the Deputy.\n", encoding="utf-8")
    (d / "empty.md").write_text("", encoding="utf-8")
    (d / "bin.md").write_bytes(b"# x\n\x00\x01\x02")
    (d / "latin1.md").write_bytes("# ok\n\nline two\ncaf\xe9\n".encode("latin-1"))
    (d / "image.png").write_bytes(b"\x89PNG")
    (d / "LICENSE").write_text("MIT", encoding="utf-8")
    (d / "notes.txt").write_text("First paragraph.\n\nSecond paragraph.\n", encoding="utf-8")
    ex = extract_corpus([d], root=d)
    skipped = {s.path: s for s in ex.skipped}
    assert skipped["empty.md"].reason == "empty file"
    assert "binary" in skipped["bin.md"].reason and skipped["bin.md"].line == 2
    assert "UTF-8" in skipped["latin1.md"].reason and skipped["latin1.md"].line == 4
    assert skipped["image.png"].reason == "unsupported file type"
    assert "LICENSE" not in skipped
    assert set(ex.documents) == {"good.md", "notes.txt"}
    assert [c.text for c in ex.chunks if c.doc == "notes.txt"] == ["First paragraph.\n\nSecond paragraph."]


def test_parse_errors_and_front_matter(tmp_path):
    p = tmp_path / "x.xyz"  # .rst is a supported format now
    p.write_text("hello", encoding="utf-8")
    with pytest.raises(DocumentError) as err:
        parse_file(p)
    assert err.value.reason == "unsupported file type"
    q = tmp_path / "fm.md"
    q.write_text("---\ntitle: Hello\n---\n<!-- hidden\ncomment -->\n## Sec\n\n- item ![img](a.png)\n", encoding="utf-8")
    doc = parse_file(q)
    assert doc.title == "Hello"
    item = [b for b in doc.blocks if b.kind == "item"][0]
    assert item.line == 8 and item.text == "item" and item.path == ("Sec",)


def test_determinism():
    a = extract_corpus([CORPORA], root=CORPORA)
    b = extract_corpus([CORPORA], root=CORPORA)
    assert list(a.entities) == list(b.entities)
    assert [(t.id, t.properties) for t in a.triples] == [(t.id, t.properties) for t in b.triples]
    assert [(c.id, c.text, c.entity_ids) for c in a.chunks] == [(c.id, c.text, c.entity_ids) for c in b.chunks]
    assert [(m.surface, m.canonical) for m in a.merges] == [(m.surface, m.canonical) for m in b.merges]


def test_normalization_guards():
    n = Normalizer(90.0)
    assert n.canonical("西红柿", "ingredient") == n.canonical("番茄", "ingredient") == "番茄"
    for a, b in (("白糖", "红糖"), ("生抽", "老抽"), ("白醋", "香醋"), ("鸡蛋", "鸡蛋清")):
        assert n.canonical(a, "ingredient") != n.canonical(b, "ingredient"), (a, b)
    # even a very permissive threshold never merges short Chinese names
    loose = Normalizer(50.0)
    assert loose.canonical("白糖", "ingredient") != loose.canonical("红糖", "ingredient")
    assert loose.canonical("生抽", "ingredient") != loose.canonical("老抽", "ingredient")
    assert n.canonical("生抽酱油", "ingredient") == "生抽"
    assert n.canonical("IC", "role") == "Incident Commander"
    assert n.canonical("新鲜的鸡蛋 2 个", "ingredient") == "鸡蛋"
    assert n.canonical("tomatoes", "ingredient") == n.canonical("tomato", "ingredient")
    assert any(m.surface == "西红柿" and m.canonical == "番茄" and m.method == "alias" for m in n.merges)


def test_fuzzy_merge_latin():
    n = Normalizer(90.0)
    n.canonical("worcestershire sauce", "ingredient")
    assert n.canonical("worcestershire sause", "ingredient") == "worcestershire sauce"
    assert n.merges[-1].method == "fuzzy"


# --------------------------------------------------------------------------- note-clause substitutes
HTC = CORPORA / "howtocook"


def _find_line(needle: str, *parts: str) -> tuple[Path, int, str]:
    """First corpus file/line containing ``needle`` (and every ``parts``), searched in the file."""
    for path in sorted(HTC.rglob("*.md")):
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if needle in line and all(p in line for p in parts):
                return path, no, line
    raise AssertionError(f"{needle!r} not found in the corpus")


def _recipe_of(path: Path) -> str:
    from threadgraph.ingest.recipes import recipe_name
    return entity_id("recipe", recipe_name(parse_file(path)))


def _subs_from(ex, path: Path, x: str, type_: str = "ingredient"):
    n = _norm()
    return [t for t in ex.triples if t.relation == "SUBSTITUTES" and t.properties["context"] == _recipe_of(path)
            and t.subject == entity_id(type_, n.canonical(x, type_))]


@pytest.mark.parametrize("x, note, y", [
    ("鸡腿肉", "（去骨，可用羊肉替代）", "羊肉"),                         # X（…，可用 Y 替代）
    ("藏红花", "— 可用食用黄色素替代", "食用黄色素"),                      # X(gloss)— 可用 Y 替代
    ("味淋", "也可用料酒代替）", "料酒"),                                  # X（…，…，也可用 Y 代替）
    ("烤鹰嘴豆粉", "— 可用炒熟的鹰嘴豆磨粉替代", "炒熟的鹰嘴豆磨粉"),
    ("芥末油", "— 可用其他食用油替代", "食用油"),                          # "其他" dropped
    ("印度黑盐", "— 可用普通盐替代", "盐"),                                # "普通" dropped
    ("猪油", "（没有可用食用油替代", "食用油"),                            # X（没有可用 Y 替代，…）
])
def test_note_clause_substitutes(ex, x, note, y):
    path, line, text = _find_line(x, note)
    n = _norm()
    subs = _subs_from(ex, path, x)
    want = entity_id("ingredient", n.canonical(y, "ingredient"))
    hit = [t for t in subs if t.object == want]
    assert hit, f"{x} -> {y} missing ({path.name}:{line}: {text})"
    t = hit[0]
    assert t.provenance.line == line and t.provenance.doc == path.relative_to(CORPORA).as_posix()
    assert t.properties["symmetric"] is False
    if note.startswith("（没有"):
        assert t.properties["condition"] == "没有时"
    name = ex.entities[t.object].name
    assert not name.endswith(("替代", "代替")) and not name.startswith(("其他", "普通")), name
    # the dash note does not leak into the ingredient's own name
    rid = _recipe_of(path)
    assert entity_id("ingredient", n.canonical(x, "ingredient")) in {
        c.object for c in ex.triples if c.relation == "CONTAINS" and c.subject == rid}


def test_tool_or_tool_alternative(ex):
    path, line, text = _find_line("砵或者")
    other = text.split("或者", 1)[1].strip()                      # "有一定深度的碗"
    subs = _subs_from(ex, path, "砵", "tool")
    want = entity_id("tool", _norm().canonical(other, "tool"))
    assert want == "tool:碗"                                       # a tool is named by its head noun
    assert [t for t in subs if t.object == want and t.provenance.line == line and t.properties["symmetric"] is True]
    assert other in ex.entities[want].aliases
    assert entity_id("ingredient", "砵") not in ex.entities
    assert is_tool("砵") and is_tool("有一定深度的碗")


def test_optional_marker_next_to_alternative(ex):
    path, line, text = _find_line("火腿肠（或", "可选")
    rid = _recipe_of(path)
    t = [c for c in ex.triples if c.relation == "CONTAINS" and c.subject == rid and c.object == "ingredient:火腿肠"]
    assert t and t[0].properties["required"] is False and t[0].provenance.line == line
    alt = text.split("（或", 1)[1].split("，", 1)[0].strip()
    assert [s for s in _subs_from(ex, path, "火腿肠") if s.object == entity_id("ingredient", _norm().canonical(alt, "ingredient"))]


def test_optional_marker_belongs_to_its_item():
    p = parse_item("香叶，花椒，小米辣（可选），姜")
    assert [(i.name, i.optional) for i in p] == [("香叶", False), ("花椒", False), ("小米辣", True), ("姜", False)]
    assert all(i.optional for i in parse_item("（可选）：鸡蛋，青菜"))
    assert not parse_item("阿根廷红虾（选用了速冻虾）")[0].optional      # "选用了" is a choice, not optional
    assert parse_item("干辣椒（不吃辣可以不放）")[0].optional
    p = parse_item("牛肉 250 g （可选用牛腩肉或牛尾肉）")[0]
    assert not p.optional and p.alternatives


def test_compound_substitute_is_one_edge(ex):
    path, line, text = _find_line("蜂蜜", "+", "代替")
    subs = _subs_from(ex, path, "蜂蜜")
    assert len(subs) == 1, [t.object for t in subs]
    t = subs[0]
    combo = text.split("使用", 1)[1].rsplit("代替", 1)[0].strip()  # "白糖 20 g + 玉米淀粉 5 g + 0.5 ml 柠檬汁或醋"
    first = combo.split("+")[0]
    assert t.object == entity_id("ingredient", _norm().canonical(first, "ingredient"))
    assert combo in t.properties["condition"] and "没有" in t.properties["condition"]
    assert t.provenance.line == line
    # no single part of the combination is claimed to replace 蜂蜜 on its own
    for part in combo.split("+")[1:]:
        for name in part.split("或"):
            assert entity_id("ingredient", _norm().canonical(name, "ingredient")) not in {s.object for s in subs}
    assert "ingredient:玉米淀粉" not in {s.object for s in subs}
    # "（替代：A + B）" is the same kind of compound
    path, line, text = _find_line("海鲜酱", "替代：")
    subs = _subs_from(ex, path, "海鲜酱")
    assert len(subs) == 1 and "+" in subs[0].properties["condition"] and subs[0].provenance.line == line


def test_note_clauses_reject_non_substitutes(tmp_path):
    ex = _mini(tmp_path, "汤.md", (
        "# 测试汤的做法\n\n## 必备原料和工具\n\n"
        "- 出汁（使用柴鱼干和昆布熬制的汤汁，可以用于提鲜）\n"   # "可以用于" is a purpose, not a stand-in
        "- 葱（也可选用切好的葱段）\n"                         # a cut form of the same thing
        "- 葱花（或其他配料）\n"                               # nothing specific
        "- 小刀（或者可以去除夹心的工具）\n"
        "- 胡萝卜（切片或切丝）\n- 牛奶 1 杯或 240ml\n"))
    assert not [t for t in ex.triples if t.relation == "SUBSTITUTES"]


# --------------------------------------------------------------------------- recipe steps are not ingredients
_STEP_HEADING = re.compile(r"^(?:\d+[.、]\s*)?(?:操作|步骤|做法|制作|steps?\b|method\b|instructions?\b)", re.I)
_STEP_WORDS = re.compile(r"关火|盛盘|盛出|翻炒|放入|加入|倒入|洗净|切成|去蒂$|泡\s*\d|左手|右手|搅拌盆从")


def _heading_stack(path: Path, line: int) -> list[str]:
    """The Markdown headings (level ≥ 2) enclosing ``line``, read from the file itself."""
    stack: list[tuple[int, str]] = []
    for no, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if no > line:
            break
        m = re.match(r"^(#{1,6})\s+(.*)$", text)
        if m:
            lv = len(m.group(1))
            stack = [s for s in stack if s[0] < lv] + [(lv, m.group(2).strip())]
    return [t for lv, t in stack if lv > 1]


def test_no_ingredient_from_step_sections(ex):
    bad, names = [], []
    for t in ex.triples:
        if t.relation != "CONTAINS" or not t.subject.startswith("recipe:"):
            continue
        heads = _heading_stack(CORPORA / t.provenance.doc, t.provenance.line)
        # a step may make a thing optional ("依个人口味加小米辣", issue 10: relations in every section),
        # never required: a recipe's required ingredients come from its lists
        if any(_STEP_HEADING.match(h) for h in heads) and t.properties.get("required") is not False:
            bad.append((t.subject, t.object, t.provenance.doc, t.provenance.line, heads))
        e = ex.entities[t.object]
        names += [(t.subject, n) for n in [e.name, *e.aliases] if _STEP_WORDS.search(n)]
    assert not bad, bad[:10]
    assert not names, names[:10]


def test_yuxiang_rousi_steps_not_ingredients(ex):
    path = CORPORA / "howtocook/dishes/meat_dish/鱼香肉丝.md"
    text = path.read_text(encoding="utf-8").splitlines()
    ops = next(no for no, s in enumerate(text, 1) if s.strip() == "## 操作")
    rid = entity_id("recipe", "鱼香肉丝")
    edges = [t for t in ex.triples if t.relation == "CONTAINS" and t.subject == rid]
    assert edges and all(t.provenance.line < ops for t in edges), [
        (t.object, t.provenance.line) for t in edges if t.provenance.line >= ops]
    objs = {t.object for t in edges}
    assert _contains(ex, "鱼香肉丝", "里脊肉").provenance.line == _line_of(path, "* 里脊肉 200g")
    assert "tool:盛盘" not in objs and not any("关火" in o or "去蒂" in o or "木耳泡" in o for o in objs)
    for dish in ("魔芋蛋糕", "日式咖喱饭", "地三鲜"):
        objs = {t.object for t in ex.triples if t.relation == "CONTAINS" and t.subject == entity_id("recipe", dish)}
        assert objs and not any(_STEP_WORDS.search(o) or o in ("ingredient:向",) for o in objs), (dish, objs)


def test_looks_like_step_keeps_names():
    from threadgraph.ingest.items import looks_like_step

    for step in ("干木耳泡 4 个小时", "去蒂", "关火", "盛盘", "左手握住搅拌盆从", "向", "葱切段", "2. 葱切成 5mm 的小段"):
        assert looks_like_step(step), step
    for name in ("泡椒", "泡打粉", "泡发好的海参", "切块的午餐肉", "去皮猪肉", "剁椒", "里脊肉", "盘子"):
        assert not looks_like_step(name), name


# --------------------------------------------------------------------------- tutorials are not recipes
def test_tutorials_are_not_recipes_dishes_are(ex):
    from threadgraph.ingest.recipes import is_recipe

    for rel in ("howtocook/tips/learn/学习凉拌.md", "howtocook/tips/learn/学习腌.md"):
        doc = parse_file(CORPORA / rel, rel)
        assert not is_recipe(doc), rel
        assert entity_id("document", rel) in ex.entities
        assert not any(e.type == "recipe" and e.doc == rel for e in ex.entities.values())
    # every dish page is a recipe but the collection's template for writing one (dishes/template/示例菜):
    # it has the same structure (title "示例菜的做法" + an ingredients list) but its list is a placeholder
    dishes = sorted((CORPORA / "howtocook/dishes").rglob("*.md"))
    assert len(dishes) == 369
    not_recipes = [str(p.relative_to(CORPORA)) for p in dishes if not is_recipe(parse_file(p, str(p.relative_to(CORPORA))))]
    assert not_recipes == ["howtocook/dishes/template/示例菜/示例菜.md"], not_recipes
    assert not any(e.type == "recipe" and e.name == "示例菜" for e in ex.entities.values())
    recipe_docs = {e.doc for e in ex.entities.values() if e.type == "recipe"}
    assert all(d.startswith("howtocook/dishes/") for d in recipe_docs), recipe_docs - {
        d for d in recipe_docs if d.startswith("howtocook/dishes/")}


def test_glossary_list_is_not_a_recipe(tmp_path):
    from threadgraph.ingest.recipes import is_recipe

    p = tmp_path / "t.md"
    p.write_text("# 腌\n\n## 常用的腌渍用料\n\n- 生抽：调酱香且带有咸味的底味。可用于几乎所有肉类\n"
                 "- 食盐：咸味但炒制后不带有酱香味。可用于所有肉类\n", encoding="utf-8")
    assert not is_recipe(parse_file(p, "t.md"))
    p.write_text("# 番茄汤\n\n## 原料\n\n- 番茄 2 个\n- 盐：约 3g\n", encoding="utf-8")
    assert is_recipe(parse_file(p, "t.md"))


# --------------------------------------------------------------------------- role stand-ins and duties
DROLES = CORPORA / "pagerduty-incident-response/docs/before/different_roles.md"
DURING = CORPORA / "pagerduty-incident-response/docs/during/during_an_incident.md"


def _line_containing(path: Path, needle: str) -> int:
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return no
    raise AssertionError(f"{needle!r} not in {path}")


def test_delegating_is_not_a_standin(ex):
    cl, ic = entity_id("role", "Customer Liaison"), entity_id("role", "Incident Commander")
    assert not any(t.relation == "SUBSTITUTES" and t.subject == cl and t.object == ic for t in ex.triples)
    line = _line_containing(DROLES, "is responsible for delegating somebody to post publicly in their stead")
    d = [t for t in ex.triples if t.relation == "RELATED" and t.properties.get("predicate") == "delegates_stand_in"
         and t.subject == ic and t.object == cl]
    assert d and d[0].provenance.line == line and d[0].provenance.doc.endswith("different_roles.md")


def test_group_can_act_as_standin(ex):
    cl = entity_id("role", "Customer Liaison")
    line = _line_containing(DROLES, "Any member of the Support Team can act as a")
    subs = [t for t in ex.triples if t.relation == "SUBSTITUTES" and t.subject == cl and t.provenance.line == line]
    assert subs, "Customer Liaison -> Support Team member missing"
    g = ex.entities[subs[0].object]
    assert g.type in ("role", "concept") and "support team" in g.name.lower()
    assert subs[0].properties["condition"]
    line = _line_containing(DROLES, "Anyone can act as a Scribe")
    subs = [t for t in ex.triples if t.relation == "SUBSTITUTES" and t.subject == entity_id("role", "Scribe")
            and t.provenance.line == line]
    assert subs and ex.entities[subs[0].object].name == "anyone" and subs[0].properties["condition"]


def _resp(ex, role: str) -> dict[str, int]:
    return {ex.entities[t.object].name: t.provenance.line for t in ex.triples
            if t.relation == "RELATED" and t.properties.get("predicate") == "responsible_for"
            and t.subject == entity_id("role", role)}


def test_responsible_for(ex):
    cl = _resp(ex, "Customer Liaison")
    assert cl.get("status page") == _line_containing(DURING, "required to update the status page")
    assert "publicly facing messages" in cl
    il = _resp(ex, "Internal Liaison")
    assert "internal stakeholders" in il
    assert "postmortem" in _resp(ex, "Incident Commander")
    objs = [ex.entities[t.object] for t in ex.triples
            if t.relation == "RELATED" and t.properties.get("predicate") == "responsible_for"]
    # conservative: short noun phrases, never the delegate "somebody"
    assert objs and all(len(o.name.split()) <= 4 and o.name not in ("somebody", "someone") for o in objs)


# --------------------------------------------------------------------------- "Y也可" / "只能用 Y 代替"
def _sub_at(ex, recipe: str, x: str, y: str):
    n = _norm()
    xs = {entity_id(t, n.canonical(x, t) or x) for t in ("ingredient", "tool")}
    ys = {entity_id(t, n.canonical(y, t) or y) for t in ("ingredient", "tool")}
    return [t for t in ex.triples if t.relation == "SUBSTITUTES" and t.subject in xs and t.object in ys
            and t.properties.get("context") == entity_id("recipe", recipe)]


@pytest.mark.parametrize("rel,recipe,x,y,needle", [
    ("howtocook/dishes/vegetable_dish/凉拌木耳/凉拌木耳.md", "凉拌木耳", "干木耳", "湿木耳", "（湿木耳也可，"),
    ("howtocook/dishes/staple/意式肉酱面/意式肉酱面.md", "意式肉酱面", "白洋葱", "紫洋葱", "（紫洋葱也可以）"),
    ("howtocook/dishes/staple/炒意大利面/炒意大利面.md", "炒意大利面", "菜籽油", "植物油", "（其他植物油也可）"),
    ("howtocook/dishes/meat_dish/醉排骨.md", "醉排骨", "雨露", "老抽", "只能用老抽代替"),
])
def test_also_ok_and_only_use_substitutes(ex, rel, recipe, x, y, needle):
    path = next(CORPORA.glob(rel)) if (CORPORA / rel).exists() else next(
        p for p in (CORPORA / "howtocook/dishes").rglob(Path(rel).name))
    subs = _sub_at(ex, recipe, x, y)
    assert subs, f"{x} -> {y} in {recipe} missing"
    assert subs[0].properties["symmetric"] is False
    assert subs[0].provenance.line == _line_containing(path, needle)


def test_also_ok_rejects_non_things():
    from threadgraph.ingest.items import note_clauses

    assert note_clauses("湿木耳也可")[1][0].raw == "湿木耳"
    for note in ("不加也可以", "附近的大超市也可以", "白的也行", "没有普通烤盘也可以"):
        assert not note_clauses(note)[1], note


# --------------------------------------------------------------------------- recipes written as steps alone
# (benchmarks/generalization/zh-meow: a title, then numbered steps; no ingredient list)
def _prose(tmp_path, title: str, *steps: str):
    p = tmp_path / "p.md"
    p.write_text(f"# {title}\n\n" + "\n\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1)) + "\n", encoding="utf-8")
    return parse_file(p, "p.md")


def test_prose_steps_recipe_is_a_recipe(tmp_path):
    from threadgraph.ingest.recipes import is_recipe

    assert is_recipe(_prose(tmp_path, "三杯鸡", "鸡腿肉切丁，用白胡椒、花椒粉、十三香、盐、黄酒、酱油腌制，搅拌后加入淀粉继续搅拌直到粘稠。腌制十五分钟。",
                            "一大把罗勒洗净，留叶去梗", "放入冰糖一二十克，或者等量红糖"))
    assert is_recipe(_prose(tmp_path, "麻婆豆腐", "宽油大火煸牛肉末，小火煸香豆瓣酱，同时放葱姜料。",
                            "放一些水，然后加一点糖，大火煮开以后放豆腐。", "葱切小葱花，姜切姜米，青蒜切小块（可选）",
                            "关火以后加青蒜，利用锅内热量把青蒜断生。出锅装盘以后把剩下的花椒面撒入。"))
    # a guide titled as one, or steps among other sections, stays a document
    assert not is_recipe(_prose(tmp_path, "学习焯水", "将食材放入冷水锅中", "大火烧开后转小火", "捞出备用"))
    assert not is_recipe(_prose(tmp_path, "炒/煎", "将食材放入锅中", "大火翻炒", "出锅备用"))
    p = tmp_path / "g.md"
    p.write_text("# 微波炉\n\n## 注意\n\n1. 放入食物前去掉锡纸\n2. 加热后盛出\n3. 翻炒均匀\n", encoding="utf-8")
    assert not is_recipe(parse_file(p, "g.md"))


def test_step_names():
    from threadgraph.ingest.recipes import step_names

    assert "青蒜" in step_names("葱切小葱花，姜切姜米，青蒜切小块（可选）")
    assert step_names("放入冰糖一二十克，或者等量红糖")[:1] == ["冰糖"]
    assert {"米酒", "威士忌"} <= set(step_names("加 10-50 毫升米酒或威士忌增强香味"))
    assert {"蘑菇", "香菇", "洋葱", "彩椒"} <= set(step_names(
        "虾去壳，蘑菇或香菇泡水洗净切片，洋葱半个切小块，彩椒（可选）切小块"))
    assert "青红椒" in step_names("放入配色的青红椒") and "配色" not in step_names("放入配色的青红椒")
    assert step_names("稍微炒一下就放水") == []
    # "取 X": a thing taken for the dish; a parenthesised list of alternatives names things too
    assert {"五花肉", "猪肩肉"} <= set(step_names("取五花肉或猪肩肉，热锅小火猪皮朝下在锅上烙猪皮至金黄"))
    assert "花椒" in step_names("取一小把花椒，干锅小火焙香，出香味以后关火。")
    assert {"生菜", "油菜"} <= set(step_names("配菜（生菜、油菜均可）洗净并焯水，摆盘等待排骨出锅。"))
    assert {"油菜", "生菜", "白菜"} <= set(step_names("姜切片，葱切葱花，香菜切碎，各种配菜（油菜、生菜、白菜等皆可）切好。"))
    assert "可选" not in step_names("青蒜切小块（可选）")
    assert "口感" not in step_names("若有冬笋也可切丝增加口感，或者青（红）椒切丝调色。")


def test_prose_recipe_optional_and_alternatives(tmp_path):
    from threadgraph.ingest.normalize import Normalizer as N
    from threadgraph.ingest.recipes import RecipeExtractor, recipe_vocabulary

    doc = _prose(tmp_path, "三杯鸡", "姜切大片，葱切长段，青红椒切块配色用（可不放）",
                 "配三杯汁：麻油、米酒、酱油各一杯，比例3：2：1。酱油里还可加耗油和老抽。",
                 "取五花肉或猪肩肉，热锅小火猪皮朝下在锅上烙猪皮至金黄",
                 "放入冰糖一二十克，或者等量红糖", "牛肉和牛腩切大块，洗净血水。还可配牛骨增强味道。")
    norm = N(90.0)
    res = RecipeExtractor(norm, recipe_vocabulary([doc], norm)).extract(doc)
    opt = {t.object.split(":", 1)[1] for t in res.triples if t.relation == "CONTAINS" and not t.properties["required"]}
    assert {"青红椒", "老抽", "牛骨"} <= opt, opt
    assert any("耗油" in o or "蚝油" in o for o in opt), opt
    subs = {(t.subject.split(":", 1)[1], t.object.split(":", 1)[1]) for t in res.triples if t.relation == "SUBSTITUTES"}
    assert ("冰糖", "红糖") in subs, subs


def test_labelled_name_list_is_not_a_glossary(tmp_path):
    from threadgraph.ingest.recipes import is_recipe

    p = tmp_path / "t.md"
    p.write_text("# 口水鸡\n\n## 用料\n\n- 调料：生姜，小葱，花椒，干辣椒，料酒，青红椒，大蒜，白芝麻，生抽，老抽\n"
                 "- 食材：鸡腿，配菜（黄瓜、金针菇等）\n", encoding="utf-8")
    assert is_recipe(parse_file(p, "t.md"))
    p.write_text("# 番茄炖牛腩\n\n## 用料\n\n- 调料：料酒，生姜，小葱，八角，香叶，桂皮，干辣椒，冰糖（五六颗），干山楂（五六颗）\n"
                 "- 食材：番茄（3个），牛腩，配菜（土豆、莴笋等）\n", encoding="utf-8")
    assert is_recipe(parse_file(p, "t.md"))


def test_focus_cue_takes_the_thing_just_before(tmp_path):
    """A cue that leaves X to the context ("或者 Y", "可用 Y 代替") takes the thing named just
    before it in the same sentence (zh-meow 三杯鸡; howtocook 尖椒炒牛肉)."""
    from threadgraph.ingest.normalize import Normalizer as N
    from threadgraph.ingest.recipes import RecipeExtractor, recipe_vocabulary

    doc = _prose(tmp_path, "三杯鸡", "姜切大片，葱切长段，冰糖敲碎备用", "放入冰糖一二十克，或者等量红糖",
                 "姜片切好备用，料酒放入碗中", "腌制的时候姜片可用料酒代替，料酒的用量为 3 g/人")
    norm = N(90.0)
    res = RecipeExtractor(norm, recipe_vocabulary([doc], norm)).extract(doc)
    subs = {(t.subject.split(":", 1)[1], t.object.split(":", 1)[1]) for t in res.triples if t.relation == "SUBSTITUTES"}
    assert ("冰糖", "红糖") in subs, subs
    assert any("姜" in x and y == "料酒" for x, y in subs), subs
