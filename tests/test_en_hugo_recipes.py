"""English recipes written as a Hugo site or a YAML recipe file: ingredient
lists, alternatives and optional items as home cooks write them.

Every rule is shown on lines copied from en-ourtable (Hugo front matter:
ingredients, steps and notes as YAML values) and from at least one other
English dev corpus (en-ehrensberger, en-wbushey, en-wittkuhn,
en-communitykitchen, en-baw-drinks); the words are data
(ingest/lexicon/*.yaml), no dish is named in code.
"""

from __future__ import annotations

from conftest import contains_required as _contains, mini_corpus as _mini, sub_pairs as _subs


def test_front_matter_sub_list_with_amounts_is_an_ingredient_list(tmp_path):
    # en-ourtable: a "Dressing:" key beside "ingredients:" lists the dressing's ingredients
    ex = _mini(tmp_path, {"salad.md": (
        '---\ntitle: "Mandarin Orange Tossed Salad"\ningredients:\n  - "1/2 cup slivered almonds"\n'
        '  - "1/2 head iceberg lettuce"\n\nDressing:\n  - "3 Tbsp orange juice"\n  - "3 Tbsp vegetable or olive oil"\n'
        '  - "1 Tbsp sugar or honey"\n  - "1 to 2 tsp poppy seeds (optional)"\n  - "1/4 tsp salt"\n\n'
        'allergens:\n  - "tree nuts"\n  - "dairy"\n\nsteps:\n'
        '  - "Whisk orange juice, oil, vinegar, sugar or honey, poppy seeds, and salt until emulsified."\n---\n')})
    got = _contains(ex, "Mandarin Orange Tossed Salad")
    assert got["poppy seed"] is False and got["orange juice"] is True and got["salt"] is True
    assert "tree nut" not in got and "dairy" not in got  # a list of words, no amounts: not ingredients
    assert {("vegetable oil", "olive oil"), ("sugar", "honey")} <= _subs(ex)


def test_sub_list_lines_of_another_corpus_read_the_same(tmp_path):
    # en-ehrensberger lists its "Topping:" inside the ingredients block; the same lines under a key of their
    # own are still the recipe's ingredients, and its steps (no leading amount) stay steps
    ex = _mini(tmp_path, {"cake.md": (
        '---\ntitle: Heavenly apple cake\ningredients:\n  - 2 eggs\n  - 8-10 tart apples\nTopping:\n'
        '  - ¼ cup butter (50 g)\n  - ½ teaspoon vanilla extract\n  - ½ teaspoon almond extract\n  - 2 tablespoons flour\n'
        'Base:\n  - Cream together the butter and white sugar\n  - Add the eggs to the butter and sugar\n---\n')})
    got = _contains(ex, "Heavenly apple cake")
    assert {"butter", "vanilla extract", "almond extract", "flour"} <= set(got)
    assert not any("cream together" in n or "add the egg" in n for n in got)


def test_or_between_kinds_of_a_liquid_shares_its_head(tmp_path):
    # en-ourtable: "chicken or vegetable broth" is chicken broth or vegetable broth, not chicken
    ex = _mini(tmp_path, {"curry.md": (
        '---\ntitle: "Curried Chickpeas with Vegetables"\ningredients:\n  - "2 cups cauliflower florets"\n'
        '  - "1 cup chicken or vegetable broth"\n  - "1/2 cup plain yogurt"\n---\n'),
        "morels.md": (
        '---\ntitle: "Chicken and Morels"\ningredients:\n  - "4 Tbsp butter (55g/2oz)"\n'
        '  - "3/4 cup heavy or whipping cream (175 ml/6oz)"\n---\n'),
        # en-wbushey: the same written as a YAML mapping
        "soup.md": "---\ntitle: Tomato Soup\ningredients:\n  chicken or veg broth : 2 cups\n  butter: 2 tablespoons\n---\n"})
    subs = _subs(ex)
    assert {("chicken broth", "vegetable broth"), ("heavy cream", "whipping cream"), ("chicken broth", "veg broth")} <= subs
    assert not any(x in ("chicken", "heavy") for x, _ in subs)


def _alts(text: str) -> list[str]:
    from threadgraph.ingest.items import parse_item
    from threadgraph.ingest.normalize import clean_name
    return [clean_name(a.raw) for ip in parse_item(text) for a in ip.alternatives]


def test_or_note_names_the_thing_not_the_verb():
    # en-ourtable: "(or try Y)", "(or substitute Y)" offer Y
    assert _alts("1/2 head romaine or leafy lettuce (or try spinach)") == ["spinach", "leafy lettuce"]
    assert _alts("1 11 oz can mandarin oranges, drained and sliced (or substitute black grapes)") == ["black grape"]


def test_or_note_that_restates_the_amount_is_no_alternative(tmp_path):
    # en-ourtable
    assert _alts("1 cup mashed banana (or about 2 bananas)") == []
    assert _alts("1 cup mayonnaise (or more as needed)") == []
    # en-ehrensberger, en-wittkuhn
    assert _alts("1 Green Chili (or more if you like it spicy)") == []
    assert _alts("2 tsp ginger grated (or more to taste)") == []
    ex = _mini(tmp_path, {"cookies.md": (
        '---\ntitle: "Banana Oatmeal Cookies"\ningredients:\n  - "1 1/2 cups flour"\n'
        '  - "1 cup mashed banana (or about 2 bananas)"\n  - "1 cup chocolate chips"\n---\n'),
        "salad.md": (
        '---\ntitle: "Chicken Salad Appetizers"\ningredients:\n  - "2 qts chopped cooked chicken"\n'
        '  - "1 cup mayonnaise (or more as needed)"\n  - "2 tsp seasoned salt"\n---\n'),
        "curry.md": "# Curry\n\n## Ingredients\n\n- 1 Green Chili (or more if you like it spicy)\n- 1 onion\n"})
    assert _subs(ex) == set()


def test_if_using_after_a_list_in_a_step_is_about_its_last_thing(tmp_path):
    # en-ourtable: "sugar" is the superfine sugar of the list; salt, named before it, stays required
    ex = _mini(tmp_path, {"quiche.md": (
        '---\ntitle: "Quiche Lorraine"\ningredients:\n  - "1 1/4 cups all-purpose flour, plus more if needed (175g/6 oz)"\n'
        '  - "1/2 tsp salt"\n  - "1 tsp superfine sugar (optional)"\n  - "3-8 Tbsp iced water"\nsteps:\n'
        '  - "In a large bowl, sift together the flour, salt and sugar (if using). Pulse the ingredients in a food processor."\n---\n'),
        # en-wittkuhn: the thing right before the marker is the optional one, the one before it stays required
        "dal.md": ("# Indian Dal with Red Lentils\n\n## Ingredients\n\n-   [ ] 250 ml coconut milk \n"
                   "-   [ ] 250 ml pureed tomatoes or chopped tomatoes (optional) \n-   [ ] 1 onion\n\n## Procedure\n\n"
                   "3.  Then add coconut milk and pureed tomatoes (if using) and simmer for another 5-10 minutes, or until "
                   "the lentils are cooked.\n")})
    q = _contains(ex, "Quiche Lorraine")
    assert q["salt"] is True and q["superfine sugar"] is False and q["all-purpose flour"] is True
    d = _contains(ex, "Indian Dal with Red Lentils")
    assert d["coconut milk"] is True and d["pureed tomato"] is False


def test_optional_label_line_lists_optional_things(tmp_path):
    # en-ourtable: a note "Optional garnishes: A and B" (things the list does not name)
    ex = _mini(tmp_path, {"chicken.md": (
        '---\ntitle: "Orange Ginger Chicken Chicken Entrée"\ningredients:\n  - "1/3 cup all-purpose flour"\n'
        '  - "2 Tbsp honey"\n  - "1 tsp ground ginger"\nsteps:\n'
        '  - "Sprinkle with garnishes, if desired, and serve."\n'
        'notes: "Optional garnishes: thinly sliced green onions and sesame seeds"\n---\n'),
        # en-ehrensberger's label "Optional: grated apple" written as a note; en-communitykitchen's
        # "Optional: Roll in sugar while hot. Serve warm." is a step, no list
        "pancakes.md": ("---\ntitle: Pancakes\ningredients:\n  - 2 cups flour\n  - 2 eggs\n  - 1 cup sugar\n"
                        "notes: |-\n  Optional: grated apple\n\n  Optional: Roll in sugar while hot. Serve warm.\n---\n")})
    c = _contains(ex, "Orange Ginger Chicken Chicken Entrée")
    assert c["green onion"] is False and c["sesame seed"] is False and c["honey"] is True
    p = _contains(ex, "Pancakes")
    assert p["grated apple"] is False and p["sugar"] is True
    assert not any("roll" in n for n in p)


def test_comma_list_of_things_before_or_offers_each():
    from threadgraph.ingest.items import parse_item
    # en-ourtable: four stocks, any one of them
    ip = parse_item("6 cups poultry stock, chicken broth, vegetable stock or vegetable broth")[0]
    assert ip.name == "poultry stock"
    assert [a.raw for a in ip.alternatives] == ["chicken broth", "vegetable stock", "vegetable broth"]
    # en-wittkuhn, en-wbushey: a preparation, a preference or a quality after the comma is no list of things
    assert _alts("150 g to 200 g ricotta salata, grated (alternatively pecorino or parmesan)") == ["pecorino", "parmesan"]
    assert _alts("2 eggs, preferably organic or free-range, beaten") == []
    ip = parse_item("1/3 cup (76g) butter, unsalted or salted, melted")[0]
    assert ip.alternatives == [] and ip.kinds == [("unsalted butter", "salted butter")]
    assert _alts("garlic: 2 cloves, minced or presses") == []


def test_measured_parts_of_a_stand_in_are_one_combination(tmp_path):
    from threadgraph.ingest.recipes import _measured_compound
    # en-ourtable
    assert _measured_compound("2 cups pitted sweet cherries and 2 cups pitted sour cherries") == \
        "pitted sweet cherries + pitted sour cherries"
    # en-communitykitchen, en-wbushey: no measured parts, nothing combined here
    assert _measured_compound("Equal parts ugu (pumpkin) and water leaves") == ""
    assert _measured_compound("roughly what I use") == ""
    ex = _mini(tmp_path, {"cobbler.md": (
        '---\ntitle: "Blueberry Cobbler"\ningredients:\n  - "4 cups fresh or frozen blueberries"\n  - "1/2 cup sugar"\n'
        '  - "1/2 tsp cinnamon (optional)"\n  - "1/2 sweet, red onion, sliced into rings"\n'
        'notes: "Alternate versions: Cherry Cobbler - Replace blueberries with 2 cups pitted sweet cherries and 2 cups '
        'pitted sour cherries, increase sugar to 2/3 cup."\n---\n')})
    subs = _subs(ex)
    assert ("blueberry", "pitted sweet cherry") in subs
    assert not any(y == "sweet" for _, y in subs)


def test_replace_two_listed_things_with_a_named_blend(tmp_path):
    # en-ourtable: both listed cheeses, and a stand-in of three words the list does not hold
    ex = _mini(tmp_path, {"lasagna.md": (
        '---\ntitle: "Skillet Lasagna"\ningredients:\n  - "1 pound meatloaf mix"\n'
        '  - "1/2 cup mozzarella cheese, shredded (see note)"\n  - "1/4 cup grated Parmesan cheese (see note)"\n'
        '  - "3/4 cup whole-milk ricotta cheese"\n'
        'notes: "To make things go even quicker, you can replace the mozzarella and Parmesan with 3/4 cup of '
        'shredded Italian cheese blend."\n---\n'),
        # en-ourtable: a role a step gives a mixture is no stand-in; en-wbushey: a stand-in that names nothing
        "soup.md": ('---\ntitle: "Cream of Asparagus Soup"\ningredients:\n  - "2 onions diced"\n  - "1/3 cup of flour"\n'
                    'steps:\n  - "Next add 1/2 cup of water and the 1/3 cup of flour to the onion and combine well. This '
                    'step will create the base of the soup and will act as a \\"thinking agent\\"."\n---\n'),
        "bread.md": ("---\ntitle: Banana Bread\ningredients:\n  flour mix: 2 cups\n  bananas: 3\n---\n\n"
                     "Notes: Also works as muffins! And you can add chocolate too. I replaced the 2 cups gf flour mix "
                     "with roughly what I use.\n")})
    subs = _subs(ex)
    assert {("mozzarella cheese", "shredded italian cheese blend"),
            ("grated parmesan cheese", "shredded italian cheese blend")} <= subs
    assert not any("thinking agent" in x or "base of the soup" in y for x, y in subs)
    assert not any(x == "flour mix" for x, _ in subs)


def test_both_sides_of_an_optional_or_item_are_optional(tmp_path):
    ex = _mini(tmp_path, {
        # en-ourtable
        "pancakes.md": ('---\ntitle: "Sweet Potato Pancakes with Caramel Sauce"\ningredients:\n'
                        '  - "2 cups all-purpose flour"\n  - "Whipped butter or whipped cream, optional"\n---\n'),
        # en-wittkuhn
        "sarmale.md": ("# Romanian Sarmale\n\n## Ingredients\n\n- [ ] 1 kg sauerkraut\n"
                       "- [ ] 1 smoked pork hock or a few slices of smoked bacon (optional)\n"),
        # en-ehrensberger: two preparations of one thing, no second thing to leave out
        "bars.md": ("---\ntitle: Coconut-almond bars\ningredients: |-\n  1 c. flour\n"
                    "  1 c. almonds, sliced or grated (70 g) - optional\n---\n\nMix.\n")})
    p = _contains(ex, "Sweet Potato Pancakes with Caramel Sauce")
    assert p["whipped butter"] is False and p["whipped cream"] is False and p["all-purpose flour"] is True
    s = _contains(ex, "Romanian Sarmale")
    assert s["smoked pork hock"] is False and s["smoked bacon"] is False
    b = _contains(ex, "Coconut-almond bars")
    assert b["almond"] is False and "grated" not in b
