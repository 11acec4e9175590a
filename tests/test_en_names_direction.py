"""English recipe extraction: the names a substitution or an optional item gets, and its direction.

Every rule is shown on lines copied from at least two dev corpora (each line checked against its source
with ``quoted``); none of them names a dish or a product in code — the words are data
(knowledge/lexicon/cues.yaml, ingest/lexicon/*.yaml).
"""

from __future__ import annotations

from pathlib import Path

from conftest import quoted

from threadgraph.ingest.pipeline import extract_corpus
from threadgraph.knowledge import cues

ROOT = Path(__file__).resolve().parents[1]
GEN = ROOT / "benchmarks" / "generalization"
BAW = GEN / "en-baw-drinks" / "docs" / "cocktails"
EHR = GEN / "en-ehrensberger" / "docs" / "recipes"
WBU = GEN / "en-wbushey" / "docs" / "recipes"
WIT = GEN / "en-wittkuhn" / "docs" / "recipes"
CK = GEN / "en-communitykitchen" / "docs" / "data"
GOVUK = GEN / "ops-govuk" / "docs" / "manual"
K8S = GEN / "ops-k8s-src" / "docs"
PD = ROOT / "corpora" / "pagerduty-incident-response" / "docs"


def _subs(text: str, in_item: bool = False) -> set[tuple[str, str]]:
    return {(c.x or c.head, c.y) for c in cues.read(text, in_item=in_item) if c.kind == "substitute"}


def _mini(tmp_path, body: str, name: str = "r.md"):
    d = tmp_path / "c"
    d.mkdir(exist_ok=True)
    (d / name).write_text(body, encoding="utf-8")
    return extract_corpus([d], root=d)


def _edges(ex, relation: str, **props) -> set[tuple[str, str]]:
    out = set()
    for t in ex.triples:
        if t.relation == relation and all(t.properties.get(k) == v for k, v in props.items()):
            out.add((ex.entities[t.subject].name, ex.entities[t.object].name))
    return out


# --------------------------------------------------------------------------- direction of "swap X for Y"

def test_swap_x_for_y_gives_x_up():
    line = quoted(BAW / "manhattan.md", 22, "Dry: swap sweet vermouth for dry and garnish lemon twist.")
    assert _subs(line) == {("sweet vermouth", "dry vermouth")}
    # "substitute Y for X" keeps its own direction
    assert _subs("Substitute margarine for butter.") == {("butter", "margarine")}


def test_swap_in_running_text_of_runbooks_is_no_substitution():
    # a rota swap, "swap shifts or cover": no thing replaces another
    for text in (quoted(GOVUK / "pagerduty.html.md", 41, "if you need to make a rota swap or cover for someone at the last minute."),
                 quoted(K8S / "src-oncall.md", 203, "0. Find someone to agree to swap shifts or cover for days you will be"),
                 quoted(K8S / "src-oncall.md", 6, "duties, please swap oncalls or find coverage for that week.")):
        assert not _subs(text), text


# --------------------------------------------------------------------------- "(Y instead of X)" note

def test_instead_of_note_without_verb():
    line = quoted(BAW / "bloody-mary.md", 10, "_Variations:_ Red Snapper (gin instead of vodka); "
                                              "Bloody Caesar (clamato instead of tomato juice).")
    assert _subs(line) == {("vodka", "gin"), ("tomato juice", "clamato")}


def test_instead_of_in_a_terminology_note_is_no_substitution():
    line = quoted(PD / "training" / "overview.md", 74, '(e.g. "Incident Controller" instead of "Incident Commander")')
    assert not _subs(line)
    line = quoted(PD / "training" / "overview.md", 64, '(e.g. "Control" instead of "Command" to describe the management functions)')
    assert not _subs(line)


# --------------------------------------------------------------------------- name cleaning

def test_juice_of_a_fruit_is_the_fruit_juice():
    from threadgraph.ingest.normalize import clean_name

    assert clean_name(quoted(WIT / "bananabread.md", 32, "Juice of 1 lemon")) == "lemon juice"
    assert clean_name(quoted(WIT / "JuliusR.md", 18, "Juice of one lemon")) == "lemon juice"
    assert clean_name(quoted(EHR / "chicken-pork-veggie-tovarich.md", 17, "juice of ½ lemon (2 T)")) == "lemon juice"
    assert clean_name("lemon juice") == "lemon juice"


def test_a_name_that_leaves_the_thing_open_makes_no_edge(tmp_path):
    from threadgraph.ingest.normalize import clean_name, is_entity_name

    for surface in ("a vegan alternative", "equivalent replacement", "similar crumbs"):
        assert not is_entity_name(clean_name(surface)), surface
    assert is_entity_name(clean_name("egg substitute"))
    body = ("# Granola\n\n## Ingredients\n\n- " + quoted(WIT / "granola.md", 24, "2-3 teaspoons honey (or a vegan alternative)")
            + "\n- " + quoted(EHR / "cheesecake.md", 8, "1 ¼ cups graham cracker crumbs (or similar crumbs)")
            + "\n- " + quoted(WBU / "bread" / "cornbread.md", 12, "eggs: 2 (or equivalent replacement)") + "\n")
    assert _edges(_mini(tmp_path, body), "SUBSTITUTES") == set()


def test_a_bare_fruit_before_or_takes_the_form_of_the_other_side(tmp_path):
    for path, n, line in ((WIT / "IndianDal.md", 31, "2-3 tbsp lime or lemon juice or to taste"),
                          (EHR / "moqueca-with-fish.md", 14, "4 tablespoons lime or lemon juice")):
        body = "# Dal\n\n## Ingredients\n\n- " + quoted(path, n, line) + "\n- 1 cup water\n"
        assert _edges(_mini(tmp_path, body), "SUBSTITUTES") == {("lime juice", "lemon juice")}, line


# --------------------------------------------------------------------------- "(optional)" after one side

def test_optional_after_the_second_of_two_noted_sides_is_about_that_side(tmp_path):
    line = quoted(BAW / "amaretto-sour.md", 24, "Lemon zest (express) or cherry (optional).")
    ex = _mini(tmp_path, "# Amaretto Sour\n\n## Ingredients\n\n- 50 ml amaretto\n\n## Garnish\n\n" + line + "\n")
    assert ("Amaretto Sour", "cherry") in _edges(ex, "CONTAINS", required=False)
    assert ("Amaretto Sour", "lemon zest") in _edges(ex, "CONTAINS", required=True)
    assert ("lemon zest", "cherry") in _edges(ex, "SUBSTITUTES")


def test_optional_after_both_sides_makes_the_choice_optional(tmp_path):
    # one note after "X or Y": the item (X) is optional, Y its alternative
    for path, n, line, x, y in (
            (CK / "recipes.json", 240, "Corned beef or fish flakes (optional)", "corned beef", "fish flake"),
            (WIT / "Sarmale.md", 26, "1 smoked pork hock or a few slices of smoked bacon (optional)",
             "smoked pork hock", "smoked bacon")):
        ex = _mini(tmp_path, "# Dish\n\n## Ingredients\n\n- 1 cup rice\n- " + quoted(path, n, line) + "\n")
        assert ("Dish", x) in _edges(ex, "CONTAINS", required=False), line
        assert (x, y) in _edges(ex, "SUBSTITUTES"), line


def _opts(text: str) -> list:
    return [c for c in cues.read(text) if c.kind == "optional"]


def test_an_optional_action_note_does_not_make_the_thing_before_it_optional(tmp_path):
    for path, n, line in (
            (BAW / "zombie.md", 28, "Mint sprig and spent lime shell (flame overproof rum if desired)."),
            (BAW / "negroni.md", 19, "2. Strain over large ice cube in old fashioned glass (or serve up if preferred)."),
            (WIT / "bananabread.md", 39, "mash the bananas with a fork (leaving them slightly chunky if desired), then add")):
        assert not _opts(quoted(path, n, line)), line
    # "if using" still names a thing, in an action note too (en-ehrensberger)
    line = quoted(EHR / "ians-10-veggie-chili.md", 25, "Add the ingredients to a large stew pot (brown beef first, if using)")
    assert len(_opts(line)) == 1
    ex = _mini(tmp_path, "# Zombie\n\n## Ingredients\n\n- 30 ml overproof rum\n- 20 ml lime juice\n\n## Garnish\n\n"
               "Mint sprig and spent lime shell (flame overproof rum if desired).\n")
    assert not _edges(ex, "CONTAINS", required=False)


# --------------------------------------------------------------------------- "Name -- explanation"

def test_a_dash_after_a_short_name_starts_a_note(tmp_path):
    from threadgraph.ingest.items import parse_item

    lines = [quoted(WIT / "tomatosoup.md", 12, "Butter -- use unsalted butter to saute onions"),
             quoted(WIT / "tomatosoup.md", 14, "Garlic -- you'll need 1 Tbsp minced from about 3 cloves"),
             quoted(WIT / "tomatosoup.md", 20, "Whipping cream -- adds a creaminess to the soup and offsets acidity.")]
    assert [parse_item(t)[0].name for t in lines] == ["Butter", "Garlic", "Whipping cream"]
    # a dash inside a parenthesised note stays in the note (en-communitykitchen)
    for line, name in ((quoted(CK / "recipes.json", 131, "2-3 tbsp suya spice (yaji – mix of ground peanuts, ginger, garlic, cayenne, paprika)"), "suya spice"),
                       (quoted(CK / "recipes.json", 63, "Protein of choice (chicken, beef, or fish – optional)"), "Protein of choice")):
        assert [ip.name for ip in parse_item(line)] == [name]
    body = "# Tomatosoup\n\n## Ingredients\n\n" + "".join(f"- [ ] {t}\n" for t in lines) + "\n## Preparation\n\n1. Cook.\n"
    assert _edges(_mini(tmp_path, body), "CONTAINS", required=True) >= {
        ("Tomatosoup", "butter"), ("Tomatosoup", "garlic"), ("Tomatosoup", "whipping cream")}


# --------------------------------------------------------------------------- "A/B <head>"

def test_a_one_word_side_of_a_tight_slash_takes_the_head_of_the_other(tmp_path):
    from threadgraph.ingest.items import parse_item

    def sides(text: str) -> list[tuple[str, list[str]]]:
        return [(ip.name, [a.raw for a in ip.alternatives]) for ip in parse_item(text)]

    assert "salt/pepper rim" in quoted(BAW / "bloody-mary.md", 29, "Celery stick; optional salt/pepper rim.")
    assert sides("optional salt/pepper rim") == [("salt rim", ["pepper rim"])]
    assert "1/2 cup palm/veg oil" in quoted(CK / "recipes.json", 596, "1/2 cup palm/veg oil, tomato paste")
    assert sides("1/2 cup palm/veg oil") == [("palm oil", ["veg oil"])]
    assert "cilantro/coriander leaves" in quoted(EHR / "mixed-vegetable-and-paneer-curry.md", 32, "Garnish with cilantro/coriander leaves.")
    assert sides("cilantro/coriander leaves") == [("cilantro leaves", ["coriander leaves"])]
    # no head of a form or a kind: each side keeps its own name (en-wbushey)
    assert "milk/nondairy milk/whipping cream" in quoted(WBU / "sweets" / "xmas-cookies.md", 30, "1-2 tsp milk/nondairy milk/whipping cream")
    assert sides("1-2 tsp milk/nondairy milk/whipping cream") == [("milk", ["nondairy milk", "whipping cream"])]
    assert sides("milk/cream") == [("milk", ["cream"])]
    ex = _mini(tmp_path, "# Bloody Mary\n\n## Ingredients\n\n- 50 ml vodka\n\n## Garnish\n\nCelery stick; optional salt/pepper rim.\n")
    assert ("salt rim", "pepper rim") in _edges(ex, "SUBSTITUTES")
    assert ("Bloody Mary", "salt rim") in _edges(ex, "CONTAINS", required=False)


def test_a_bare_form_after_or_takes_the_leading_words_in_items_and_prose(tmp_path):
    from threadgraph.ingest.items import parse_item, share_form_sides

    line = quoted(WIT / "fesenjan.md", 18, "Alternatively, you can use chicken drumsticks or quarters.")
    assert share_form_sides(["chicken drumsticks", "quarters"]) == ["chicken drumsticks", "chicken quarters"]
    assert [a.raw for a in parse_item(quoted(BAW / "negroni.md", 23, "Orange twist or wedge"))[0].alternatives] == ["Orange wedge"]
    assert share_form_sides(["water", "broth"]) == ["water", "broth"]
    body = ("# Fesenjan\n\n## Ingredients\n\n- 1 kg chicken thighs\n- 200 g walnuts\n\n## Notes\n\n"
            "Chicken thighs are a top choice. " + line + "\n")
    subs = _edges(_mini(tmp_path, body), "SUBSTITUTES")
    assert ("chicken thigh", "chicken quarter") in subs and ("chicken thigh", "quarter") not in subs


def test_vague_amounts_and_conditions_are_not_part_of_a_name():
    from threadgraph.ingest.normalize import clean_name

    assert clean_name(quoted(EHR / "white-bean-sauce-for-pasta.md", 17, "Lots of freshly ground black pepper")) == "ground black pepper"
    assert clean_name(quoted(EHR / "ians-10-veggie-chili.md", 13, "several cloves of garlic, chopped")) == "garlic"
    assert clean_name(quoted(EHR / "almond-cream-cake.md", 16, "few grains salt")) == "salt"
    assert "a little water/oil" in quoted(CK / "recipes.json", 451, "Mix ogbono with a little water/oil to form paste")
    assert clean_name("a little water") == "water"
    assert "a few slices of smoked bacon" in quoted(WIT / "Sarmale.md", 26, "1 smoked pork hock or a few slices of smoked bacon (optional)")
    assert clean_name("a few slices of smoked bacon") == "smoked bacon"
    # more of a listed thing stays a thing of its own (en-ehrensberger)
    assert clean_name(quoted(EHR / "chocolate-brownie-balls-no-sugar-vegan.md", 15, "Additional cocoa powder")) == "additional cocoa powder"
    # a trailing condition clause (en-ehrensberger "1 Green Chili (or more if you like it spicy)")
    assert "if you like it spicy" in quoted(EHR / "mixed-vegetable-and-paneer-curry.md", 13, "if you like it spicy")
    assert clean_name("Green Chili if you like it spicy") == "green chili"


def test_or_inside_a_word_is_no_alternative():
    from threadgraph.ingest.items import note_clauses, parse_item

    # en-ehrensberger "(orange grind)" is no "or ange grind"; en-wbushey "orange juice", "oregano" keep their names
    assert quoted(EHR / "cinnamon-orange-juice-loaf.md", 20, "(orange grind)")
    assert note_clauses("orange grind") == (False, [])
    assert [(ip.name, ip.alternatives) for ip in parse_item(quoted(WBU / "dinner" / "orange-marinaded-pork-chops.md", 4, "orange juice: 1/2 cup"))] == [("orange juice", [])]
    assert [(ip.name, ip.alternatives) for ip in parse_item(quoted(WBU / "dinner" / "london-broil.md", 9, "oregano: 1/2 tsp"))] == [("oregano", [])]
    assert [a.raw for a in parse_item("butter (or margarine)")[0].alternatives] == ["margarine"]


# --------------------------------------------------------------------------- "A or B C <head>"

def test_a_head_word_more_is_another_thing_and_is_shared(tmp_path):
    from threadgraph.ingest.normalize import fuzzy_allowed

    line = quoted(EHR / "pancakes.md", 11, "2 Tablespoon canola or sunflower seed oil")
    assert not fuzzy_allowed("sunflower seed oil", "sunflower seed")
    # a qualifier more inside the name may still merge (en-wbushey, en-wittkuhn)
    assert quoted(WBU / "sweets" / "chocolate-pb-cookies.md", 8, "unsweetened natural cocoa powder")
    assert fuzzy_allowed("unsweetened natural cocoa powder", "unsweetened cocoa powder")
    assert quoted(WIT / "peanutbutter-ramen.md", 22, "light brown soft sugar")
    assert fuzzy_allowed("light brown soft sugar", "light brown sugar")
    ex = _mini(tmp_path, "# Pancakes\n\n## Ingredients\n\n- 1 cup sunflower seeds\n- " + line + "\n")
    assert _edges(ex, "SUBSTITUTES") == {("canola oil", "sunflower seed oil")}
