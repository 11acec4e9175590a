"""English recipe recall: substitutions and optional items the dev corpora state
in plain words, each rule shown on sentences from at least two corpora
(en-wbushey, en-ehrensberger, en-communitykitchen), with the lists and forms
it must NOT read as alternatives beside it. Expected values are the source
text's words."""

from __future__ import annotations

from threadgraph.ingest.items import is_method, parse_item
from threadgraph.ingest.pipeline import extract_corpus
from conftest import sub_pairs as _subs


def _one(text: str):
    (ip,) = parse_item(text)
    return ip


def _mini(tmp_path, name, body):
    d = tmp_path / "c"
    d.mkdir(exist_ok=True)
    (d / name).write_text(body, encoding="utf-8")
    return extract_corpus([d], root=d)


def _req(ex) -> dict[str, bool]:
    return {t.object.split(":", 1)[1]: t.properties["required"] for t in ex.triples if t.relation == "CONTAINS"}


def test_mapping_item_key_is_the_name_and_value_its_notes():
    # en-wbushey front matter: "ingredients:" is a YAML mapping name → amount and notes
    ip = _one("cheese: grated - optional")
    assert (ip.name, ip.optional) == ("cheese", True)
    ip = _one("scallions: optional chopped garnish")
    assert (ip.name, ip.optional) == ("scallions", True)
    ip = _one("mixed vegetables: handful - optional")
    assert (ip.name, ip.optional) == ("mixed vegetables", True)
    ip = _one("lamb: 1 lb minced")
    assert (ip.name, ip.amount.split()[:2], ip.optional, ip.alternatives) == ("lamb", ["1", "lb"], False, [])
    # en-ehrensberger: an optional label around the whole item
    ip = _one("(optional: 1 lb of ground beef)")
    assert (ip.name, ip.optional) == ("ground beef", True)
    # en-communitykitchen: a labelled line keeps its label as the name and offers nothing
    ip = _one("Syrup: 1 cup sugar + 1/2 cup water")
    assert ip.name == "Syrup" and not ip.alternatives


def test_mapping_key_alternatives_share_their_words():
    ip = _one("green or red bell peppers: 2 whole or 1 1/2 cups")
    assert ip.name == "green bell peppers" and [a.raw for a in ip.alternatives] == ["red bell peppers"]
    ip = _one("light or dark brown sugar: 1 cup packed")
    assert ip.name == "light brown sugar" and [a.raw for a in ip.alternatives] == ["dark brown sugar"]


def test_mapping_value_offers_a_form_or_a_thing_not_a_preparation_or_a_measure():
    assert [a.raw for a in _one("fresh thyme: 1 tsp chopped or 1/2 tsp dried").alternatives] == ["dried thyme"]
    assert [a.raw for a in _one("tomatoes: 2 cups chopped fresh or canned (14.5 ounce can)").alternatives] == ["canned tomatoes"]
    assert [a.raw for a in _one("honey: 1 tablespoon, or molasses").alternatives] == ["molasses"]
    assert [a.raw for a in _one("corn starch: 1/2 cup - or gluten-free flour").alternatives] == ["gluten-free flour"]
    assert [a.raw for a in _one("black-eyed peas: 4 cups cooked, or butter beans (2 10 ounce frozen packages or two "
                                "16-ounce cans, drained)").alternatives] == ["butter beans"]
    assert not _one("garlic: 2 cloves, minced or presses").alternatives
    assert not _one("celery: 1 cup or 3 stalks").alternatives


def test_a_participle_before_a_noun_names_a_thing():
    assert not is_method("grated parmesan")
    assert not is_method("grated coconut")
    assert is_method("chopped")
    assert is_method("grate the cheese")


def test_item_alternatives_with_a_participle(tmp_path):
    # en-ehrensberger and en-communitykitchen ingredient lines
    ex = _mini(tmp_path, "r.md", "# Biscuits\n\n## Ingredients\n\n- 1/2 cup grated parmesan or other cheese\n"
               "- 1/2 cup grated coconut or raisins\n- ½ t ground ginger (or grated fresh)\n- 2 cups flour\n")
    subs = _subs(ex)
    assert ("grated parmesan", "cheese") in subs
    assert ("grated coconut", "raisin") in subs
    assert any(x == "ground ginger" and y.endswith("ginger") and y.startswith("grated") for x, y in subs)


def test_mapping_items_in_front_matter(tmp_path):
    ex = _mini(tmp_path, "r.md", "---\ntitle: Shepherd's Pie\ningredients:\n  lamb: 1 lb minced\n  onions: 1 large\n"
               "  cheese: grated - optional\n  fresh basil: 1 Tbsp chopped or 1 tsp dried\n---\n\n1. Brown the lamb.\n")
    req = _req(ex)
    assert req["cheese"] is False and req["lamb"] is True
    assert ("basil", "dried basil") in _subs(ex)


def _cue_pairs(text: str) -> set[tuple[str, str]]:
    from threadgraph.knowledge import cues
    return {(c.x, c.y) for c in cues.read(text) if c.kind == "substitute"}


def test_two_things_under_one_preposition_are_alternatives():
    # en-ehrensberger
    assert ("blender", "food processor") in _cue_pairs("Ladle the mixture into a blender or food processor.")
    assert ("pastry cutter", "knives") in _cue_pairs(
        "Combine the ingredients for the shortbread base, using a pastry cutter or two knives to mix.")
    assert ("greased muffin tin", "paper muffin cups") in _cue_pairs("Place in greased muffin tin or paper muffin cups.")
    # en-wbushey
    assert ("wax paper", "plastic wrap") in _cue_pairs("Wrap the dough in wax paper or plastic wrap and refrigerate.")
    assert ("parchment paper", "silicone baking mat") in _cue_pairs(
        "Line a baking sheet with parchment paper or a silicone baking mat.")
    # en-communitykitchen
    assert ("wooden spoon", "blender") in _cue_pairs("Mash/pound with wooden spoon or blender")


def test_a_list_or_a_step_after_or_is_not_a_pair():
    # en-communitykitchen: lists end in ", or"
    assert not _cue_pairs("Switch off heat and serve hot with Rice, Naan, Paratha, or Roti.")
    assert not _cue_pairs("You may need to add more salt (likely), lime or lemon juice, paprika, pepper, "
                          "or chili flakes to get the soup to the desired seasoning for your taste.")
    # en-wbushey / en-ehrensberger: a time, a step or a shape after "or"
    assert not _cue_pairs("Cover plate with plastic wrap and refrigerate for at least 2 hours, or up to 5 days, before baking.")
    assert not _cue_pairs("Bake in a square or rectangular cake pan @175C for 10 minutes.")
    assert not _cue_pairs("Store cookies in an airtight container at room temperature for up to 1 week, or in the freezer "
                          "for up to 3 months.")


def test_serve_with_x_or_y():
    # en-wbushey, en-communitykitchen
    assert ("avacado slices", "Guacamole") in _cue_pairs("Serve with avacado slices or Guacamole.")
    assert ("honey", "jam") in _cue_pairs("Serve rolled with honey or jam.")


def test_pairs_are_kept_only_when_of_one_kind(tmp_path):
    ex = _mini(tmp_path, "r.md", "# Gazpacho\n\n## Ingredients\n\n- 2 cucumbers\n- 1 cup water\n- 1 onion\n\n## Steps\n\n"
               "Ladle the mixture into a blender or food processor. Wrap the dough in wax paper or plastic wrap. "
               "Cover with the onion or more water.\n")
    subs = _subs(ex)
    assert ("blender", "food processor") in subs and ("wax paper", "plastic wrap") in subs
    assert not any(x == "onion" for x, _ in subs)  # "more water" is an amount, not a thing
    assert not _cue_pairs("Cover with the onion or a little more water.")


def _opt_x(text: str) -> list[tuple[str, str]]:
    from threadgraph.knowledge import cues
    return [(c.rule, c.x) for c in cues.read(text) if c.kind == "optional"]


def test_optional_additions_in_notes():
    # en-wbushey
    assert ("en.can_add_x", "chocolate") in _opt_x("And you can add chocolate too.")
    assert ("en.did_without_x", "celery root") in _opt_x("Notes: I didn't use celery root and it was fine.")
    assert ("en.for_variant_add_x", "6 sliced jalapeno peppers") in _opt_x(
        "For a real stomach stinger, add 6 sliced jalapeno peppers to the pot.")
    # en-ehrensberger
    assert ("en.can_add_x", "sprinkles") in _opt_x("Can decorate with sprinkles, etc. before baking if desired.")
    assert ("en.can_add_x", "1 teaspoon cornstarch") in _opt_x(
        "Can be thickened more with 1 teaspoon cornstarch mixed with 1 tablespoon water added to the simmering sauce.")


def test_not_optional_additions():
    # an extra amount, a part of the dish, a step done without something (en-wbushey, en-ehrensberger,
    # en-communitykitchen)
    assert not _opt_x("For spicier chilie, add .5 teaspoons more black powder.")
    assert not _opt_x("Combine the ingredients for the shortbread base, using a pastry cutter or two knives to mix.")
    assert not _opt_x("Cook 10-15 mins without stirring much to form lumps")
    assert not _opt_x("(Note: If cooked without presoaking, extend the cooking time by an extra ½ hour.)")


def test_a_variation_makes_new_things_optional_not_listed_ones(tmp_path):
    ex = _mini(tmp_path, "r.md", "---\ntitle: Wendy's Beef Chilie\ningredients:\n   ground beef: 2lbs\n"
               "   black pepper: 1.5 teaspoons\n   salt: 2 teaspoons\n---\n\n1. Brown the ground beef.\n\n"
               "For much spicier chilie, add 1 teaspoon black pepper and 1 tablespoon cayenne\npepper.\n")
    req = _req(ex)
    assert req["black pepper"] is True and req["cayenne pepper"] is False


def test_a_note_naming_two_kinds_of_the_item():
    # en-communitykitchen
    assert _one("500g beef (sirloin or flank, thinly sliced)").kinds == [("sirloin", "flank")]
    assert _one("2 cups peeled beans (black-eyed or brown beans)").kinds == [("black-eyed beans", "brown beans")]
    assert not _one("500g fresh okra (chopped or blended for sliminess)").kinds
    assert not _one("1 kg assorted meat (goat, chicken, or fish)").kinds
    # en-ehrensberger: an amount, a measure or a note that starts with "or" is not a pair of kinds
    assert not _one("1 Green Chili (or more if you like it spicy)").kinds
    assert not _one("3 Tablespoons shortening (or margarine)").kinds
    assert not _one("1 8-inch springform pan (spring form Ø 25 or glass form)").kinds


def test_tool_phrases_of_a_sentence():
    from threadgraph.ingest.items import tool_phrases as tp

    def tool_phrases(text):
        return [name for _, name in tp(text)]

    # en-ehrensberger
    assert tool_phrases("Scrape one third of the batter into a 10-by-4 inch round tube pan (or 2 loaf pans, in which "
                        "case reduce the cooking time by about 5-10 minutes).") == ["round tube pan", "loaf pans"]
    # en-wbushey
    assert tool_phrases("In a heavy saucepan or skillet, saute the onions and garlic in the oil on medium heat.") == [
        "heavy saucepan", "skillet"]
    assert tp('Sprinkle the coconut on buttered 9" spring form pan (or use parchment paper).')[0] == (
        'buttered 9" spring form pan', "buttered spring form pan")
    assert "square glass baking dish" in tool_phrases("Grease an 8-inch square glass baking dish (or similar sized dish "
                                                      "of your choice, or a cast iron skillet, if you have one.)")


def test_a_note_after_a_tool_offers_another_tool(tmp_path):
    ex = _mini(tmp_path, "r.md", "# Coffee Cake\n\n## Ingredients\n\n- 2 cups flour\n- 1 cup sour cream\n\n## Steps\n\n"
               "Scrape one third of the batter into a 10-by-4 inch round tube pan (or 2 loaf pans, in which case reduce "
               "the cooking time by about 5-10 minutes).\n\nHeat the sour cream in a small pan (or use butter).\n")
    subs = _subs(ex)
    assert ("round tube pan", "loaf pan") in subs
    assert not any(y == "butter" for _, y in subs)  # a tool and a food are not one kind
