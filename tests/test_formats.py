"""Ingest of non-Markdown formats: HTML, reStructuredText, AsciiDoc, CSV/TSV,
JSON and JSON Lines (small files written per test; names carry no meaning)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from threadgraph.ingest.document import DocumentError
from threadgraph.ingest.readers import parse_file
from threadgraph.ingest.pipeline import extract_corpus
from threadgraph.ingest.tables import classify_column, split_alternatives

RECIPE_MD = """# Buttermilk Pancakes

Fluffy **weekend** pancakes.

## Ingredients

- 2 cups flour
- 1 cup buttermilk (or milk)
- 2 tbsp butter
- 1 egg

## Steps

1. Mix the dry ingredients.
2. Whisk in the buttermilk and egg.
   - Do not overmix.
3. Fry in butter.
"""

RECIPE_HTML = """<!DOCTYPE html>
<html><head><title>Pancakes | My Site</title>
<style>li { color: red }</style>
<script>var s = "<li>not an ingredient</li>";</script></head>
<body>
<nav><ul><li>Home</li><li>Recipes</li></ul></nav>
<h1>Buttermilk Pancakes</h1>
<p>Fluffy <strong>weekend</strong> pancakes.</p>
<h2>Ingredients</h2>
<ul>
  <li>2 cups flour</li>
  <li>1 cup buttermilk (or milk)</li>
  <li>2 tbsp butter
  <li>1 egg</li>
</ul>
<h2>Steps</h2>
<ol>
  <li>Mix the dry ingredients.</li>
  <li>Whisk in the buttermilk and egg.
    <ul><li>Do not overmix.</li></ul>
  </li>
  <li>Fry in butter.</li>
</ol>
</body></html>
"""

SOP_HTML = """<html><body>
<h1>Incident Roles</h1>
<p>Who does what during an incident.</p>
<h2>Incident Commander (IC)</h2>
<h3>What is it?</h3>
<p>The Incident Commander is the person responsible for driving the incident to resolution.</p>
<h3>What are the responsibilities?</h3>
<ol>
  <li>Decide on the next steps.</li>
  <li>Delegate tasks to the Scribe.</li>
</ol>
<h2>Scribe</h2>
<h3>What is it?</h3>
<p>The Scribe is the person responsible for keeping the timeline.</p>
<p>If the Incident Commander is not available, the Scribe is responsible for paging a backup.</p>
<h2>Glossary</h2>
<dl>
  <dt>Deputy</dt><dd>The backup Incident Commander, ready to take over.</dd>
</dl>
</body></html>
"""


def _write(d: Path, name: str, text: str) -> Path:
    p = d / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def _facts(ex, doc: str, relation: str) -> list[tuple]:
    return sorted((t.subject, t.object, tuple(sorted(t.properties.items()))) for t in ex.triples
                  if t.provenance.doc == doc and t.relation == relation)


def _subs(ex, doc: str | None = None) -> dict[tuple[str, str], object]:
    return {(t.subject, t.object): t for t in ex.triples
            if t.relation == "SUBSTITUTES" and (doc is None or t.provenance.doc == doc)}


# ----------------------------------------------------------------------------- HTML
def test_html_recipe_matches_markdown(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    _write(a, "page.md", RECIPE_MD)
    _write(b, "page.html", RECIPE_HTML)
    md, html = extract_corpus([a]), extract_corpus([b])
    assert not html.skipped
    for rel in ("CONTAINS", "SUBSTITUTES"):
        assert _facts(html, "page.html", rel) == _facts(md, "page.md", rel)
    assert ("recipe:Buttermilk Pancakes", "ingredient:buttermilk") in {
        (t.subject, t.object) for t in html.triples if t.relation == "CONTAINS"}
    sub = _subs(html)[("ingredient:buttermilk", "ingredient:milk")]
    assert sub.properties["context"] == "recipe:Buttermilk Pancakes" and sub.properties["symmetric"] is True
    assert sub.provenance.line == RECIPE_HTML.split("\n").index("  <li>1 cup buttermilk (or milk)</li>") + 1
    # nav and script text are gone; the page title is the H1
    assert html.documents["page.html"] == "Buttermilk Pancakes"
    text = "\n".join(c.text for c in html.chunks)
    assert "not an ingredient" not in text and "Home" not in text


def test_html_blocks_structure(tmp_path):
    doc = parse_file(_write(tmp_path, "x.htm", RECIPE_HTML))
    items = [b for b in doc.blocks if b.kind == "item"]
    steps = [b for b in items if b.ordered]
    assert [s.order for s in steps] == [1, 2, 3]
    nested = next(b for b in items if b.text == "Do not overmix.")
    assert nested.level == 2 and doc.blocks[nested.parent].text.startswith("Whisk")
    assert all(b.path == ("Steps",) for b in steps)
    para = next(b for b in doc.blocks if b.kind == "paragraph")
    assert para.bolds == ["weekend"] and para.line == 8


def test_html_table_and_pre(tmp_path):
    html = ("<h1>T</h1>\n<table>\n<thead><tr><th>Role</th><th>Task</th></tr></thead>\n"
            "<tbody><tr><td>Scribe</td><td>Notes</td></tr>\n<tr><td>IC<td>Lead</tbody></table>\n"
            "<pre>\nline a\nline b\n</pre>\n")
    doc = parse_file(_write(tmp_path, "t.html", html))
    rows = [b for b in doc.blocks if b.kind == "row"]
    assert [(r.cells, r.header, r.line) for r in rows] == [
        (["Role", "Task"], True, 3), (["Scribe", "Notes"], False, 4), (["IC", "Lead"], False, 5)]
    code = next(b for b in doc.blocks if b.kind == "code")
    assert code.text == "line a\nline b" and code.line == 7


def test_html_sop_roles(tmp_path):
    _write(tmp_path, "roles.html", SOP_HTML)
    ex = extract_corpus([tmp_path])
    assert not ex.skipped
    ic = ex.entities["role:Incident Commander"]
    assert "IC" in ic.aliases
    assert "role:Scribe" in ex.entities
    assert "role:Deputy" in ex.entities  # <dt>/<dd> glossary definition
    subs = _subs(ex)
    t = subs[("role:Incident Commander", "role:Scribe")]
    assert "not available" in t.properties["condition"]
    assert t.provenance.line == SOP_HTML.split("\n").index(
        "<p>If the Incident Commander is not available, the Scribe is responsible for paging a backup.</p>") + 1
    steps = [e for e in ex.entities.values() if e.type == "step" and e.doc == "roles.html"]
    assert len(steps) == 2
    assert any(t.relation == "RELATED" and t.object == "role:Scribe" and t.subject.startswith("step:")
               for t in ex.triples)


# ----------------------------------------------------------------------------- RST / AsciiDoc
def test_rst_and_asciidoc_recipes(tmp_path):
    _write(tmp_path, "soup.rst", "Tomato Soup\n===========\n\nIngredients\n-----------\n\n"
                                 "- 4 tomatoes\n- 1 onion (or 2 shallots)\n\nSteps\n-----\n\n"
                                 "1. Chop everything.\n2. Simmer::\n\n     stir often\n\n3. Blend.\n")
    _write(tmp_path, "stew.adoc", "= Bean Stew\n:author: x\n\n== Ingredients\n\n* 200 g beans\n"
                                  "* 1 carrot (or parsnip)\n\n== Steps\n\n. Soak.\n. Cook.\n.. stir\n")
    ex = extract_corpus([tmp_path])
    assert not ex.skipped
    contains = {(t.subject, t.object) for t in ex.triples if t.relation == "CONTAINS"}
    assert ("recipe:Tomato Soup", "ingredient:tomato") in contains
    assert ("recipe:Bean Stew", "ingredient:bean") in contains
    subs = _subs(ex)
    assert subs[("ingredient:onion", "ingredient:shallot")].provenance.line == 8
    assert subs[("ingredient:carrot", "ingredient:parsnip")].provenance.line == 7
    doc = parse_file(tmp_path / "soup.rst")
    assert [b.order for b in doc.blocks if b.kind == "item" and b.ordered] == [1, 2, 3]
    assert any(b.kind == "code" and b.text == "stir often" for b in doc.blocks)


# ----------------------------------------------------------------------------- CSV / TSV
SUBS_CSV = ("Ingredient,Substitute,When\n"
            "buttermilk,\"milk + lemon juice; plain yogurt\",for baking\n"
            "butter,margarine or coconut oil,\n"
            "egg,applesauce (in muffins),\n")


def test_csv_substitutions_english(tmp_path):
    _write(tmp_path, "kitchen.csv", SUBS_CSV)
    ex = extract_corpus([tmp_path])
    assert not ex.skipped
    subs = _subs(ex, "kitchen.csv")
    t = subs[("ingredient:buttermilk", "ingredient:plain yogurt")]
    assert t.provenance.line == 2 and t.properties["condition"] == "for baking"
    assert ("ingredient:buttermilk", "ingredient:milk + lemon juice") in subs
    assert subs[("ingredient:butter", "ingredient:margarine")].provenance.line == 3
    assert ("ingredient:butter", "ingredient:coconut oil") in subs  # not merged into buttermilk
    assert subs[("ingredient:egg", "ingredient:applesauce")].properties["condition"] == "in muffins"
    assert all(t.properties["context"] == "" and t.properties["symmetric"] is False for t in subs.values())


def test_csv_substitutions_chinese(tmp_path):
    _write(tmp_path, "表.csv", "原料,替代品,备注\n黄油,猪油、植物油,口感略有不同\n白糖,蜂蜜,用量减半\n")
    ex = extract_corpus([tmp_path])
    subs = _subs(ex)
    assert subs[("ingredient:黄油", "ingredient:猪油")].provenance.line == 2
    assert subs[("ingredient:黄油", "ingredient:植物油")].properties["condition"] == "口感略有不同"
    t = subs[("ingredient:白糖", "ingredient:蜂蜜")]
    assert t.provenance.line == 3 and t.provenance.doc == "表.csv"


def test_tsv_recipe_ingredients_with_amounts(tmp_path):
    _write(tmp_path, "data.tsv", "Dish\tIngredient\tQuantity\tOptional\n"
                                 "Pancakes\tflour\t2 cups\tno\nPancakes\tsugar\t1 tbsp\tyes\n"
                                 "Omelette\teggs\t3\t\n")
    ex = extract_corpus([tmp_path])
    c = {(t.subject, t.object): t for t in ex.triples if t.relation == "CONTAINS"}
    flour = c[("recipe:Pancakes", "ingredient:flour")]
    assert flour.properties == {"required": True, "amount": "2 cups", "order": 1}
    assert flour.provenance.line == 2
    assert c[("recipe:Pancakes", "ingredient:sugar")].properties["required"] is False
    assert c[("recipe:Omelette", "ingredient:egg")].properties["amount"] == "3"
    assert ex.entities["recipe:Pancakes"].doc == "data.tsv"


def test_csv_bad_row_reported_rest_ingested(tmp_path):
    _write(tmp_path, "s.csv", SUBS_CSV + "oops,too,many,fields,here\nmilk,oat milk,\n")
    ex = extract_corpus([tmp_path])
    bad = [s for s in ex.skipped if s.path == "s.csv"]
    assert [(s.line, "5 fields" in s.reason) for s in bad] == [(5, True)]
    subs = _subs(ex)
    assert subs[("ingredient:milk", "ingredient:oat milk")].provenance.line == 6
    assert "s.csv" in ex.documents


def test_csv_nothing_parses_is_skipped(tmp_path):
    _write(tmp_path, "x.csv", "a,b\n1,2,3\n")
    _write(tmp_path, "ok.md", "# Ok\n\ntext\n")
    ex = extract_corpus([tmp_path])
    s = next(s for s in ex.skipped if s.path == "x.csv")
    assert s.line == 2 and "x.csv" not in ex.documents and "ok.md" in ex.documents


def test_unrecognized_csv_still_chunked(tmp_path):
    rows = "\n".join(f"City{i},{1000 + i}" for i in range(45))
    _write(tmp_path, "c.csv", "city,population\n" + rows + "\n")
    ex = extract_corpus([tmp_path])
    chunks = [c for c in ex.chunks if c.doc == "c.csv"]
    assert [c.line for c in chunks] == [2, 22, 42]
    assert chunks[0].text.split("\n")[0] == "city: City0; population: 1000"
    assert not [t for t in ex.triples if t.provenance.doc == "c.csv" and t.relation != "CONTAINS"]


def test_role_table(tmp_path):
    _write(tmp_path, "r.csv", "Role,Responsibilities,Backup\n"
                              "Incident Commander (IC),\"Drive the incident; make decisions\",Deputy\n"
                              "Scribe,Keep the timeline,\n")
    ex = extract_corpus([tmp_path])
    assert "IC" in ex.entities["role:Incident Commander"].aliases
    rel = {(t.subject, t.object, t.provenance.line) for t in ex.triples if t.relation == "RELATED"}
    assert ("role:Incident Commander", "concept:make decisions", 2) in rel
    assert ("role:Scribe", "concept:Keep the timeline", 3) in rel
    assert ("role:Incident Commander", "role:Deputy") in _subs(ex)


# ----------------------------------------------------------------------------- JSON
def test_jsonl_one_edge_per_alternative(tmp_path):
    lines = [{"ingredient": "sour cream", "substitutes": ["greek yogurt", "crème fraîche"]},
             {"ingredient": "heavy cream", "substitutes": ["evaporated milk"], "condition": "in soups"}]
    _write(tmp_path, "d.jsonl", "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n")
    ex = extract_corpus([tmp_path])
    subs = _subs(ex)
    assert {k for k in subs if k[0] == "ingredient:sour cream"} == {
        ("ingredient:sour cream", "ingredient:greek yogurt"), ("ingredient:sour cream", "ingredient:crème fraîche")}
    t = subs[("ingredient:heavy cream", "ingredient:evaporated milk")]
    assert t.provenance.line == 2 and t.properties["condition"] == "in soups"


def test_json_array_records_and_text_leaves(tmp_path):
    _write(tmp_path, "r.json", '{\n "title": "Kitchen data",\n "recipes": [\n'
                               '  {"recipe": "Tea",\n   "ingredients": ["tea leaves", "water"]},\n'
                               '  {"recipe": "Toast", "ingredients": ["bread", "butter (or oil)"]}\n ],\n'
                               ' "tips": {"storage": "Keep bread in a cool place."}\n}\n')
    ex = extract_corpus([tmp_path])
    assert ex.documents["r.json"] == "Kitchen data"
    c = {(t.subject, t.object): t.provenance for t in ex.triples if t.relation == "CONTAINS"}
    assert c[("recipe:Tea", "ingredient:water")].line == 4
    assert c[("recipe:Toast", "ingredient:bread")].line == 6
    assert c[("recipe:Toast", "ingredient:bread")].section == "recipes"
    assert _subs(ex)[("ingredient:butter", "ingredient:oil")].properties["context"] == "recipe:Toast"
    assert any("tips.storage: Keep bread in a cool place." in ch.text for ch in ex.chunks)


def test_invalid_json_reported_with_line(tmp_path):
    _write(tmp_path, "bad.json", '[\n {"a": 1},\n {"b": 2,,}\n]\n')
    with pytest.raises(DocumentError) as err:
        parse_file(tmp_path / "bad.json")
    assert err.value.line == 3 and "invalid JSON" in err.value.reason
    _write(tmp_path, "part.jsonl", '{"ingredient": "lard", "substitute": "butter"}\n{broken\n')
    ex = extract_corpus([tmp_path])
    skipped = {(s.path, s.line) for s in ex.skipped}
    assert ("bad.json", 3) in skipped and ("part.jsonl", 2) in skipped
    assert ("ingredient:lard", "ingredient:butter") in _subs(ex)


def test_column_meanings():
    assert classify_column("Substitute for") == "item"
    assert classify_column("替代品") == "sub"
    assert classify_column("食材") == "item"
    assert classify_column("Use instead") == "sub"
    assert classify_column("ingredients.amount") == "amount"
    assert classify_column("ingredients.name") == "item"
    assert classify_column("Stand-in") == "sub"
    assert classify_column("city") == ""
    assert split_alternatives("butter; margarine") == ["butter", "margarine"]
    assert split_alternatives("黄油、猪油") == ["黄油", "猪油"]
    assert split_alternatives("A or B") == ["A", "B"]
    assert split_alternatives(["x", "y"]) == ["x", "y"]
    assert split_alternatives("1/2 cup milk") == ["1/2 cup milk"]


def test_deterministic(tmp_path):
    _write(tmp_path, "a.html", RECIPE_HTML)
    _write(tmp_path, "b.csv", SUBS_CSV)
    _write(tmp_path, "c.jsonl", '{"ingredient": "lard", "substitute": ["butter", "ghee"]}\n')
    one, two = extract_corpus([tmp_path]), extract_corpus([tmp_path])
    assert [t.id for t in one.triples] == [t.id for t in two.triples]
    assert [(c.id, c.text) for c in one.chunks] == [(c.id, c.text) for c in two.chunks]


# ----------------------------------------------------------------------------- end to end
def test_end_to_end_mixed_folder(tmp_path):
    from tests.conftest import tiny_settings
    from threadgraph.bot.core import ThreadGraphBot
    from threadgraph.bot.message import IncomingMessage, ThreadKey
    from threadgraph.ingest.service import run_ingest

    src = tmp_path / "src"
    _write(src, "notes.md", "# Kitchen notes\n\nAlways preheat the oven.\n")
    _write(src, "web/pancakes.html", RECIPE_HTML)
    _write(src, "tables/subs.csv", "Original,Replacement,Notes\nsour milk,kefir,\nbuttermilk,plain yogurt thinned with milk,1:1\n")
    _write(src, "tables/more.jsonl", '{"ingredient": "ghee", "substitutes": ["clarified butter"]}\n')
    settings = tiny_settings(tmp_path / "data")
    report = run_ingest([src], settings)
    assert report.ok, report.skipped
    bot = ThreadGraphBot(settings)
    ans = bot.answer(IncomingMessage(thread=ThreadKey(platform="t"), text="what can I use instead of buttermilk?"))
    assert ans.found
    assert "plain yogurt thinned with milk" in ans.answer
    cited = {(f.source.doc, f.source.line) for f in ans.facts}
    assert ("tables/subs.csv", 3) in cited


def test_html_pseudo_headings_and_json_ld(tmp_path):
    _write(tmp_path, "cake.html", "<h1>Cake</h1>\n<p><strong>Ingredients</strong></p>\n"
                                  "<ul><li>2 eggs</li><li>1 cup sugar (or honey)</li></ul>\n"
                                  "<p>Method:</p>\n<ol><li>Mix.</li></ol>\n")
    ld = {"@context": "https://schema.org", "@graph": [{"@type": "WebPage"}, {
        "@type": "Recipe", "name": "Lemonade", "recipeIngredient": ["4 lemons", "100 g sugar"],
        "recipeInstructions": [{"@type": "HowToStep", "text": "Squeeze the lemons."}, "Stir in sugar."]}]}
    _write(tmp_path, "drink.html", "<html><head>\n<script type=\"application/ld+json\">" + json.dumps(ld)
           + "</script>\n</head><body><p>Refreshing.</p></body></html>\n")
    ex = extract_corpus([tmp_path])
    contains = {(t.subject, t.object): t for t in ex.triples if t.relation == "CONTAINS"}
    assert ("recipe:Cake", "ingredient:egg") in contains
    assert ("ingredient:sugar", "ingredient:honey") in _subs(ex)
    t = contains[("recipe:Lemonade", "ingredient:lemon")]
    assert t.provenance.line == 2 and t.properties["amount"] == "4"
    doc = parse_file(tmp_path / "cake.html")
    assert [b.path for b in doc.blocks if b.kind == "item"] == [("Ingredients",), ("Ingredients",), ("Method",)]


def test_fenced_code_cites_its_first_code_line():
    """A fenced block's passage starts on the line after its ``` line (a quoted code line
    cites its own line, not the fence): 温泉蛋.md's mermaid chart runs from line 48
    ("graph TD") to line 54; line 47 is the opening fence, 55 the closing one."""
    path = Path(__file__).parent.parent / "corpora/howtocook/dishes/breakfast/温泉蛋/温泉蛋.md"
    doc = parse_file(path)
    code = next(b for b in doc.blocks if b.kind == "code")
    assert code.text.splitlines()[0] == "graph TD"
    assert (code.line, code.end_line) == (48, 54)


def test_indented_code_after_blank_lines(tmp_path):
    """An indented code block cites its first non-blank line."""
    text = "# Restart\n\nRun:\n\n    systemctl restart app\n    systemctl status app\n\nDone.\n"
    code = next(b for b in parse_file(_write(tmp_path, "r.md", text)).blocks if b.kind == "code")
    assert (code.text, code.line, code.end_line) == (
        "systemctl restart app\nsystemctl status app", 5, 6)
