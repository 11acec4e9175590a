"""English recipe extraction and questions that generalize (issues 10 and 11): each mechanism is
checked on real lines of at least two dev corpora (en-ourtable, en-baw-drinks, en-wbushey,
en-wittkuhn, en-communitykitchen); every expected value is a literal of the source line, checked
by ``quoted``. No rule names a dish: the cues are data (ingest/lexicon/alternatives.yaml,
knowledge/lexicon/cues.yaml, bot/intents/*.yaml).
"""

from __future__ import annotations

import pytest

from conftest import GEN, bot_over, cue_subs, edge_names, extract_copies, quoted
from threadgraph.ingest.items import mid_name_note, parse_item
from threadgraph.ingest.relations import same_head_anchor, share_last_head
from threadgraph.knowledge import cues
from threadgraph.knowledge.text import DictLinker

OURTABLE = GEN / "en-ourtable/docs/content/recipes"
WBUSHEY = GEN / "en-wbushey/docs/recipes"
BAW = GEN / "en-baw-drinks/docs/cocktails"
WITT = GEN / "en-wittkuhn/docs/recipes"
CK = GEN / "en-communitykitchen/docs/data/recipes.json"


_subs = cue_subs


# --- an "or" note inside the name, before the head it shares -----------------------------------

def test_or_note_inside_a_name_takes_the_head_after_it():
    # en-baw-drinks: "old fashioned (or wine) glass"; en-ourtable: "canned (or freshly baked) sweet potatoes"
    glass = quoted(BAW / "aperol-spritz.md", 18, "old fashioned (or wine) glass")
    assert mid_name_note(glass) == "old fashioned glass (or wine glass)"
    [ip] = parse_item(glass)
    assert (ip.name, [a.raw for a in ip.alternatives]) == ("old fashioned glass", ["wine glass"])
    potato = quoted(OURTABLE / "Sweet Potato Pancakes with Caramel Sauce.md", 37, "1/2 cup canned (or freshly baked) sweet potatoes, mashed")
    [ip] = parse_item(potato)
    assert ip.amount == "1/2 cup" and [a.raw for a in ip.alternatives] == ["freshly baked sweet potatoes"]
    # the sentence reader completes the note the same way (no bare "freshly baked")
    assert {y for _, y in _subs(potato, in_item=True)} == {"freshly baked sweet potatoes"}


def test_two_modifiers_in_parentheses_before_the_head_are_two_kinds():
    flour = quoted(OURTABLE / "banana-oatmeal-breakfast-cookies.md", 31, "1 cup (white or pastry) whole wheat flour")
    [ip] = parse_item(flour)
    assert (ip.amount, ip.name, [a.raw for a in ip.alternatives]) == \
        ("1 cup", "white whole wheat flour", ["pastry whole wheat flour"])
    # a note of the amount and the amount again are no such note
    beans = quoted(OURTABLE / "beef-taco-bake.md", 30, "1 (16 oz) can black beans")
    assert mid_name_note(beans) == beans
    assert mid_name_note("1 tbsp (or more) sugar") == "1 tbsp (or more) sugar"


def test_kinds_named_again_in_a_note_name_both(tmp_path):
    # "If you can't find white or pastry whole wheat flour, you can substitute all-purporse flour": both flours
    quoted(OURTABLE / "banana-oatmeal-breakfast-cookies.md", 45, "If you can't find white or pastry whole wheat flour, you can substitute all-purporse flour")
    pairs = edge_names(extract_copies(tmp_path, OURTABLE / "banana-oatmeal-breakfast-cookies.md"), "SUBSTITUTES")
    assert {("white whole wheat flour", "all-purporse flour"), ("pastry whole wheat flour", "all-purporse flour"),
            ("white whole wheat flour", "pastry whole wheat flour")} <= pairs


# --- "; or, Y" in an ingredient line -----------------------------------------------------------

def test_semicolon_or_in_an_item_offers_the_alternative():
    line = quoted(OURTABLE / "beef-taco-bake.md", 30, "1 (16 oz) can black beans, slightly mashed; or, a can of refried beans")
    [ip] = parse_item(line)
    assert [a.raw for a in ip.alternatives] == ["a can of refried beans"]
    # a trailing amount after a comma is still the amount again, not a thing (en-wbushey style "…, or more")
    [ip] = parse_item("2 cups flour, or more")
    assert ip.name == "flour"


# --- X left to the context: the listed thing with the stand-in's head word ----------------------

def test_stand_in_with_no_x_takes_the_listed_thing_of_its_head_word(tmp_path):
    # en-ourtable: "You can use bittersweet or semisweet chocolate here" — the recipe lists dark and white
    # chocolate; the notes name the dark chocolate
    quoted(OURTABLE / "salted-toffee-pretzel-bark.md", 36, "You can use bittersweet or semisweet chocolate here")
    quoted(OURTABLE / "salted-toffee-pretzel-bark.md", 26, "20 ounces dark chocolate, chopped")
    quoted(OURTABLE / "salted-toffee-pretzel-bark.md", 29, "10 ounces white chocolate, chopped")
    pairs = edge_names(extract_copies(tmp_path, OURTABLE / "salted-toffee-pretzel-bark.md"), "SUBSTITUTES")
    assert {("dark chocolate", "semisweet chocolate"), ("dark chocolate", "bittersweet chocolate")} <= pairs
    assert not any(x == "white chocolate" for x, _ in pairs)


def test_same_head_prefers_the_longest_shared_ending_and_refuses_ties():
    # en-wbushey: "although natural peanut butter or homemade peanut butter may work" — the list says
    # "creamy peanut butter"
    s = quoted(WBUSHEY / "sweets/chocolate-pb-cookies.md", 15, "although natural peanut butter or homemade peanut butter may work")
    [c] = [c for c in cues.read(s) if c.kind == "substitute"]
    assert c.rule == "en.y_works_too" and c.focus
    listed = DictLinker()
    for n in (quoted(WBUSHEY / "sweets/chocolate-pb-cookies.md", 4, "creamy peanut butter"), "butter"):
        listed.add(n, n)
    assert same_head_anchor(listed, cues.split_alternatives(c.y), s) == "creamy peanut butter"
    # en-ourtable: two listed chocolates and a block that names neither: no guess
    two = DictLinker()
    for n in ("dark chocolate", "white chocolate"):
        two.add(n, n)
    assert same_head_anchor(two, ["semisweet chocolate"], "You can use bittersweet or semisweet chocolate here") == ""
    # a clause is no name (en-baw-drinks: "Or lightly muddle a fresh cucumber slice before adding ice.")
    ice = DictLinker()
    ice.add("crushed ice", "crushed ice")
    s = quoted(BAW / "cucumber-elderflower-and-cranberry-cooler-mocktail.md", 46, "Or lightly muddle a fresh cucumber slice before adding ice.")
    assert same_head_anchor(ice, ["lightly muddle a fresh cucumber slice before adding ice"], s) == ""


def test_one_word_side_takes_the_last_sides_head():
    # en-ourtable "bittersweet or semisweet chocolate"; en-ourtable "shiitake or oyster mushrooms" (the morels note)
    assert share_last_head(["bittersweet", "semisweet chocolate"]) == ["bittersweet chocolate", "semisweet chocolate"]
    assert share_last_head(["shiitake", "oyster mushrooms"]) == ["shiitake mushrooms", "oyster mushrooms"]
    assert share_last_head(["Steel cut oats", "quick cook oats"]) == ["Steel cut oats", "quick cook oats"]


def test_y_works_with_this_recipe_and_may_be_substituted():
    s = quoted(OURTABLE / "banana-oatmeal-breakfast-cookies.md", 45, "Steel cut oats or quick cook oats work with this recipe, but each provides a different texture.")
    assert _subs(s) == {("", "steel cut oats or quick cook oats")}
    s = quoted(OURTABLE / "supremes-de-volaille-farcies-aux-morilles.md", 49, "Fresh morels, chanterelles, shiitake or oyster mushrooms may be substituted")
    assert ("", "shiitake or oyster mushrooms") in _subs(s)


# --- precision ---------------------------------------------------------------------------------

def test_components_and_splits_are_no_stand_ins():
    # en-communitykitchen: "(or make with atama, oburunbebe stick, etc.)" lists what a homemade one is made of;
    # en-baw-drinks: "(or split rye/cognac)" is half of each
    s = quoted(CK, 338, "1-2 tbsp Banga spice (or make with atama, oburunbebe stick, etc.)")
    assert not _subs(s, in_item=True)
    s = quoted(CK, 209, "Pepper soup spice mix (or make with ehuru, uziza, uda, calabash nutmeg)")
    assert not _subs(s, in_item=True)
    s = quoted(BAW / "sazerac.md", 12, "50 ml rye whiskey (or split rye/cognac)")
    assert not any("split" in y for _, y in _subs(s, in_item=True))


def test_any_brand_of_the_thing_is_no_other_thing():
    s = quoted(OURTABLE / "skillet-lasagna.md", 43, "Any brand of curly-edged lasagna noodles will work here")
    assert not _subs(s)
    # en-ehrensberger: "(or any cooking oil)" still names one
    s = quoted(GEN / "en-ehrensberger/docs/recipes/mixed-vegetable-and-paneer-curry.md", 17, "2 tbsp Olive oil (or any cooking oil)")
    assert {y for _, y in _subs(s, True)} == {"cooking oil"}


def test_item_alternative_that_is_x_without_its_kind_is_dropped(tmp_path):
    # en-ourtable: "(or 1 can artichoke hearts)" after frozen artichoke hearts names no other thing once the can
    # goes with the amount; en-wittkuhn: "pureed tomatoes or chopped tomatoes" keeps its edge (its own word)
    quoted(OURTABLE / "greek-pita-pizzas.md", 26, "9 ounces frozen artichoke hearts, thawed and chopped (or 1 can artichoke hearts)")
    pairs = edge_names(extract_copies(tmp_path / "a", OURTABLE / "greek-pita-pizzas.md"), "SUBSTITUTES")
    assert not any("artichoke" in x for x, _ in pairs)
    quoted(WITT / "IndianDal.md", 28, "250 ml pureed tomatoes or chopped tomatoes (optional)")
    pairs = edge_names(extract_copies(tmp_path / "b", WITT / "IndianDal.md"), "SUBSTITUTES")
    assert any(x == "pureed tomato" for x, _ in pairs)


@pytest.fixture(autouse=True)
def _dirs(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()


# --- questions ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    return bot_over(tmp_path_factory.mktemp("en-generalize"), {
        "wittkuhn/Sarmale.md": WITT / "Sarmale.md",
        "wbushey/xmas-cookies.md": WBUSHEY / "sweets/xmas-cookies.md",
        "baw/toronto.md": BAW / "toronto.md",
        "baw/aperol-spritz.md": BAW / "aperol-spritz.md",
        "ourtable/salted-toffee-pretzel-bark.md": OURTABLE / "salted-toffee-pretzel-bark.md",
    })


def test_german_statt_question_in_an_english_collection(ask):
    # the dev cases of en-wittkuhn, en-wbushey and en-baw-drinks; each answer names the candidate from the line
    quoted(WITT / "Sarmale.md", 29, "Water or broth, as needed")
    a = ask("kann ich für die Sarmale broth statt water nehmen?", "de1")
    assert a.intent == "substitute" and "broth" in a.answer
    quoted(WBUSHEY / "sweets/xmas-cookies.md", 4, "butter or shortening or coconut oil")
    a = ask("kann ich coconut oil statt butter für die cut-out sugar cookies nehmen?", "de2")
    assert a.intent == "substitute" and "coconut oil" in a.answer
    quoted(BAW / "toronto.md", 12, "Canadian or rye whisky")
    a = ask("Toronto mit rye whisky statt Canadian, geht das?", "de3")
    assert a.intent == "substitute" and "rye" in a.answer


def test_have_to_be_made_with_asks_whether_the_item_is_required(ask):
    # en-ourtable (the dish first) and en-baw-drinks ("do I have to use X in R?"): both are the required intent,
    # answered with the recipe's stand-ins
    a = ask("Does the salted toffee pretzel bark have to be made with dark chocolate?", "req1")
    assert a.intent == "required" and "semisweet" in a.answer
    quoted(BAW / "aperol-spritz.md", 13, "Prosecco or other dry sparkling wine")
    a = ask("Do I have to use Prosecco in the Aperol Spritz?", "req2")
    assert a.intent == "required" and "sparkling wine" in a.answer
