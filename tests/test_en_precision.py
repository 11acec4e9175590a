"""English recipe precision: what is NOT a substitute or an optional item.

Every rule is shown on sentences from the dev corpora (en-ehrensberger,
en-communitykitchen); none of them names a dish in code — the words are
data (knowledge/lexicon/cues.yaml, ingest/lexicon/alternatives.yaml).
"""

from __future__ import annotations

from threadgraph.ingest.items import parse_item, slash_split
from threadgraph.ingest.pipeline import extract_corpus
from threadgraph.knowledge import cues


def _subs(text: str, in_item: bool) -> set[tuple[str, str]]:
    return {(c.x or c.head, c.y) for c in cues.read(text, in_item=in_item) if c.kind == "substitute"}


def _opts(text: str, in_item: bool = True) -> list[cues.Cue]:
    return [c for c in cues.read(text, in_item=in_item) if c.kind == "optional"]


def _alts(text: str) -> list[str]:
    return [a.raw for ip in parse_item(text) for a in ip.alternatives]


def _mini(tmp_path, name, body):
    d = tmp_path / "c"
    d.mkdir(exist_ok=True)
    (d / name).write_text(body, encoding="utf-8")
    return extract_corpus([d], root=d)


def test_prose_list_or_is_not_a_substitute():
    # a bare ", or Y" in a method step continues a list
    assert not _subs("You may need to add more salt (likely), lime or lemon juice, paprika, pepper, "
                     "or chili flakes to get the soup to the desired seasoning for your taste.", False)
    assert not _subs("Switch off heat and serve hot with Rice, Naan, Paratha, or Roti.", False)
    # …but a note "(or Y)" and a cue verb still read
    assert _subs("3 Tablespoons shortening (or margarine)", True)
    assert _subs("2 tbsp Olive oil (or any cooking oil)", True)


def test_time_and_state_words_are_not_things():
    assert not _subs("Rub the spice mix generously over the beef slices. Marinate for at least 1 hour (or overnight).", False)
    assert not _subs("Marinate and rest for a minimum of 30 minutes, or overnight for best results.", False)
    assert not _subs("Drop from a spoon onto greased baking sheet (or lined with parchment paper).", False)
    assert not _subs("\\[OR another option is to blanch the palak in 4 cups of hot water with ¼ tsp salt for 2 mins.", False)


def test_step_is_not_a_thing_but_make_with_names_what():
    # a list after "make with" names the components of a homemade one, none a stand-in (judged.jsonl of
    # en-communitykitchen: "Banga spice → atama" and "Pepper soup spice mix → ehuru" are wrong); one thing stays
    assert cues.thing_of("make with atama, oburunbebe stick, etc.") == ""
    assert cues.thing_of("make with ehuru, uziza, uda, calabash nutmeg") == ""
    assert cues.thing_of("make with ehuru") == "ehuru"
    assert cues.thing_of("simply add 1 Tablespoon lemon juice or vinegar to 1 cup milk and let it sit 5 minutes") == \
        "milk with lemon juice or milk with vinegar"
    assert cues.thing_of("blend with a little water") == ""
    assert cues.thing_of("margarine") == "margarine"


def test_chinese_rules_read_only_chinese_text():
    assert not any(c.rule.startswith("zh.") for c in cues.read("1 green, yellow and/or orange pepper, diced", in_item=True))
    assert not any(c.rule.startswith("zh.") for c in cues.read("2 Tablespoon canola or sunflower seed oil", in_item=True))
    assert any(c.rule == "zh.x_or_y" for c in cues.read("花椒或麻椒", in_item=True))


def test_fraction_and_plus_are_not_alternatives():
    assert slash_split("Syrup: 1 cup sugar + 1/2 cup water") == ["Syrup: 1 cup sugar + 1/2 cup water"]
    assert slash_split("cooked/canned* garbanzo beans") == ["cooked", "canned* garbanzo beans"]
    assert not _alts("Syrup: 1 cup sugar + 1/2 cup water")
    assert not _subs("Syrup: 1 cup sugar + 1/2 cup water", True)
    assert not _subs("1/4 cup creamy peanut butter", True)


def test_collective_and_example_lists_are_not_alternatives():
    for text in ("Assorted meats/fish (beef, dry fish, fresh catfish – about 1 kg)",
                 "Assorted meats/fish (optional)",
                 "1 kg assorted meat (goat, chicken, or fish)",
                 "Protein of choice (chicken, beef, or fish – optional)",
                 "Assorted proteins (beef, dry fish, or smoked fish – optional)"):
        assert not _alts(text), text
    assert parse_item("Assorted meats/fish (optional)")[0].optional
    assert parse_item("Protein of choice (chicken, beef, or fish – optional)")[0].optional
    # a plain "X or Y" item still offers Y
    assert _alts("1/2 cup palm oil or vegetable oil") == ["vegetable oil"]


def test_shared_head_nouns():
    assert _alts("1/4 cup creamy peanut butter (or chunky, but that makes the cookies more crumbly)") == ["chunky peanut butter"]
    assert _alts("Bunches fresh ewedu leaves (or frozen)") == ["frozen ewedu leaves"]
    ip = parse_item("3 C  cooked/canned* garbanzo beans, with reserved liquid")[0]
    assert ip.name == "cooked garbanzo beans" and ip.alternatives[0].raw.startswith("canned garbanzo beans")
    assert parse_item("4 C coarsely crumbled French or Italian bread")[0].name.endswith("French bread")
    assert _alts("2-3 cups chopped spinach or ugu/pumpkin leaves") == ["ugu", "pumpkin leaves"]
    assert cues.head_noun("1/4 cup creamy peanut butter") == "peanut butter"
    assert cues.head_noun("½ t ground ginger") == "ginger"


def test_optional_amount_is_not_an_optional_item():
    assert not _opts("1 Green Chili (or more if you like it spicy)")
    assert not _opts("You may add 1 to 2 tbsps more water to help in blending.", False)
    assert not _opts("If the curry is too thick you may add a few tbsps of hot water.", False)
    assert not _opts("If the soup is too thick, you can add a couple of tablespoons of stock.", False)
    assert _opts("1/2 tsp nutmeg (optional)")
    assert _opts("Locust beans (iru, optional for extra flavor)")


def test_optional_as_adjective_does_not_mark_the_item():
    assert not _opts("Blend butter and powdered sugar (and optional ingredients) well and then mix in flour", False)
    assert not _opts("Add the optional toppings before serving.", False)
    assert _opts("Additional cocoa powder, for coating (optional, but makes more bitter)")


def test_extra_amount_in_an_optional_step(tmp_path):
    ex = _mini(tmp_path, "r.md", "# Chin Chin\n\n## Ingredients\n\n- 3 cups flour\n- 1/2 cup sugar\n\n"
               "## Steps\n\n- Knead.\n- Optional: toss in extra sugar while hot.\n")
    req = {t.object: t.properties["required"] for t in ex.triples if t.relation == "CONTAINS"}
    assert req["ingredient:sugar"] is True
    ex = _mini(tmp_path, "r.md", "# Pudding\n\n## Ingredients\n\n- 1 cup milk\n- 2 tbsp sugar\n\n"
               "## Steps\n\n- Heat the milk.\n- Optional: stir in more sugar to taste.\n")
    req = {t.object: t.properties["required"] for t in ex.triples if t.relation == "CONTAINS"}
    assert req["ingredient:sugar"] is True


def test_make_with_and_added_to_alternatives(tmp_path):
    ex = _mini(tmp_path, "r.md", "# Pancakes\n\n## Ingredients\n\n"
               "- 1 cup buttermilk (or simply add 1 Tablespoon lemon juice or vinegar to 1 cup milk and let it sit 5 minutes)\n"
               "- Pepper soup spice mix (or make with ehuru, uziza, uda, calabash nutmeg)\n- 2 eggs\n")
    subs = {(t.subject, t.object) for t in ex.triples if t.relation == "SUBSTITUTES"}
    assert ("ingredient:buttermilk", "ingredient:milk with lemon juice") in subs
    assert ("ingredient:buttermilk", "ingredient:milk with vinegar") in subs
    assert not any(o.endswith(("lemon juice", "vinegar")) and "with" not in o for _, o in subs)
    assert any(s.startswith("ingredient:pepper soup spice") and "ehuru" in o for s, o in subs)


def test_optional_marker_scopes_the_thing_beside_it(tmp_path):
    ex = _mini(tmp_path, "r.md", "# Curry\n\n## Ingredients\n\n- 20 Cubes of Paneer\n- 1 tbsp Crushed Kasoori Methi\n- 2 T oil\n"
               "- 2 onions\n\n## Steps\n\nAdd the paneer cubes, and kasoori methi crushed if using.\n\n"
               "Cut meat (if using) into bite-sized pieces and fry in oil for 2 minutes.\n\n"
               "Optional – If using onion, sauté in 1 tablespoon oil until lightly golden.\n")
    req = {t.object: t.properties["required"] for t in ex.triples if t.relation == "CONTAINS"}
    assert req["ingredient:paneer"] is True and req["ingredient:oil"] is True
    assert req["ingredient:onion"] is False


def test_a_note_is_about_the_phrase_it_follows(tmp_path):
    ex = _mini(tmp_path, "r.md", "# Cake\n\n## Ingredients\n\n- 1 cup coconut\n- 2 eggs\n- 1 cup chocolate chips\n\n## Steps\n\n"
               "Sprinkle the coconut on buttered 9\" spring form pan (or use parchment paper).\n\n"
               "Stir the chocolate chips into dough. Drop from a spoon onto greased baking sheet (or use parchment paper).\n\n"
               "Beat the eggs (or use egg whites).\n")
    subs = {(t.subject, t.object) for t in ex.triples if t.relation == "SUBSTITUTES"}
    # the paper stands in for the pan the note follows, never for the coconut or the chips
    assert not any(o.endswith("parchment paper") and not s.startswith("tool:") for s, o in subs)
    assert ("tool:buttered spring form pan", "tool:parchment paper") in subs
    assert ("tool:greased baking sheet", "tool:parchment paper") in subs
    assert ("ingredient:egg", "ingredient:egg white") in subs


def test_modifier_lists_share_the_head():
    ip = parse_item("1 green, yellow and/or orange pepper, diced")[0]
    assert ip.name == "green pepper"
    assert [a.raw.split(",")[0] for a in ip.alternatives] == ["yellow pepper", "orange pepper"]
    ip = parse_item("1 large tin of diced or whole tomatoes")[0]
    assert ip.alternatives and ip.alternatives[0].raw == "whole tomatoes"



def test_optional_step_label_does_not_make_its_things_optional(tmp_path):
    ex = _mini(tmp_path, "r.md", "# Puff Puff\n\n## Ingredients\n\n- 3 cups all-purpose flour\n- 1/2 cup sugar\n- 2 onions\n- 6 tablespoons cream\n\n"
               "## Steps\n\n- Fry until golden brown.\n- Optional: Roll in sugar while hot. Serve warm.\n"
               "- Optional – If using onion, sauté in 1 tablespoon oil until lightly golden.\n"
               "- Optionally garnish with cream.\n")
    req = {t.object: t.properties["required"] for t in ex.triples if t.relation == "CONTAINS"}
    assert req["ingredient:sugar"] is True and req["ingredient:onion"] is False
    assert req["ingredient:cream"] is False
