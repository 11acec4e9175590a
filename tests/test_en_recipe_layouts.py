"""A recipe is a recipe whatever its layout (issue 10, "Read every part of a document"): English recipes written
in the layouts people use on GitHub — a Markdown heading, a bold line, a plain "Ingredients:" line, pasted "•"
bullets, lines with hard breaks, a table, front matter, a plain-text file, no ingredients heading at all — each
become a recipe with its ingredients, their optional marks and stand-ins; pages that are no recipe (an ops
runbook's "Steps:", a README's "What you'll need:") stay documents. The recipes are written for these tests."""

from __future__ import annotations

import pytest

from threadgraph.ingest.readers.markdown import label_headings, parse_markdown
from conftest import contains_required, mini_corpus, sub_pairs

STEPS = "1. Mix everything together.\n2. Bake for 20 minutes.\n"

#: name → (file, text, recipe name, {ingredient: required})
LAYOUTS = {
    "atx": ("tomato-soup.md", "# Tomato Soup\n\n## Ingredients\n\n- 4 tomatoes\n- 1 onion\n\n## Method\n\n" + STEPS,
            "Tomato Soup", {"tomato": True, "onion": True}),
    "atx_colon_count": ("chili.md", "# Chili\n\n### Ingredients (serves 4):\n\n- 500 g ground beef\n- 1 can kidney beans\n\n"
                        "### Directions:\n\n" + STEPS, "Chili", {"ground beef": True, "kidney bean": True}),
    "bold": ("guac.md", "# Guacamole\n\n**Ingredients**\n\n- 2 avocados\n- 1 lime\n\n**Instructions**\n\n" + STEPS,
             "Guacamole", {"avocado": True, "lime": True}),
    "underscore_bold": ("hummus.md", "# Hummus\n\n__Ingredients__\n\n- 1 can chickpeas\n- 2 tbsp tahini\n\n"
                        "__Preparation__\n\n1. Drain the chickpeas.\n2. Blend until smooth.\n",
                        "Hummus", {"chickpea": True, "tahini": True}),
    "emoji": ("smoothie.md", "# Banana Smoothie\n\n## 🥕 Ingredients\n\n- 2 bananas\n- 250 ml milk\n\n## 👩‍🍳 Steps\n\n" + STEPS,
              "Banana Smoothie", {"banana": True, "milk": True}),
    "plain_label": ("fried-rice.md", "# Fried Rice\n\nIngredients:\n\n- 2 cups cooked rice\n- 2 eggs\n- 1 jalapeno (optional)\n\n"
                    "Directions:\n\n1. Scramble the eggs.\n2. Add the rice and fry.\n",
                    "Fried Rice", {"cooked rice": True, "egg": True, "jalapeno": False}),
    "plain_label_tight": ("egg-salad.md", "# Egg Salad\n\nIngredients:\n- 4 eggs\n- 2 tbsp mayonnaise\n\nSteps:\n"
                          "1. Boil the eggs for 10 minutes.\n2. Mash with the mayonnaise.\n",
                          "Egg Salad", {"egg": True, "mayonnaise": True}),
    "you_will_need_plain": ("flapjacks.md", "# Flapjacks\n\nYou will need:\n\n- 250 g oats\n- 125 g butter\n\nMethod:\n\n"
                            "1. Melt the butter.\n2. Stir in the oats and bake.\n",
                            "Flapjacks", {"oat": True, "butter": True}),
    "pasted_bullets": ("tzatziki.md", "# Tzatziki\n\nIngredients\n\n• 1 cucumber\n• 250 g greek yogurt\n• 1 clove garlic\n\n"
                       "Method\n\n1. Grate the cucumber.\n2. Mix with the yogurt.\n",
                       "Tzatziki", {"cucumber": True, "greek yogurt": True, "garlic": True}),
    "hard_breaks": ("vinaigrette.md", "# Vinaigrette\n\n## Ingredients\n\n3 tbsp olive oil  \n1 tbsp vinegar  \n1 tsp mustard\n\n"
                    "## Method\n\nWhisk everything together.\n",
                    "Vinaigrette", {"olive oil": True, "vinegar": True, "mustard": True}),
    "mise_en_place": ("carbonara.md", "# Carbonara\n\n## Mise en place\n\n- 200 g spaghetti\n- 100 g guanciale\n\n"
                      "## Cooking\n\n1. Boil the spaghetti.\n2. Fry the guanciale.\n",
                      "Carbonara", {"spaghetti": True, "guanciale": True}),
    "table": ("brownies.md", "# Brownies\n\n## Ingredients\n\n| Ingredient | Amount |\n|---|---|\n| butter | 200 g |\n"
              "| sugar | 250 g |\n| cocoa powder | 80 g |\n\n## Method\n\n" + STEPS,
              "Brownies", {"butter": True, "sugar": True, "cocoa powder": True}),
    "front_matter": ("shakshuka.md", "---\ntitle: Shakshuka\ningredients:\n  - 4 eggs\n  - 1 onion\n  - feta cheese (optional)\n"
                     "---\n\n## Method\n\n" + STEPS, "Shakshuka", {"egg": True, "onion": True, "feta cheese": False}),
    "section_h1s": ("steamed-rice.md", "# Ingredients\n\n- 2 cups rice\n- 3 cups water\n\n# Directions\n\n" + STEPS,
                    "steamed-rice", {"rice": True, "water": True}),
    "recipe_prefix": ("bread.md", "# Recipe: Banana Bread\n\nIngredients\n\n- 3 ripe bananas\n- 250 g flour\n\nInstructions\n\n"
                      + STEPS, "Banana Bread", {"ripe banana": True, "flour": True}),
    "no_heading": ("omelette.md", "# Cheese Omelette\n\nA quick breakfast for one.\n\n- 3 eggs\n- 30 g grated cheddar\n"
                   "- 1 knob of butter\n\n1. Beat the eggs.\n2. Melt the butter and pour in the eggs.\n",
                   "Cheese Omelette", {"egg": True, "grated cheddar": True, "butter": True}),
    "inline_bold_label": ("pesto.md", "# Pesto\n\n**Ingredients:** 2 cups basil, 50 g pine nuts, 1 clove garlic and 100 ml "
                          "olive oil\n**Method:** Blend everything until smooth.\n",
                          "Pesto", {"basil": True, "pine nut": True, "garlic": True, "olive oil": True}),
    "inline_need_label": ("crepes.md", "# Crepes\n\nYou will need: 2 eggs, 1 cup flour, 1 cup milk and a pinch of salt.\n\n"
                          "1. Whisk.\n2. Fry thin.\n", "Crepes", {"egg": True, "flour": True, "milk": True, "salt": True}),
    "table_then_plain_steps": ("sangria.md", "# Sangria\n\n| Ingredient | Qty |\n|---|---|\n| red wine | 1 bottle |\n"
                               "| oranges | 2 |\n| brandy (optional) | 50 ml |\n\nSteps:\n\n1. Slice the oranges.\n2. Chill.\n",
                               "Sangria", {"red wine": True, "orange": True, "brandy": False}),
    "label_items": ("nachos.md", "# Nachos\n\n- Ingredients\n  - 1 bag tortilla chips\n  - 200 g cheddar\n  - 1 jalapeno "
                    "(optional)\n- Steps\n  - Spread the chips on a tray.\n  - Cover with cheese and bake.\n",
                    "Nachos", {"tortilla chip": True, "cheddar": True, "jalapeno": False}),
    "table_what_how_much": ("hot-chocolate.md", "# Hot Chocolate\n\n## You will need\n\n| What | How much |\n|---|---|\n"
                            "| milk | 250 ml |\n| dark chocolate | 40 g |\n\n## Method\n\n1. Heat the milk.\n",
                            "Hot Chocolate", {"milk": True, "dark chocolate": True}),
    "details_summary": ("ramen-egg.md", "# Ramen Egg\n\n<details>\n<summary>Ingredients</summary>\n\n- 4 eggs\n"
                        "- 100 ml soy sauce\n\n</details>\n\n## Steps\n\n1. Boil the eggs.\n",
                        "Ramen Egg", {"egg": True, "soy sauce": True}),
    "code_block": ("bread.md", "# Bread\n\n## Ingredients\n\n```\n500 g flour\n350 ml water\n10 g salt (optional)\n```\n\n"
                   "## Method\n\n1. Knead.\n", "Bread", {"flour": True, "water": True, "salt": False}),
    "html_line_breaks": ("toast.md", "# French Toast\n\n## Ingredients\n\n2 eggs<br>4 slices bread<br/>\n100 ml milk\n\n"
                         "## Method\n\n1. Soak the bread.\n", "French Toast", {"egg": True, "bread": True, "milk": True}),
    "plain_text": ("carrot-cake.txt", "Carrot Cake\n\nIngredients:\n2 cups flour\n3 carrots, grated\n1 cup sugar\n\n"
                   "Directions:\n1. Mix the dry ingredients.\n2. Fold in the carrots.\n3. Bake for 40 minutes.\n",
                   "Carrot Cake", {"flour": True, "carrot": True, "sugar": True}),
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_each_layout_is_a_recipe_with_its_ingredients(tmp_path, layout):
    fname, text, recipe, expected = LAYOUTS[layout]
    ex = mini_corpus(tmp_path, {fname: text})
    got = contains_required(ex, recipe)
    assert got == {k: v for k, v in expected.items()}, (layout, got)


def test_stand_ins_are_anchored_in_the_new_layouts(tmp_path):
    ex = mini_corpus(tmp_path, {
        "stir-fry.md": "# Stir Fry\n\nIngredients:\n\n- 200 g chicken (or tofu)\n- 1 bell pepper\n\nSteps:\n\n" + STEPS,
        "pesto.md": "# Pesto\n\n**Ingredients:** 2 cups basil, 50 g pine nuts (or walnuts), 1 clove garlic\n",
        "salsa.txt": "Salsa\n\nIngredients:\n4 tomatoes\n1 bunch cilantro, or parsley\n1 red onion\n\nDirections:\n" + STEPS,
        "muffins.md": "# Muffins\n\n| Amount | Ingredient | Notes |\n|---|---|---|\n| 250 g | flour | |\n| 100 g | sugar | or honey |\n"
                      "| 50 g | blueberries | optional |\n\n## Instructions\n\n" + STEPS})
    subs = sub_pairs(ex)
    assert ("chicken", "tofu") in subs
    assert ("coriander", "parsley") in subs  # "cilantro" is linked to its canonical name
    assert ("sugar", "honey") in subs
    assert ("pine nut", "walnut") in subs
    assert contains_required(ex, "Muffins")["blueberry"] is False


def test_a_plain_label_line_becomes_a_heading_only_in_a_recipe_layout():
    md = "# Fried Rice\n\nIngredients:\n\n- 2 cups cooked rice\n\nDirections:\n1. Fry.\n\n```\nNotes:\n```\n"
    out = label_headings(md)
    assert out.split("\n")[2] == "## Ingredients" and out.split("\n")[6] == "## Directions"
    assert "```\nNotes:\n```" in out  # code is left alone
    assert len(out.split("\n")) == len(md.split("\n"))  # line for line
    # an ops runbook's "Steps:" and "Notes:" with no ingredients line: unchanged
    ops = "# Rotate the keys\n\nSteps:\n\n1. Open the console.\n2. Rotate the key.\n\nNotes:\n\nAsk the on-call engineer.\n"
    assert label_headings(ops) == ops
    blocks, h1, _ = parse_markdown(label_headings(md))
    assert h1 == "Fried Rice"
    assert [b.path for b in blocks if b.kind == "item"] == [("Ingredients",), ("Directions",)]


def test_a_summary_that_names_no_section_stays_text():
    md = "# Runbook\n\n<details>\n<summary>Click to expand</summary>\n\n- restart the pod\n\n</details>\n"
    blocks, _, _ = parse_markdown(md)
    assert [b.text for b in blocks if b.kind == "heading"] == ["Runbook"]


def test_pages_that_are_no_recipe_stay_documents(tmp_path):
    ex = mini_corpus(tmp_path, {
        # an ops runbook: plain "Steps:" and a numbered list
        "rotate.md": "# Rotate the keys\n\nSteps:\n\n1. Open the console.\n2. Rotate the key.\n\nNotes:\n\nAsk on-call.\n",
        # a README listing what a developer needs, then the install steps
        "README.md": "# Widget\n\nWhat you'll need:\n\n- Python 3.11 or newer\n- a GitHub account\n- Docker\n\nInstall:\n\n"
                     "1. Clone the repository.\n2. Run make install.\n",
        # a capacity plan whose first list starts with numbers
        "capacity.md": "# Capacity plan\n\n- 3 replicas of the API\n- 2 GB memory per pod\n- 1 load balancer\n\n"
                       "1. Scale the deployment.\n2. Check the dashboards.\n",
        # a README whose "What you'll need" section is a sentence
        "CONTRIBUTING.md": "# Contributing\n\n## What you'll need\n\nA laptop and a GitHub account.\n\n## Steps\n\n1. Clone.\n",
        # an onboarding page: "You will need:" over things no cook measures
        "onboarding.md": "# Onboarding\n\nYou will need: a laptop, a GitHub account, and access to the VPN.\n\n"
                         "1. Ask IT.\n2. Log in.\n",
        # an inventory table ("Item | Qty") and plain "Steps:"
        "rack.md": "# Rack build\n\n| Item | Qty |\n|---|---|\n| server | 4 |\n| switch | 2 |\n| cable | 50 |\n\n"
                   "Steps:\n\n1. Mount the servers.\n2. Cable the switch.\n",
        # a blog post that mentions ingredients in passing
        "about.md": "# About us\n\nWe are a small team who love cooking with fresh ingredients.\n\n- Founded in 2019\n"
                    "- Based in Leeds\n",
    })
    assert not [e for e in ex.entities.values() if e.type == "recipe"]


def test_an_untitled_readme_is_named_by_its_folder(tmp_path):
    body = "## Ingredients\n\n- 3 ripe bananas\n- 250 g flour\n\n## Method\n\n1. Bake for an hour.\n"
    for folder in ("banana-bread", "pancakes"):
        (tmp_path / "c" / folder).mkdir(parents=True)
    ex = mini_corpus(tmp_path, {"banana-bread/README.md": body, "pancakes/README.md": body.replace("bananas", "eggs")})
    recipes = {e.name: e.aliases for e in ex.entities.values() if e.type == "recipe"}
    assert set(recipes) == {"banana-bread", "pancakes"}  # two recipes, not one "README"
    assert "banana bread" in recipes["banana-bread"]

