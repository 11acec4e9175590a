"""English recipe questions answered right (issues 10 and 11): the direction of English substitute
cues, "(no substitute)" answered from the recipe, "could I use Y instead of X in R?", and recipe
names linked to the closest title. Every expected value is a literal of the dev corpora's documents
(en-ourtable, en-wbushey, en-baw-drinks, en-ehrensberger, en-communitykitchen), checked against the
source line by ``quoted``; no rule names a dish (the cues are data: knowledge/lexicon/cues.yaml,
bot/intents/substitute.yaml).
"""

from __future__ import annotations

import pytest

from conftest import GEN, bot_over, cue_subs, quoted

OURTABLE = GEN / "en-ourtable/docs/content/recipes"
WBUSHEY = GEN / "en-wbushey/docs/recipes"
BAW = GEN / "en-baw-drinks/docs/cocktails"
EHR = GEN / "en-ehrensberger/docs/recipes"
WITT = GEN / "en-wittkuhn/docs/recipes"


_subs = cue_subs


# --- (a) direction: "A can be substituted for B" puts A in B's place -------------------------------

def test_substituted_for_puts_the_first_thing_in():
    s = quoted(OURTABLE / "middle-eastern-lamb-patties-with-yogurt-sauce.md", 45, "Mint can be substituted for the cilantro.")
    assert _subs(s) == {("cilantro", "mint")}


def test_other_substitute_cues_keep_their_direction():
    # "Y can be used in place of X" (en-wbushey), "Y instead of X" note and "swap X for Y" (en-baw-drinks),
    # "replace X with Y" (en-ourtable): X is what is given up in every one
    s = quoted(WBUSHEY / "soups/african-peanut-stew.md", 28, "Mustard greens or lacinato kale can be used in place of the collard greens.")
    assert _subs(s) == {("collard greens", "mustard greens or lacinato kale")}
    assert _subs(quoted(BAW / "bloody-mary.md", 10, "gin instead of vodka")) == {("vodka", "gin")}
    assert _subs(quoted(BAW / "manhattan.md", 22, "Dry: swap sweet vermouth for dry and garnish lemon twist.").split(": ", 1)[1]) \
        == {("sweet vermouth", "dry vermouth")}
    s = quoted(OURTABLE / "skillet-lasagna.md", 43, "you can replace the mozzarella and Parmesan with 3/4 cup of shredded Italian cheese blend")
    assert _subs(s) == {("mozzarella and parmesan", "3/4 cup of shredded italian cheese blend")}


def test_or_with_a_comma_after_it_offers_the_alternative():
    s = quoted(OURTABLE / "beef-taco-bake.md", 30, "1 (16 oz) can black beans, slightly mashed; or, a can of refried beans")
    assert {y for _, y in _subs(s, in_item=True)} == {"refried beans"}
    # running prose still reads a list, not an alternative (en-ehrensberger)
    assert not _subs("Switch off heat and serve hot with Rice, Naan, Paratha, or Roti.")


# --- (b) "(no substitute)" and "could I use Y instead of X in R?" through the real core -----------

@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    return bot_over(tmp_path_factory.mktemp("en-questions"), {
        "ourtable/caramel-praline-cheesecake.md": OURTABLE / "caramel-praline-cheesecake.md",
        "ourtable/toffee.md": OURTABLE / "toffee.md",
        "ourtable/dill-dip.md": OURTABLE / "dill-dip.md",
        "ourtable/brown-sugar-refrigerator-crisps.md": OURTABLE / "brown-sugar-refrigerator-crisps.md",
        "ourtable/beef-taco-bake.md": OURTABLE / "beef-taco-bake.md",
        "ourtable/supremes-de-volaille-farcies-aux-morilles.md": OURTABLE / "supremes-de-volaille-farcies-aux-morilles.md",
        "ourtable/chicken-broccoli-rice-casserole.md": OURTABLE / "chicken-broccoli-rice-casserole.md",
        "wbushey/african-peanut-stew.md": WBUSHEY / "soups/african-peanut-stew.md",
        "wbushey/chocolate-gingerbread.md": WBUSHEY / "sweets/chocolate-gingerbread.md",
        "baw/mojito.md": BAW / "mojito.md",
        "ourtable/almond-or-pecan-ice-cream-balls.md": OURTABLE / "almond-or-pecan-ice-cream-balls.md",
        "ehrensberger/butter-chicken.md": EHR / "butter-chicken-recipe-indian-chicken-makhani.md",
        "ehrensberger/mixed-vegetable-and-paneer-curry.md": EHR / "mixed-vegetable-and-paneer-curry.md",
        "ehrensberger/palak-paneer-spinach-paneer.md": EHR / "palak-paneer-spinach-paneer.md",
        "wittkuhn/peanut_udon.md": WITT / "peanut_udon.md",
        "wittkuhn/peanutbutter-ramen.md": WITT / "peanutbutter-ramen.md",
    })


def test_no_substitute_note_answers_a_candidate_question(ask):
    line = quoted(OURTABLE / "caramel-praline-cheesecake.md", 21, "6 Tbsp butter, melted (no substitute)")
    a = ask("Can I use margarine instead of the butter in the caramel praline cheesecake crust?", thread="b1")
    assert a.found and a.answer.startswith("No:") and "no substitute for butter" in a.answer and line in a.answer
    # margarine replaces butter in another recipe: that is not this recipe's answer
    assert "Brown Sugar Refrigerator Crisps" not in a.answer


def test_no_substitute_answers_what_can_replace(ask):
    line = quoted(OURTABLE / "toffee.md", 38, "2 sticks butter (no substitute)")
    a = ask("What can I use instead of butter in the toffee?", thread="b2")
    assert a.found and "Toffee says there is no substitute for butter" in a.answer and line in a.answer
    line = quoted(OURTABLE / "dill-dip.md", 26, "1 cup real mayonnaise – do not substitute")
    a = ask("What can I use instead of mayonnaise in the dill dip?", thread="b3")
    assert a.found and "no substitute for mayonnaise" in a.answer and line in a.answer


def test_a_recipe_without_the_note_keeps_its_substitutes(ask):
    quoted(OURTABLE / "brown-sugar-refrigerator-crisps.md", 28, "1 cup butter or margarine")
    a = ask("What can I use instead of butter in the brown sugar refrigerator crisps?", thread="b4")
    assert a.found and "margarine" in a.answer and "no substitute" not in a.answer
    quoted(WBUSHEY / "soups/african-peanut-stew.md", 28, "can be used in place of the collard greens")
    a = ask("What can I use instead of collard greens in the african peanut stew?", thread="b5")
    assert a.found and "mustard greens" in a.answer.casefold() and "no substitute" not in a.answer


def test_could_i_use_y_instead_of_x_in_r(ask):
    quoted(OURTABLE / "beef-taco-bake.md", 30, "or, a can of refried beans")
    a = ask("Could I use refried beans instead of black beans in the Beef Taco Bake?", thread="c1")
    assert a.found and a.intent == "substitute" and "refried beans" in a.answer
    assert [e.name for e in a.entities if e.type == "recipe"] == ["Beef Taco Bake"]
    # the en-wbushey refusal still answers through the same pattern
    quoted(WBUSHEY / "sweets/chocolate-gingerbread.md", 34, "don't use potato flour")
    a = ask("Could I use potato flour instead of corn starch in the chocolate gingerbread?", thread="c2")
    assert a.answer.startswith("No")


# --- (c) a misspelled or partly typed recipe name: the closest title, and the answer says which -----

def _title(path, n: int) -> str:
    line = path.read_text(encoding="utf-8").splitlines()[n - 1]
    assert line.startswith("title:")
    return line.split(":", 1)[1].strip().strip('"')


def _linker(titles: list[str]):
    from threadgraph.bot.linker import Linker
    from threadgraph.knowledge.kb import EntityName

    return Linker([EntityName(f"recipe:{x.casefold()}", x, "recipe", x) for x in titles])




def test_a_gloss_does_not_hide_a_second_title_ending_alike():
    flourless = _title(EHR / "flourless-fudge-chocolate-chip-cookies.md", 2)
    oatmeal = _title(EHR / "oatmeal-chocolate-chip-cookies.md", 2)
    assert oatmeal == "Oatmeal Chocolate Chip Cookies (en)"
    m = _linker([flourless, oatmeal]).link("chocolate chip cookies", ("recipe", "document"))
    # both titles end with the words typed: one is used, and the other is named as just as close
    assert {m.name, *m.near} == {flourless, oatmeal} and len(m.near) == 1


def test_a_misspelled_title_links_to_the_closest_of_two_close_titles():
    bread, cake = _title(WITT / "bananabread.md", 2), _title(WITT / "bananacake.md", 2)
    lk = _linker([bread, cake])
    assert lk.link("banana bred", ("recipe",)).name == "Bananabread"
    assert lk.link("banana cake", ("recipe",)).name == "Bananacake"
    cookies = _title(OURTABLE / "banana-oatmeal-cookies.md", 2)
    breakfast = _title(OURTABLE / "banana-oatmeal-breakfast-cookies.md", 2)
    lk = _linker([breakfast, cookies])
    m = lk.link("banana oatmel cookies", ("recipe",))
    assert (m.name, m.method) == ("Banana Oatmeal Cookies", "fuzzy")
    m = lk.link("banana oatmeal breakfast cookie", ("recipe",))
    assert m.name == "Banana Oatmeal Breakfast Cookies"


def test_the_answer_says_which_recipe_a_close_name_was_read_as(ask):
    a = ask("What can I use instead of butter in the carmel praline cheesecake?", thread="n1")
    assert a.answer.startswith('(I took "carmel praline cheesecake" to mean Caramel Praline Cheesecake')
    assert "no substitute for butter" in a.answer
    # an exact name gets no such note
    a = ask("What can I use instead of butter in the toffee?", thread="n2")
    assert not a.answer.startswith("(I took")


def test_another_recipes_edge_is_said_to_be_that_recipes(ask):
    quoted(OURTABLE / "brown-sugar-refrigerator-crisps.md", 28, "1 cup butter or margarine")
    a = ask("Can I use margarine instead of butter in the chicken broccoli rice casserole?", thread="n3")
    assert a.answer.startswith("Chicken Broccoli Rice Casserole does not say; in Brown Sugar Refrigerator Crisps, "
                               "butter can be replaced by margarine")


def test_a_fraction_is_not_a_slash_list_of_names():
    # "needed" must not become a name of the flour / the sugar (then "are the sesame seeds needed?" asks
    # about flour): en-ourtable Quiche-Lorraine.md:25, en-wittkuhn bananacake.md:36
    from threadgraph.bot.linker import Linker
    from threadgraph.knowledge.kb import EntityName

    flour = quoted(OURTABLE / "Quiche-Lorraine.md", 25, "1 1/4 cups all-purpose flour, plus more if needed")
    sugar = "cups " + quoted(WITT / "bananacake.md", 36, "confectioners’ sugar, plus an extra 1/4 cup if needed")
    lk = Linker([EntityName("ingredient:all-purpose flour", "all-purpose flour", "ingredient", flour),
                 EntityName("ingredient:confectioner's sugar", "confectioner's sugar", "ingredient", sugar),
                 EntityName("ingredient:sesame seed", "sesame seed", "ingredient", "sesame seeds"),
                 EntityName("recipe:chicken/pork/veggie tovarich", "Chicken/Pork/Veggie Tovarich", "recipe",
                            "Chicken/Pork/Veggie Tovarich")])
    assert [m.name for m in lk.scan("and are the sesame seeds needed?")] == ["sesame seed"]
    # a slash list of words still gives each dish its name (en-ehrensberger)
    assert lk.link("pork tovarich", ("recipe",)).name == "Chicken/Pork/Veggie Tovarich"


# --- a dish the documents never name is not answered with another dish's steps -------------------

def test_steps_of_a_dish_no_document_names_are_not_found(ask):
    quoted(BAW / "mojito.md", 20, "Lightly slap mint")
    a = ask("How do I make a mint julep?", thread="s1")
    assert not a.found and "Lightly slap mint" not in a.answer.split("Related:")[0]
    a = ask("How do I make beef bourguignon?", thread="s2")
    assert not a.found and "bourguignon" in a.answer
    # a dish the documents name is still answered (en-ourtable, en-baw-drinks)
    assert ask("How do I make the beef taco bake?", thread="s3").found
    assert ask("How do I make a mojito?", thread="s4").found


def test_a_title_tail_starting_with_a_function_word_is_no_name():
    # "could I make it with vegetable broth instead?" is about the broth, not "… with Vegetables"
    chickpeas = _title(next(OURTABLE.glob("curried-chickpeas*.md")), 2)
    ragout = _title(next(EHR.glob("eggplant*.md")), 2)
    lk = _linker([chickpeas, ragout])
    assert lk.scan("could I make it with vegetable broth instead?") == []
    assert "with vegetables" not in lk.by_surface and "and tomato ragout" not in lk.by_surface
    # the title's own trailing words still name it
    assert lk.link("chickpeas with vegetables", ("recipe",)).name == chickpeas
    assert lk.link("tomato ragout", ("recipe",)).name == ragout


# --- "which recipes use X?" counts the forms written after X ---------------------------------------

def test_used_in_counts_the_forms_written_after_the_name(ask):
    quoted(EHR / "butter-chicken-recipe-indian-chicken-makhani.md", 36, "whole raw cashews")
    quoted(EHR / "mixed-vegetable-and-paneer-curry.md", 14, "15 Cashew nuts")
    quoted(EHR / "palak-paneer-spinach-paneer.md", 17, "16 to 20 cashewnuts")
    a = ask("Which recipes have cashews in them?", thread="u1")
    for name in ("Butter Chicken", "Mixed Vegetable and Paneer Curry", "Palak Paneer"):
        assert name in a.answer
    # a product of the thing is not a form of it (en-wittkuhn: peanut butter is no peanut)
    quoted(WITT / "peanut_udon.md", 15, "salted peanuts")
    quoted(WITT / "peanutbutter-ramen.md", 23, "smooth peanut butter")
    a = ask("Which recipes use peanuts?", thread="u2")
    assert "Peanut Udon" in a.answer and "Ramen" not in a.answer


# --- a percentage before a name is its grade ----------------------------------------------------------

def test_a_percentage_before_the_name_is_a_grade():
    from threadgraph.ingest.items import parse_item
    from threadgraph.ingest.recipes import _measured_compound

    line = quoted(OURTABLE / "lemon-blueberry-clafouti.md", 29, "3/4 cup 1% milk")
    assert [(ip.name, ip.amount) for ip in parse_item(line)] == [("milk", "3/4 cup")]
    # "If you can't find meatloaf mix, use 1/2 pound 85%lean ground beef and 1/2 pound ground pork": both together
    y = quoted(OURTABLE / "skillet-lasagna.md", 43, "1/2 pound 85%lean ground beef and 1/2 pound ground pork")
    assert _measured_compound(y) == "lean ground beef + ground pork"
    # a percentage elsewhere stays where it is (en-baw-drinks margarita.md:14)
    line = quoted(BAW / "margarita.md", 14, "40 ml tequila (100% agave)")
    assert [(ip.name, ip.amount) for ip in parse_item(line)] == [("tequila", "40 ml")]


def test_substitute_y_for_x_with_a_comma_clause_after_y():
    from conftest import CORPORA

    s = quoted(OURTABLE / "skillet-lasagna.md", 41,
               "Substitute 1 pound hot or sweet Italian sausage, castings removed, for meatloaf mix.")
    assert _subs(s) == {("meatloaf mix", "1 pound hot or sweet italian sausage")}
    # without a clause the rule reads as before (bundled PagerDuty incident_response.md:534)
    s = quoted(CORPORA / "pagerduty-incident-response/docs/training/courses/incident_response.md", 534,
               "substitute 911 for whatever your local emergency number is")
    assert _subs(s) == {("whatever your local emergency number", "911")}
    # a comma clause in a step that is no substitution reads nothing (same document, line 41)
    assert not _subs("Add 1 red bell pepper, cored and chopped fine, to skillet with meat in step 1.")


def test_a_grade_alone_is_no_stand_in(tmp_path):
    from conftest import edge_names, extract_copies

    quoted(OURTABLE / "skillet-lasagna.md", 41, "Substitute 1 pound hot or sweet Italian sausage, castings removed, for meatloaf mix")
    (tmp_path / "a").mkdir()
    subs = edge_names(extract_copies(tmp_path / "a", OURTABLE / "skillet-lasagna.md"), "SUBSTITUTES")
    assert ("meatloaf mix", "sweet italian sausage") in subs
    assert not [y for x, y in subs if y in ("hot", "sweet")]
    # a name led by the grade is still a name (en-baw-drinks manhattan.md:22 "swap sweet vermouth for dry")
    quoted(BAW / "manhattan.md", 22, "swap sweet vermouth for dry")
    (tmp_path / "b").mkdir()
    assert ("sweet vermouth", "dry vermouth") in edge_names(extract_copies(tmp_path / "b", BAW / "manhattan.md"), "SUBSTITUTES")


def test_a_part_of_a_dish_links_the_dish():
    florentiners = _title(WITT / "Florentiner.md", 2)
    apple = _title(next(EHR.glob("heavenly*.md")), 2)
    lk = _linker([florentiners, apple, "Cheesecake with Meringue Topping"])
    m = lk.link("topping of the Florentiners", ("recipe", "document"))
    assert (m.name, m.typed) == ("The best Florentiners", "topping of the Florentiners")
    assert lk.link("the glaze of the apple cakes", ("recipe",)).name == "Heavenly apple cake"
    # a slot naming no dish after "of" stays unknown
    assert lk.link("topping of the pizza", ("recipe",)).type == "unknown"


# --- "R but I only have Y, ok?" ----------------------------------------------------------------------

def test_only_have_y_ok_asks_whether_y_will_do(ask):
    line = quoted(OURTABLE / "almond-or-pecan-ice-cream-balls.md", 26,
                  "1 (2 oz) package slivered almonds, chopped & toasted - may use chopped pecans")
    assert {y for _, y in _subs(line, in_item=True)} == {"chopped pecans"}
    a = ask("almond ice cream balls but i only have pecans, ok?", thread="o1")
    assert a.found and a.intent == "substitute" and a.answer.startswith("Yes") and "pecan" in a.answer
    quoted(WBUSHEY / "soups/african-peanut-stew.md", 28, "Mustard greens or lacinato kale can be used in place of the collard greens.")
    a = ask("african peanut stew but i only have lacinato kale, ok?", thread="o2")
    assert a.found and a.intent == "substitute" and "collard greens" in a.answer.casefold()
