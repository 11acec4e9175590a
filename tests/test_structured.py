"""Every part of a document is read, and names are normalized once.

* YAML/TOML front matter and JSON recipe records become sections with their
  real lines (ingest/readers/structured.py, markdown.py, json.py);
* notes, tips, variations, garnish, FAQ, 小贴士/注意/装饰/附加内容 are ordinary
  sections in every reader;
* names: one node per thing (knowledge/text.name_key in ingest/normalize.py),
  quantity fragments never entities, one recipe in two files, undeclared
  aliases (ingest/merge.py), every merge in merges.csv.

Small files are written per test; dev corpora (benchmarks/generalization/,
split "dev") are read for literal expectations.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from threadgraph.ingest.merge import contained_in, document_units
from threadgraph.ingest.normalize import Normalizer, clean_name, is_entity_name
from threadgraph.ingest.pipeline import extract_corpus
from threadgraph.ingest.readers import parse_file
from threadgraph.ingest.readers.structured import key_kind
from threadgraph.knowledge.records import Entity, Extraction, Provenance, Triple

REPO = Path(__file__).resolve().parents[1]
GEN = REPO / "benchmarks" / "generalization"


def _write(root: Path, rel: str, text: str) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def _view(doc) -> list[tuple]:
    return [(b.kind, b.text, b.line, b.path) for b in doc.blocks]


def _contains(ex) -> dict[tuple[str, str], Triple]:
    return {(t.subject, t.object): t for t in ex.triples if t.relation == "CONTAINS"}


def _dev(name: str) -> Path:
    meta = json.loads((GEN / name / "meta.json").read_text(encoding="utf-8"))
    assert meta["split"] == "dev", f"{name} is not a dev corpus"
    return GEN / name / "docs"


# ----------------------------------------------------------------------------- YAML front matter
def test_yaml_lists_become_sections_with_their_lines(tmp_path):
    f = _write(tmp_path, "toast.md", (
        "---\n"                                  # 1
        "title: French toast\n"                  # 2
        "permalink: /recipes/french-toast/\n"    # 3
        "tags: [breakfast, quick]\n"             # 4
        "ingredients:\n"                         # 5
        "  - 2 eggs\n"                           # 6
        "  - 1 cup milk (or cream)\n"            # 7
        "  - 4 slices bread\n"                   # 8
        "directions:\n"                          # 9
        "  - Whisk eggs and milk.\n"             # 10
        "  - Soak the bread, then fry.\n"        # 11
        "notes: |\n"                             # 12
        "  Stale bread soaks better.\n"          # 13
        "---\n"                                  # 14
        "Serve warm.\n"))                        # 15
    doc = parse_file(f)
    assert doc.title == "French toast"
    assert doc.url == "/recipes/french-toast/"
    assert doc.front_matter["tags"] == "breakfast, quick"
    assert "ingredients" not in doc.front_matter
    assert _view(doc) == [
        ("heading", "ingredients", 5, ("ingredients",)),
        ("item", "2 eggs", 6, ("ingredients",)),
        ("item", "1 cup milk (or cream)", 7, ("ingredients",)),
        ("item", "4 slices bread", 8, ("ingredients",)),
        ("heading", "directions", 9, ("directions",)),
        ("item", "Whisk eggs and milk.", 10, ("directions",)),
        ("item", "Soak the bread, then fry.", 11, ("directions",)),
        ("heading", "notes", 12, ("notes",)),
        ("paragraph", "Stale bread soaks better.", 13, ("notes",)),
        ("paragraph", "Serve warm.", 15, ()),
    ]
    steps = [b for b in doc.blocks if b.path == ("directions",) and b.kind == "item"]
    assert [(b.ordered, b.order) for b in steps] == [(True, 1), (True, 2)]
    ex = extract_corpus([tmp_path])
    c = _contains(ex)
    assert c[("recipe:French toast", "ingredient:milk")].provenance.line == 7
    assert c[("recipe:French toast", "ingredient:bread")].provenance.line == 8


def test_yaml_block_string_one_item_per_line_with_sub_sections(tmp_path):
    f = _write(tmp_path, "cake.md", (
        "---\n"                                          # 1
        "title: Cheese cake\n"                           # 2
        "ingredients: |-\n"                              # 3
        "  Crust:\n"                                     # 4
        "  1 cup crumbs\n"                               # 5
        "  50 g melted butter\n"                         # 6
        "\n"                                             # 7
        "  Filling:\n"                                   # 8
        "  350 g cream cheese\n"                         # 9
        "  Optional (but recommended):\n"                # 10
        "  shaved chocolate\n"                           # 11
        "---\n"                                          # 12
        "Mix and bake.\n"))                              # 13
    doc = parse_file(f)
    assert _view(doc)[:8] == [
        ("heading", "ingredients", 3, ("ingredients",)),
        ("heading", "Crust", 4, ("ingredients", "Crust")),
        ("item", "1 cup crumbs", 5, ("ingredients", "Crust")),
        ("item", "50 g melted butter", 6, ("ingredients", "Crust")),
        ("heading", "Filling", 8, ("ingredients", "Filling")),
        ("item", "350 g cream cheese", 9, ("ingredients", "Filling")),
        ("heading", "Optional (but recommended)", 10, ("ingredients", "Optional (but recommended)")),
        ("item", "shaved chocolate", 11, ("ingredients", "Optional (but recommended)")),
    ]
    ex = extract_corpus([tmp_path])
    c = _contains(ex)
    assert c[("recipe:Cheese cake", "ingredient:cream cheese")].provenance.line == 9
    assert c[("recipe:Cheese cake", "ingredient:shaved chocolate")].properties["required"] is False


def test_yaml_folded_string_and_bulleted_labels(tmp_path):
    f = _write(tmp_path, "curry.md", (
        "---\n"                              # 1
        "title: Curry\n"                     # 2
        "ingredients: >\n"                   # 3
        "  1 onion\n"                        # 4
        "\n"                                 # 5
        "  2 cups rice\n"                    # 6
        "spices: |-\n"                       # 7
        "  First marination\n"               # 8
        "  • 1 tsp salt\n"                   # 9
        "  • 1 tsp chili powder\n"           # 10
        "\n"                                 # 11
        "  For the sauce\n"                  # 12
        "  • 2 tomatoes\n"                   # 13
        "---\n"))
    doc = parse_file(f)
    v = _view(doc)
    assert ("item", "1 onion", 4, ("ingredients",)) in v and ("item", "2 cups rice", 6, ("ingredients",)) in v
    assert ("heading", "First marination", 8, ("spices", "First marination")) in v
    assert ("item", "1 tsp chili powder", 10, ("spices", "First marination")) in v
    assert ("item", "2 tomatoes", 13, ("spices", "For the sauce")) in v


def test_yaml_wrapped_steps_are_one_step_per_paragraph(tmp_path):
    f = _write(tmp_path, "bread.md", (
        "---\n"                                       # 1
        "title: Bread\n"                              # 2
        "instructions: |\n"                           # 3
        "  Mix the flour and the water and knead\n"   # 4
        "  for ten minutes.\n"                        # 5
        "\n"                                          # 6
        "  Bake for 40 minutes.\n"                    # 7
        "---\n"))
    doc = parse_file(f)
    assert [(b.kind, b.text, b.line, b.end_line, b.order) for b in doc.blocks] == [
        ("heading", "instructions", 3, 3, 0),
        ("item", "Mix the flour and the water and knead\nfor ten minutes.", 4, 5, 1),
        ("item", "Bake for 40 minutes.", 7, 7, 2)]


def test_yaml_mapping_gives_key_value_items(tmp_path):
    _write(tmp_path, "dough.md", (
        "---\n"
        "title: Dough\n"
        "ingredients: {flour: 2 cups, eggs: 3}\n"
        "method:\n"
        "  knead: 10 minutes\n"
        "  rest: 1 hour\n"
        "---\n"))
    doc = parse_file(tmp_path / "dough.md")
    assert [(b.kind, b.text, b.line) for b in doc.blocks] == [
        ("heading", "ingredients", 3), ("item", "flour: 2 cups", 3), ("item", "eggs: 3", 3),
        ("heading", "method", 4), ("item", "knead: 10 minutes", 5), ("item", "rest: 1 hour", 6)]
    assert all(b.ordered for b in doc.blocks if b.path == ("method",) and b.kind == "item")
    c = _contains(extract_corpus([tmp_path]))
    assert {o for s, o in c if s == "recipe:Dough"} == {"ingredient:flour", "ingredient:egg"}


def test_yaml_list_of_ingredient_objects_and_nested_groups(tmp_path):
    _write(tmp_path, "pie.md", (
        "---\n"                                                    # 1
        "title: Pie\n"                                             # 2
        "ingredients:\n"                                           # 3
        "  - quantity: 1\n"                                        # 4
        "    unit: cup\n"                                          # 5
        "    ingredient: flour\n"                                  # 6
        "  - Filling:\n"                                           # 7
        "      - 3 apples\n"                                       # 8
        "---\n"))
    doc = parse_file(tmp_path / "pie.md")
    assert _view(doc) == [
        ("heading", "ingredients", 3, ("ingredients",)),
        ("item", "1 cup flour", 4, ("ingredients",)),
        ("heading", "Filling", 7, ("ingredients", "Filling")),
        ("item", "3 apples", 8, ("ingredients", "Filling")),
    ]


def test_toml_front_matter_keeps_lines(tmp_path):
    f = _write(tmp_path, "soup.md", (
        "+++\n"                                      # 1
        "title = \"Tomato soup\"\n"                  # 2
        "url = \"https://example.org/soup\"\n"       # 3
        "ingredients = [\n"                          # 4
        "  \"4 tomatoes\",\n"                        # 5
        "  \"1 onion\",\n"                           # 6
        "]\n"                                        # 7
        "steps = [\"Chop.\", \"Simmer.\"]\n"         # 8
        "+++\n"                                      # 9
        "\n"                                         # 10
        "## Tips\n"                                  # 11
        "\n"                                         # 12
        "Use ripe tomatoes.\n"))                     # 13
    doc = parse_file(f)
    assert doc.title == "Tomato soup" and doc.url == "https://example.org/soup"
    assert _view(doc) == [
        ("heading", "ingredients", 4, ("ingredients",)),
        ("item", "4 tomatoes", 5, ("ingredients",)),
        ("item", "1 onion", 6, ("ingredients",)),
        ("heading", "steps", 8, ("steps",)),
        ("item", "Chop.", 8, ("steps",)),
        ("item", "Simmer.", 8, ("steps",)),
        ("heading", "Tips", 11, ("Tips",)),
        ("paragraph", "Use ripe tomatoes.", 13, ("Tips",)),
    ]


def test_front_matter_that_does_not_parse_is_reported_with_its_line(tmp_path):
    _write(tmp_path, "bad.md", "---\ntitle: Rice\ningredients: [rice, water\n---\n\nCook the rice.\n")
    ex = extract_corpus([tmp_path])
    assert ex.documents["bad.md"] == "Rice"
    bad = [s for s in ex.skipped if s.path == "bad.md"]
    assert bad and bad[0].line == 3 and "front matter is not valid YAML" in bad[0].reason
    assert any("Cook the rice." in c.text for c in ex.chunks)


def test_record_key_meanings_are_data():
    assert [key_kind(k) for k in ("title", "Recipe_Name", "ingredients", "ingredient-list", "directions",
                                  "method", "permalink", "tags", "yield", "notes", "菜名", "做法")] == [
        "title", "title", "ingredients", "ingredients", "steps", "steps", "url", "meta", "meta", "notes", "title",
        "steps"]


def test_dev_front_matter_collection_is_read_as_recipes():
    docs = _dev("en-ehrensberger")
    pancakes = parse_file(docs / "recipes" / "pancakes.md", "recipes/pancakes.md")
    assert ("item", "1 cup buttermilk (or simply add 1 Tablespoon lemon juice or vinegar to 1 cup milk and let it sit"
            " 5 minutes)", 9, ("ingredients",)) in _view(pancakes)
    cheesecake = parse_file(docs / "recipes" / "cheesecake.md")
    assert ("item", "1 package Agar-Agar or gelatine", 16, ("ingredients", "Filling")) in _view(cheesecake)
    shortbread = parse_file(docs / "recipes" / "3-ingredient-shortbread.md")
    assert ("item", "pinch of salt", 11, ("ingredients", "Optional (but highly recommended!)")) in _view(shortbread)
    ex = extract_corpus([docs])
    recipes = {e.name for e in ex.entities.values() if e.type == "recipe"}
    assert len(recipes) == 33 and {"Pancakes", "Cheesecake", "3 ingredient shortbread"} <= recipes
    c = _contains(ex)
    assert c[("recipe:Pancakes", "ingredient:buttermilk")].provenance.line == 9
    assert c[("recipe:3 ingredient shortbread", "ingredient:salt")].properties["required"] is False
    assert ("recipe:Cheesecake", "ingredient:agar-agar") in c or ("recipe:Cheesecake", "ingredient:gelatine") in c


# ----------------------------------------------------------------------------- JSON recipe records
def test_json_recipe_records_are_documents_with_element_lines(tmp_path):
    recs = [{"id": 1, "title": "Tea", "image": "https://x.org/t.jpg", "description": "A cup of tea.",
             "ingredients": ["1 tea bag", "250 ml water"], "instructions": ["Boil water.", "Steep."]},
            {"_comment": "second", "title": "Toast",
             "ingredients": [{"quantity": "2", "measure": "slices", "ingredient": "bread"},
                             {"quantity": "1", "measure": "tbsp", "ingredient": "butter", "note": "or oil"}],
             "steps": ["Toast the bread."]}]
    text = json.dumps(recs, indent=4)
    _write(tmp_path, "data/recipes.json", text)
    lines = text.split("\n")
    doc = parse_file(tmp_path / "data/recipes.json", "data/recipes.json")
    assert [p.title for p in doc.parts] == ["Tea", "Toast"]
    water = next(b for b in doc.blocks if b.text == "250 ml water")
    assert lines[water.line - 1].strip() == '"250 ml water"' and water.path == ("Tea", "ingredients")
    bread = next(b for b in doc.blocks if b.text == "2 slices bread")
    assert lines[bread.line - 1].strip() == "{" and bread.path == ("Toast", "ingredients")
    assert not any("t.jpg" in b.text or "second" in b.text for b in doc.blocks)
    units = document_units(doc)
    assert [(u.title, u.format, u.rel) for u in units] == [("Tea", "record", "data/recipes.json"),
                                                          ("Toast", "record", "data/recipes.json")]
    assert [(b.kind, b.path) for b in units[0].blocks[:3]] == [("heading", ()), ("paragraph", ()),
                                                              ("heading", ("ingredients",))]
    ex = extract_corpus([tmp_path])
    c = _contains(ex)
    assert c[("recipe:Tea", "ingredient:water")].provenance.line == water.line
    assert c[("recipe:Toast", "ingredient:bread")].provenance.line == bread.line
    assert any(ch.section == "Tea > instructions" and "1. Boil water." in ch.text for ch in ex.chunks)


def test_jsonl_recipe_records_and_a_single_record_file(tmp_path):
    _write(tmp_path, "r.jsonl", json.dumps({"name": "Lemonade", "ingredients": ["2 lemons", "sugar"],
                                            "directions": ["Squeeze.", "Stir."]}) + "\n{broken\n")
    _write(tmp_path, "one.json", json.dumps({"title": "Porridge", "ingredients": ["1 cup oats", "2 cups milk"],
                                             "method": "Simmer the oats in the milk.\nStir often."}, indent=2))
    ex = extract_corpus([tmp_path])
    c = _contains(ex)
    assert c[("recipe:Lemonade", "ingredient:lemon")].provenance.line == 1
    assert c[("recipe:Porridge", "ingredient:oat")].provenance.line == 4
    assert ("r.jsonl", 2) in {(s.path, s.line) for s in ex.skipped}
    assert ex.documents["one.json"] == "Porridge"


def test_dev_json_collection_is_read_as_recipes():
    docs = _dev("en-communitykitchen")
    ex = extract_corpus([docs])
    recipes = {e.name for e in ex.entities.values() if e.type == "recipe"}
    assert len(recipes) == 45 and "Authentic Nigerian Jollof Rice" in recipes
    c = _contains(ex)
    jollof = "recipe:Authentic Nigerian Jollof Rice"
    assert c[(jollof, "ingredient:long-grain parboiled rice")].provenance.line == 52
    assert c[(jollof, "ingredient:vegetable oil")].provenance.line == 57
    assert c[(jollof, "ingredient:vegetable oil")].provenance.section == "ingredients"
    subs = {(t.subject, t.object, t.provenance.line) for t in ex.triples if t.relation == "SUBSTITUTES"}
    assert ("ingredient:vegetable oil", "ingredient:palm oil", 57) in subs


# ----------------------------------------------------------------------------- notes are ordinary sections
NOTE = "Buttermilk can be subbed with milk and a little lemon juice."

NOTE_FILES = {
    "md-headings.md": f"# Pancakes\n\n## Ingredients\n\n- 1 cup buttermilk\n\n## Notes\n\n{NOTE}\n\n"
                      "## FAQ\n\nCan I freeze them? Yes.\n",
    "zh.md": "# 柠檬水的做法\n\n## 必备原料和工具\n\n- 柠檬\n- 砂糖\n\n## 装饰\n\n- 柠檬片（可选）\n\n## 小贴士\n\n"
             "- 砂糖也可以用蜂蜜代替\n\n## 注意\n\n不要用热水。\n\n## 附加内容\n\n可以加冰。\n",
    "admonition.md": f"# Pancakes\n\n## Ingredients\n\n- 1 cup buttermilk\n\n!!! tip \"Variations\"\n    {NOTE}\n",
    "footnote.md": f"# Pancakes\n\n## Ingredients\n\n- 1 cup buttermilk[^1]\n\n[^1]: {NOTE}\n",
    "front.md": f"---\ntitle: Pancakes\ningredients: [1 cup buttermilk]\ntips:\n  - {NOTE}\n"
                "variations: |\n  Add blueberries.\n---\n",
    "page.html": f"<html><body><h1>Pancakes</h1><h2>Ingredients</h2><ul><li>1 cup buttermilk</li></ul>"
                 f"<aside><p>{NOTE}</p></aside><details><summary>FAQ</summary><p>Freeze them.</p></details>"
                 "</body></html>\n",
    "doc.rst": f"Pancakes\n========\n\nIngredients\n-----------\n\n- 1 cup buttermilk\n\n.. tip::\n\n   {NOTE}\n\n"
               ".. admonition:: Variations\n\n   Add blueberries.\n",
    "doc.adoc": f"= Pancakes\n\n== Ingredients\n\n* 1 cup buttermilk\n\nTIP: {NOTE}\n\n[NOTE]\n====\nAdd blueberries.\n====\n",
    "notes.txt": f"Pancakes\n\nIngredients\n- 1 cup buttermilk\n\nNotes\n{NOTE}\n",
}


@pytest.mark.parametrize("name", sorted(NOTE_FILES))
def test_notes_tips_variations_faq_and_garnish_are_read(tmp_path, name):
    text = NOTE_FILES[name]
    f = _write(tmp_path, name, text)
    doc = parse_file(f)
    src = text.split("\n")
    wanted = [NOTE] if "zh" not in name else ["柠檬片（可选）", "砂糖也可以用蜂蜜代替", "不要用热水。", "可以加冰。"]
    for w in wanted:
        hits = [b for b in doc.blocks if w in b.text]
        assert hits, f"{w!r} dropped by the {doc.format} reader"
        assert w in src[hits[0].line - 1] or w in "\n".join(src[hits[0].line - 1:hits[0].end_line]), \
            f"{w!r} at a wrong line"


def test_rst_titled_admonition_is_a_sub_section_for_its_body_only(tmp_path):
    f = _write(tmp_path, "x.rst", "Cake\n====\n\nIngredients\n-----------\n\n- flour\n\n"
                                  ".. admonition:: Variations\n\n   - Add nuts.\n\n- sugar\n")
    doc = parse_file(f)
    assert [(b.text, b.line, b.path) for b in doc.blocks if b.kind != "heading"] == [
        ("flour", 7, ("Ingredients",)), ("Add nuts.", 11, ("Ingredients", "Variations")),
        ("sugar", 13, ("Ingredients",))]


# ----------------------------------------------------------------------------- names, once
@pytest.mark.parametrize("a,b", [("鸡胸肉", "雞胸肉"), ("BBQ酱", "ＢＢＱ酱"), ("닭가슴살", "닭 가슴살"),
                                 ("crème fraîche", "creme fraiche")])
def test_spellings_of_one_name_are_one_node(a, b):
    n = Normalizer()
    assert n.canonical(a, "ingredient") == n.canonical(b, "ingredient")
    assert [(m.surface, m.method) for m in n.merges if m.surface == b] in ([(b, "normalize")], [])
    assert any(m.method == "normalize" for m in n.merges) or clean_name(b) == n.canonical(a, "ingredient")


def test_spelling_merges_are_recorded_across_documents(tmp_path):
    _write(tmp_path, "a.md", "# 鸡胸肉沙拉的做法\n\n## 必备原料和工具\n\n- 鸡胸肉\n- ＢＢＱ酱\n")
    _write(tmp_path, "b.md", "# 雞胸肉三明治的做法\n\n## 必备原料和工具\n\n- 雞胸肉\n- BBQ酱\n")
    ex = extract_corpus([tmp_path])
    ings = {e.name for e in ex.entities.values() if e.type == "ingredient"}
    assert ings == {"鸡胸肉", "BBQ酱"}
    merges = {(m.surface, m.canonical, m.method, m.doc) for m in ex.merges}
    assert ("雞胸肉", "鸡胸肉", "normalize", "b.md") in merges
    assert ("ＢＢＱ酱", "BBQ酱", "normalize", "a.md") in merges


@pytest.mark.parametrize("raw,name", [
    ("盐用量为", "盐"), ("八角量", "八角"), ("姜各", "姜"), ("蒜共", "蒜"), ("腊肠约", "腊肠"), ("荷兰豆大约", "荷兰豆"),
    ("青椒的数量", "青椒"), ("土豆数量", "土豆"), ("糖*份数", "糖"), ("糯米粉 a", "糯米粉"), ("1 枚咸鸭蛋", "咸鸭蛋"),
    ("30 ℃ 温水", "温水"), ("水 ≥", "水"), ("洋葱大半个", "洋葱"), ("八角三小片", "八角"), ("米酒皆可", "米酒"),
    ("1 ¼ cups graham cracker crumbs", "graham cracker crumb"), ("½ to ¾ teaspoon salt", "salt"),
    ("pinch of salt", "salt"), ("1 package Agar-Agar", "agar-agar"), ("2 c. flour", "flour"),
    ("kg (1.1 lbs) boneless chicken", "boneless chicken"), ("1 14-ounces coconut milk", "coconut milk"),
    ("Oil for frying", "oil"), ("1 c. grated, unsweetened coconut", "unsweetened coconut"), ("flour: 2 cups", "flour"),
])
def test_quantity_words_are_cleaned_off_names(raw, name):
    assert clean_name(raw) == name
    assert is_entity_name(name)


@pytest.mark.parametrize("raw", ["约", "各", "大约", "数量", "分量", "人", "单人", "注", "原则", "容量在", "容量是",
                                 "冷藏时间Tc", "质量Mo", "分别为每", "其中应该包含", "食指触及米时", "蛋挞皮品牌不限",
                                 "推荐合计重量", "yellow and", "or orange pepper", "to taste", "large", "2 cups", "克"])
def test_quantity_and_step_fragments_are_never_entities(raw):
    n = Normalizer()
    assert n.canonical(raw, "ingredient") == ""
    assert not is_entity_name(clean_name(raw))


def test_tools_that_are_also_units_and_measuring_tools_stay():
    n = Normalizer()
    assert n.canonical("碗", "tool") == "碗" and n.canonical("温度计", "tool") == "温度计"
    assert n.canonical("cloves", "ingredient") == "clove"


def test_one_recipe_in_two_files_is_not_doubled(tmp_path):
    _write(tmp_path, "soup/排骨汤.md", "# 排骨汤的做法\n\n## 必备原料和工具\n\n- 排骨\n- 盐\n")
    _write(tmp_path, "soup/排骨汤/排骨汤.md", "# 排骨汤的做法\n\n## 必备原料和工具\n\n- 排骨\n- 陈皮\n\n## 计算\n\n- 排骨 500g\n")
    ex = extract_corpus([tmp_path])
    rows = [(t.object, t.provenance.doc) for t in ex.triples if t.relation == "CONTAINS" and t.subject == "recipe:排骨汤"]
    assert sorted(o for o, _ in rows) == ["ingredient:排骨", "ingredient:盐", "ingredient:陈皮"]
    assert {d for _, d in rows} == {"soup/排骨汤.md", "soup/排骨汤/排骨汤.md"}
    assert ("排骨汤", "same name", "soup/排骨汤/排骨汤.md") in {(m.canonical, m.method, m.doc) for m in ex.merges}
    assert _contains(ex)[("recipe:排骨汤", "ingredient:排骨")].properties["amount"] == "500g"


def test_recipe_spellings_are_one_recipe(tmp_path):
    _write(tmp_path, "a.md", "# 鸡胸肉沙拉的做法\n\n## 必备原料和工具\n\n- 鸡胸肉\n- 生菜\n")
    _write(tmp_path, "b.md", "# 雞胸肉沙拉的做法\n\n## 必备原料和工具\n\n- 雞胸肉\n- 生菜\n- 橄欖油\n")
    ex = extract_corpus([tmp_path])
    assert [e.name for e in ex.entities.values() if e.type == "recipe"] == ["鸡胸肉沙拉"]
    assert "雞胸肉沙拉" in ex.entities["recipe:鸡胸肉沙拉"].aliases
    objs = sorted(t.object for t in ex.triples if t.relation == "CONTAINS" and t.subject == "recipe:鸡胸肉沙拉")
    assert objs == ["ingredient:橄欖油", "ingredient:生菜", "ingredient:鸡胸肉"]
    assert ("雞胸肉沙拉", "鸡胸肉沙拉", "normalize") in {(m.surface, m.canonical, m.method) for m in ex.merges}


def test_howtocook_duplicate_recipe_lists_each_ingredient_once():
    ex = extract_corpus([REPO / "corpora" / "howtocook" / "dishes" / "soup"])
    objs = [t.object for t in ex.triples if t.relation == "CONTAINS" and t.subject == "recipe:陈皮排骨汤"]
    assert len(objs) == len(set(objs)) and "ingredient:西洋参" in objs
    assert any(m.method == "same name" and m.canonical == "陈皮排骨汤" for m in ex.merges)


# ----------------------------------------------------------------------------- undeclared aliases
def test_contained_names():
    assert contained_in("Holmes", "Sherlock Holmes") and contained_in("Sherlock", "Sherlock Holmes")
    assert contained_in("Mr. Holmes", "Sherlock Holmes")
    assert not contained_in("Incident Commander", "Deputy Incident Commander")
    assert not contained_in("stakeholders", "internal stakeholders")
    assert contained_in("福尔摩斯", "夏洛克福尔摩斯") and not contained_in("经理", "副经理")


def _ex_with(names: list[tuple[str, str, str]]) -> Extraction:
    ex = Extraction()
    for i, (name, type_, doc) in enumerate(names):
        eid = f"{type_}:{name}"
        ex.add_entity(Entity(eid, name, type_))
        ex.triples.append(Triple(eid, "RELATED", "concept:case", {"predicate": "works_on"},
                                 Provenance(doc, "", i + 1, "test", 1.0)))
    ex.add_entity(Entity("concept:case", "case", "concept"))
    return ex


def test_undeclared_aliases_merge_within_a_document():
    from threadgraph.ingest.merge import merge_contained_names

    ex = _ex_with([("Sherlock Holmes", "role", "a.md"), ("Mr. Holmes", "role", "a.md"), ("Holmes", "role", "a.md"),
                   ("Sherlock", "role", "a.md"), ("Watson", "role", "a.md"),
                   ("Holmes", "role", "b.md"), ("Mycroft Holmes", "role", "b.md"), ("Sherlock Holmes", "role", "b.md")])
    merge_contained_names(ex)
    roles = {e.name: e for e in ex.entities.values() if e.type == "role"}
    # "Holmes" is one node for both documents and b.md leaves it open (Mycroft or Sherlock): it stays
    assert set(roles) == {"Sherlock Holmes", "Watson", "Mycroft Holmes", "Holmes"}
    assert {"Mr. Holmes", "Sherlock"} <= set(roles["Sherlock Holmes"].aliases)
    assert {(m.surface, m.canonical, m.method, m.doc) for m in ex.merges} == {
        ("Mr. Holmes", "Sherlock Holmes", "contained", "a.md"), ("Sherlock", "Sherlock Holmes", "contained", "a.md")}
    assert all(t.subject in ex.entities for t in ex.triples)


def test_contained_alias_is_not_a_common_noun():
    # PagerDuty crisis/leadership.md: "... and provides your team with purpose, i.e., everyone is in sync"
    # (line 16) and "A Crisis Team Leader is the individual responsible for leading the organization" (line 76)
    assert not contained_in("team", "Crisis Team Leader")
    # ops-jupiterone cp-physical.md line 14: "his/her manager, local Site Lead, or the Facility Manager."
    assert not contained_in("manager", "Facility Manager")
    # ops-18f going-out-of-office.md line 34: "Notify your Engagement Manager, Account Manager, and project lead"
    assert not contained_in("project lead", "Engagement Manager")
    assert contained_in("Manager", "Account Manager")  # the capitalised short form may refer back
    from threadgraph.ingest.merge import merge_contained_names

    ex = _ex_with([("team", "role", "leadership.md"), ("Crisis Team Leader", "role", "leadership.md"),
                   ("manager", "role", "cp-physical.md"), ("Site Lead", "role", "cp-physical.md"),
                   ("Facility Manager", "role", "cp-physical.md"),
                   ("Manager", "role", "going-out-of-office.md"), ("Engagement Manager", "role", "going-out-of-office.md"),
                   ("Account Manager", "role", "going-out-of-office.md")])
    merge_contained_names(ex)
    assert not ex.merges  # lower-case common nouns, and "Manager" that two names could take
    assert {"role:team", "role:manager", "role:Manager"} <= set(ex.entities)


def test_contained_alias_needs_every_document_to_agree():
    from threadgraph.ingest.merge import merge_contained_names

    # "Holmes" in a.md refers back to "Sherlock Holmes"; c.md uses "Holmes" with no longer name
    ex = _ex_with([("Sherlock Holmes", "role", "a.md"), ("Holmes", "role", "a.md"), ("Holmes", "role", "c.md")])
    merge_contained_names(ex)
    assert not ex.merges and "role:Holmes" in ex.entities
    ex = _ex_with([("Sherlock Holmes", "role", "a.md"), ("Holmes", "role", "a.md"),
                   ("Sherlock Holmes", "role", "c.md"), ("Holmes", "role", "c.md")])
    merge_contained_names(ex)
    assert {(m.surface, m.canonical, m.doc) for m in ex.merges} == {("Holmes", "Sherlock Holmes", "a.md")}


def test_contained_alias_is_not_applied_to_ingredients():
    from threadgraph.ingest.merge import merge_contained_names

    ex = _ex_with([("butter", "ingredient", "a.md"), ("peanut butter", "ingredient", "a.md")])
    merge_contained_names(ex)
    assert {"ingredient:butter", "ingredient:peanut butter"} <= set(ex.entities) and not ex.merges
