"""English recipe collections read alike whatever their form (issue 10; benchmarks/perturb_en.py measures it):
a heading written in bold, "You'll need" for the ingredients heading, an optional mark written "(opt.)" or
", if desired", an "Optional toppings: …" sentence inside a step, and a unit abbreviated after a number."""

from __future__ import annotations

from threadgraph.ingest.items import parse_item
from threadgraph.ingest.readers.markdown import parse_markdown
from threadgraph.ingest.recipes import ING_HEAD
from threadgraph.knowledge.text import split_sentences
from conftest import GEN, CORPORA, contains_required as _contains, doc_lines, mini_corpus as _mini, one_file


def _paths(md: str) -> dict[str, tuple[str, ...]]:
    blocks, _, _ = parse_markdown(md)
    return {b.text: b.path for b in blocks if b.kind in ("item", "paragraph")}


def test_a_bold_line_before_a_list_is_a_heading():
    # corpora/howtocook (a bold "part" label over each list of a procedure)
    md = doc_lines(one_file(CORPORA / "howtocook" / "dishes" / "staple", "印度焖饭"), 37, 45)
    assert "**腌肉部分：**" in md
    paths = _paths(md)
    assert any(p[-1:] == ("腌肉部分",) for p in paths.values())
    # ops-govuk (a bold label over a list of what a job run looks like)
    md = doc_lines(GEN / "ops-govuk" / "docs" / "manual" / "fall-back-to-mirror.html.md", 144, 148)
    assert md.startswith("**Job completion time:**")
    blocks, _, _ = parse_markdown(md)
    assert [b.text for b in blocks if b.kind == "heading"] == ["Job completion time"]
    assert all(b.path == ("Job completion time",) for b in blocks if b.kind == "item")
    # a bold line before a paragraph that names no section stays text (en-ehrensberger, ops-jupiterone)
    md = doc_lines(GEN / "en-ehrensberger" / "docs" / "recipes" / "palak-paneer-spinach-paneer.md", 31, 33)
    assert "**How to make paneer and sauce**" in md
    blocks, _, _ = parse_markdown(md)
    assert not [b for b in blocks if b.kind == "heading"]
    md = doc_lines(GEN / "ops-jupiterone" / "docs" / "templates" / "procedures" / "cp-ccm-patch.md", 3, 6)
    assert md.startswith("**Local Systems**")
    blocks, _, _ = parse_markdown(md)
    assert not [b for b in blocks if b.kind == "heading"]


def test_bold_section_headings_nest_their_sub_lists(tmp_path):
    # the form of en-wittkuhn's "## Ingredients" / "### For the Pasta" written with bold lines
    md = ("**Ingredients**\n\n**For the Pasta**\n\n- 600 g pasta (e.g. penne)\n\n**Procedure**\n\n"
          "1. Cook the pasta in salted water until al dente.\n")
    paths = _paths(md)
    assert paths["600 g pasta (e.g. penne)"] == ("Ingredients", "For the Pasta")
    assert paths["Cook the pasta in salted water until al dente."] == ("Procedure",)


def test_you_will_need_names_the_ingredients_section():
    # public README lines of two repositories ("## You'll need" over a list of what a test needs;
    # "### You'll Need" over the requirements of an install): the same construction over a recipe's list
    assert ING_HEAD.search("You'll need") and ING_HEAD.search("You’ll Need") and ING_HEAD.search("What you will need")
    assert not ING_HEAD.search("Setup")


def test_if_desired_and_opt_mark_an_item_optional():
    # public recipe lines of two repositories (a Rails seed file; a Go scraper's test fixture)
    for line, name in [("12 corn tortillas, if desired", "corn tortillas"), ("6 lemon wedges, if desired", "lemon wedges"),
                       ("1/2 cup cooked ham, finely chopped, if desired", "cooked ham"),
                       ("1/2 teaspoon dry mustard, if desired", "dry mustard")]:
        ip = parse_item(line)[0]
        assert ip.optional and ip.name.startswith(name), (line, ip)
    # en-ourtable / en-wittkuhn marks, abbreviated
    assert parse_item("1/2 tsp cinnamon (opt.)")[0].optional
    assert parse_item("vanilla extract (opt.)")[0].optional
    # not a condition on the item: an amount "if you like it spicy" (en-ehrensberger), an extra amount
    assert not parse_item("1 Green Chili (or more if you like it spicy)")[0].optional
    assert not parse_item("1 cup mayonnaise (or more as needed)")[0].optional


def test_a_heading_marked_opt_makes_its_items_optional(tmp_path):
    # en-wittkuhn "### For the Lemon-Sesame Drizzle (optional)", abbreviated and as a condition
    ex = _mini(tmp_path, {
        "a.md": "# Banana Bread\n\n## Ingredients\n\n- [ ] 2 eggs\n\n### For the Drizzle (opt.)\n\n- [ ] 1 tbsp sesame seeds\n\n"
                "## Procedure\n\n1. Bake.\n",
        "b.md": "# Banana Loaf\n\n## Ingredients\n\n- [ ] 2 eggs\n\n### For the topping, if desired\n\n- [ ] 50 g walnuts\n\n"
                "## Procedure\n\n1. Bake.\n"})
    a, b = _contains(ex, "Banana Bread"), _contains(ex, "Banana Loaf")
    assert a["sesame seed"] is False and a["egg"] is True
    assert b["walnut"] is False and b["egg"] is True


def test_optional_garnishes_inside_a_step(tmp_path):
    # en-ourtable (a note "Optional garnishes: thinly sliced green onions and sesame seeds") appended to the last
    # step; a bare "Optional:" before an action stays a step's option (en-wbushey form "Optional: Roll in sugar")
    note = doc_lines(GEN / "en-ourtable" / "docs" / "content" / "recipes" / "orange-ginger-chicken-chicken-entrée.md",
                     40, 40)
    assert "Optional garnishes: thinly sliced green onions and sesame seeds" in note
    ex = _mini(tmp_path, {"c.md": "---\ntitle: Ginger Chicken\ningredients:\n  - 1 lb chicken\n  - 2 green onions\n"
                                  "  - 1 tbsp sesame seeds\n  - 1 tbsp sugar\nsteps:\n  - Cook the chicken.\n"
                                  "  - 'Serve. Optional garnishes: thinly sliced green onions and sesame seeds.'\n"
                                  "  - 'Optional: Roll in sugar while hot.'\n---\n"})
    con = _contains(ex, "Ginger Chicken")
    assert con["green onion"] is False and con["sesame seed"] is False
    assert con["chicken"] is True and con["sugar"] is True


def test_a_unit_abbreviation_after_a_number_ends_no_sentence():
    # en-ehrensberger ("1 Tbsp. pure vanilla extract", "4 c. shortening") and en-ourtable ("1 lb. ground beef")
    d = GEN / "en-ehrensberger" / "docs" / "recipes"
    assert "1 Tbsp. pure vanilla extract" in doc_lines(d / "flourless-fudge-chocolate-chip-cookies.md", 13, 13)
    assert "4 c. shortening" in doc_lines(d / "bran-muffins.md", 9, 9)
    assert "1 lb. ground beef" in doc_lines(GEN / "en-ourtable" / "docs" / "content" / "recipes" / "tamale-pie.md", 24, 24)
    for s in ["1 Tbsp. pure vanilla extract", "4 c. shortening", "1 lb. ground beef"]:
        assert split_sentences(s) == [s]
    # a capital after it is a new sentence
    assert split_sentences("Bake for 20 min. Then serve.") == ["Bake for 20 min.", "Then serve."]


def test_an_addition_named_in_a_step_is_optional(tmp_path):
    # en-ourtable (a note at the end of a step: "note: You can add chicken.") and en-wittkuhn (a numbered step:
    # "Finally, you can add chocolate, …"); the recipe lists neither, another recipe of the corpus does
    from conftest import extract_copies

    ot, wk = GEN / "en-ourtable" / "docs" / "content" / "recipes", GEN / "en-wittkuhn" / "docs" / "recipes"
    assert "note: You can add chicken." in doc_lines(ot / "sweet-and-crunchy-salad.md", 41, 41)
    assert "you can add chocolate, nuts, seeds or dried fruit" in doc_lines(wk / "muesli.md", 29, 29)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    ex = extract_copies(tmp_path / "a", ot / "sweet-and-crunchy-salad.md", ot / "chicken-salad-appetizers.md")
    assert _contains(ex, "Sweet and Crunchy Salad").get("chicken") is False
    ex = extract_copies(tmp_path / "b", wk / "muesli.md", wk / "vegan_brownies.md")
    con = next(v for k, v in ((r, _contains(ex, r)) for r in ("Muesli", "Muesli recipe")) if v)
    assert con.get("chocolate") is False


def test_a_stand_in_slot_spans_an_abbreviated_unit():
    from threadgraph.knowledge import cues

    # en-ourtable (a cobbler's note) as written, and with its unit abbreviated the way en-ehrensberger writes
    # units ("4 c. shortening"): the stand-in is the same
    line = doc_lines(GEN / "en-ourtable" / "docs" / "content" / "recipes" / "blueberry-cobbler.md", 46, 46)
    assert "Replace blueberries with 4 cups fresh or frozen sliced peaches" in line
    for s in ["Peach Cobbler - Replace blueberries with 4 cups fresh or frozen sliced peaches, increase sugar to 2/3 cup.",
              "Peach Cobbler - Replace blueberries with 4 c. fresh or frozen sliced peaches, increase sugar to 2/3 c."]:
        found = [(c.x, c.y) for c in cues.read(s) if c.kind == "substitute"]
        assert found and found[0][0] == "blueberries" and found[0][1].endswith("fresh or frozen sliced peaches"), found


def test_an_optional_mark_ending_a_line_takes_its_stop():
    # the garnish lines of a drinks collection written with a trailing stop (en-baw-drinks form "Lemon twist
    # (optional).", en-wittkuhn "Cocoa powder (optional, for decoration)") with the mark after a comma
    for line, name in [("Lemon twist, optional.", "Lemon twist"), ("Cocoa powder, if desired.", "Cocoa powder")]:
        ip = parse_item(line)[0]
        assert ip.optional and ip.name == name, ip
