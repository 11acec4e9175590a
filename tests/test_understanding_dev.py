"""Understanding and reading rules found on the dev corpora's failing turns (no KB needed:
the linker is built from the names the corpora's documents give).

Every rule is shown on questions or sentences of at least two corpora; expected values are
literals from the documents:

* en-ehrensberger cheesecake.md:8 "1 ¼ cups graham cracker crumbs (or similar crumbs)",
  almond cream cake "title: Almond cream cake with topping"
* en-wbushey no-bake-energy-bites.md (No-Bake Energy Bites), pea-soup-danish.md
  "title: Danish Split Pea Soup with Dill"
* ops-govuk slack-unavailable.html.md:14 "For the equivalent of Slack's direct messages, use Google Chat."
* pagerduty different_roles.md:167-168 "Page SME's or other on-call engineers as instructed by the
  Incident Commander." / "Notify other teams within the organization (e.g. Finance, Legal, Marketing) …"
* zh-drinks lemonade.md:54 "可以用气泡水代替普通水", red-date-tea.md (红枣枸杞茶, 冰糖)
* zh-meow 回锅肉.md:5 "取五花肉或猪肩肉", 牛丼饭.md:5 "提前准备日式高汤：昆布和柴鱼片混合熬制 20 分钟。"
"""

from __future__ import annotations

import pytest

from threadgraph.bot import who
from threadgraph.bot.evidence import has_word, question_support
from threadgraph.bot.linker import Linker
from threadgraph.bot.reader import Reading, reader_text
from threadgraph.bot.understand import understand
from threadgraph.knowledge.kb import EntityName


def _linker(*names: tuple[str, str]) -> Linker:
    return Linker([EntityName(f"{t}:{n}", n, t, n, f"{n}.md" if t == "recipe" else "") for n, t in names])


RECIPES_EN = _linker(("Cheesecake", "recipe"), ("graham cracker crumb", "ingredient"), ("similar crumb", "ingredient"),
                     ("No-Bake Energy Bites", "recipe"), ("chocolate chip", "ingredient"), ("cacao nib", "ingredient"),
                     ("Danish Split Pea Soup with Dill", "recipe"), ("celery root", "ingredient"),
                     ("Almond cream cake with topping", "recipe"), ("almond", "ingredient"))
OPS = _linker(("Slack", "artifact"), ("Google Spaces", "artifact"), ("Incident Commander", "role"),
              ("Internal Liaison", "role"))
RECIPES_ZH = _linker(("柠檬水", "recipe"), ("水", "ingredient"), ("气泡水", "ingredient"), ("红枣枸杞茶", "recipe"),
                     ("冰糖", "ingredient"), ("回锅肉", "recipe"), ("五花肉", "ingredient"), ("猪肩肉", "ingredient"),
                     ("牛丼饭", "recipe"), ("昆布", "ingredient"), ("橙汁", "recipe"))


def _read(text: str, linker: Linker):
    u = understand(text, linker)
    return u.intent, sorted((m.name, m.type) for m in u.mentions), u.follow_up


# -- follow-ups that ask their own question ---------------------------------------------------------------

def test_what_about_x_with_its_own_question_is_no_elliptical_follow_up():
    intent, mentions, _ = _read("what about the graham cracker crumbs, can I use something else?", RECIPES_EN)
    assert intent == "substitute" and ("graham cracker crumb", "ingredient") in mentions
    u = understand("And what do we use for direct messages then?", OPS)
    assert u.rule != "follow/en/20" and not u.elliptical
    # a bare "and X?" still is one
    assert understand("and the cheesecake?", RECIPES_EN).rule.startswith("follow/")
    assert understand("And Slack?", OPS).rule.startswith("follow/")


def test_something_else_asks_for_a_substitute():
    assert _read("can I use something else for the graham cracker crumbs in the Cheesecake?", RECIPES_EN)[0] == "substitute"
    assert _read("chocolate chips for the No-Bake Energy Bites: can I try something else?", RECIPES_EN)[0] == "substitute"


# -- slots -------------------------------------------------------------------------------------------------

def test_recipe_named_outside_the_substitute_pattern_is_its_context():
    _, mentions, _ = _read("For the No-Bake Energy Bites, can I use cacao nibs instead of chocolate chips?", RECIPES_EN)
    assert ("No-Bake Energy Bites", "recipe") in mentions and ("chocolate chip", "ingredient") in mentions
    _, mentions, _ = _read("For the Cheesecake, can I use similar crumbs instead of graham cracker crumbs?", RECIPES_EN)
    assert ("Cheesecake", "recipe") in mentions and ("graham cracker crumb", "ingredient") in mentions


def test_how_do_i_make_x_asks_about_x_not_about_making():
    u = understand("How do I make tiramisu?", RECIPES_EN)
    assert u.intent == "steps" and [m.surface for m in u.mentions] == ["tiramisu"]
    u = understand("How do I make the Cheesecake?", RECIPES_EN)
    assert u.intent == "steps" and [m.name for m in u.mentions] == ["Cheesecake"]


def test_recipe_title_links_by_the_dish_before_with():
    assert RECIPES_EN.link("the Danish split pea soup", ("recipe",)).name == "Danish Split Pea Soup with Dill"
    assert RECIPES_EN.link("almond cream cake", ("recipe",)).name == "Almond cream cake with topping"
    # one word before "with" is no alias of its own in free text; a recipe slot still links it
    # as the only title starting with it (en-ehrensberger "title: Moqueca with fish")
    lk = _linker(("Moqueca with fish", "recipe"))
    assert lk.scan("how do I make moqueca") == []
    assert lk.link("moqueca", ("recipe",)).name == "Moqueca with fish"


# -- Chinese phrasings ---------------------------------------------------------------------------------------

def test_zh_can_y_replace_x():
    assert _read("做柠檬水可以用气泡水代替普通的水吗？", RECIPES_ZH)[:2] == ("substitute", [("柠檬水", "recipe"), ("水", "ingredient")])
    u = understand("回锅肉可以用猪肩肉代替五花肉吗？", RECIPES_ZH)
    assert u.intent == "substitute" and u.candidate is not None and u.candidate.name == "猪肩肉"
    assert sorted(m.name for m in u.mentions) == ["五花肉", "回锅肉"]


def test_zh_without_x_is_it_ok_asks_whether_x_is_required():
    assert _read("红枣枸杞茶不加冰糖可以吗？", RECIPES_ZH)[:2] == ("required", [("冰糖", "ingredient"), ("红枣枸杞茶", "recipe")])
    assert _read("回锅肉不放五花肉行吗", RECIPES_ZH)[:2] == ("required", [("五花肉", "ingredient"), ("回锅肉", "recipe")])
    assert _read("橙汁可以不兑水吗 thx", RECIPES_ZH)[:2] == ("required", [("橙汁", "recipe"), ("水", "ingredient")])


def test_zh_which_dish_uses_x():
    assert _read("哪道菜要用昆布？", RECIPES_ZH)[:2] == ("used_in", [("昆布", "ingredient")])
    assert _read("哪道菜要用冰糖", RECIPES_ZH)[:2] == ("used_in", [("冰糖", "ingredient")])


def test_zh_besides_x_what_else_is_a_substitute_question():
    assert _read("回锅肉除了五花肉还能用什么肉？", RECIPES_ZH)[:2] == ("substitute", [("五花肉", "ingredient"), ("回锅肉", "recipe")])
    assert _read("柠檬水除了气泡水还可以用什么", RECIPES_ZH)[0] == "substitute"


# -- who does X ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("question, verb", [
    ("who's supposed to page extra SMEs when the IC asks for them?", "page"),          # pagerduty
    ("During an incident, who tells Finance or Legal what's going on?", "tells"),      # pagerduty
    ("Who has to approve my Temporary Production Admin pull request?", "approve"),     # ops-govuk
    ("Who has to approve changes to the emergency banner?", "approve"),               # ops-govuk
])
def test_who_question_verb(question, verb):
    assert who.asks_who(question)
    assert who.question_verb(question) == verb


def test_who_do_i_verb_asks_for_the_object_not_the_role_acting():
    assert who.question_verb("im sick and cant do my on call shift tmrw, who do i tell") == ""             # ops-govuk
    assert who.question_verb("If my team can't resolve a technical issue, who do I talk to, and in which order?") == ""
    assert who.question_verb("There's an incident, who should we page?") == ""                            # pagerduty


def test_who_verb_groups_match_the_documents_wording():
    tell = who.verb_forms("tells")
    assert who._has_verb(tell, "Notify other teams within the organization (e.g. Finance, Legal, Marketing) as instructed by the Incident Commander.")
    assert who._has_verb(tell, "If you cannot make your shift because you’re ill, message the delivery manager and #govuk-technical-on-call Slack channel.") is False
    page = who.verb_forms("page")
    assert who._has_verb(page, "Page SME's or other on-call engineers as instructed by the Incident Commander.")
    assert who._has_verb(who.verb_forms("approve"), "You'll need to find another Engineer who's a member of the GOV.UK Production Admin GitHub Team to approve your Pull Request")
    assert not who.asks_who("What does the Scribe do?")
    assert who.question_verb("Who is responsible for completing the postmortem?") == "completing"


def test_who_section_role():
    roles = [("internal liaison", "Internal Liaison"), ("incident commander", "Incident Commander")]
    assert who.section_role("Internal Liaison > What are the responsibilities?", roles) == "Internal Liaison"
    assert who.section_role("Follow-up Actions for Response Roles > Steps for Incident Commander", roles) == "Incident Commander"
    assert who.section_role("Shift swaps, working patterns and sickness", roles) == ""


# -- passages as evidence ----------------------------------------------------------------------------------

def test_words_match_across_inflections():
    assert has_word("escalating", 'The person on "SMT escalations" should resolve the PagerDuty alert')   # ops-govuk
    assert has_word("escalating", "Escalate to GOV.UK SMT as soon as you begin to consider failing over")  # ops-govuk
    assert has_word("assigns", "The IC will assign a leader to each team")                                 # pagerduty
    assert not has_word("delete", "delegate")


def test_section_titles_count_as_passage_content():
    section = "Fail over checklist > Initial steps"  # ops-govuk fall-back-to-aws-cloudfront.html.md
    text = "1. Confirm that Fastly is the cause of the incident (check https://status.fastly.com/"
    q = "What are the initial steps of the CDN fail over checklist?"
    assert not question_support(q, text)
    assert question_support(q, f"{section}\n{text}")


# -- reader polarity ---------------------------------------------------------------------------------------

def test_reader_answers_no_to_is_it_required_for_an_optional_item():
    r = Reading("optional", "cheese", "", "Optional, mix in cheese.", "recipes/dinner/salsa-chicken-rice-casserole.md", 24, "p", "en.optional")
    assert reader_text("en", "required", [r], asks_need=True).startswith("No, cheese is optional")
    assert reader_text("en", "required", [r]).startswith("Yes, cheese is optional")
    iru = Reading("optional", "iru", "", "- Locust beans (iru, optional)", "data/recipes.json", 188, "p", "en.optional")
    assert reader_text("en", "required", [iru], asks_need=True).startswith("No, iru is optional")


# -- polarity ------------------------------------------------------------------------------------------------

def _resolved(text: str, linker: Linker):
    from threadgraph.bot.memory import ThreadState
    from threadgraph.bot.resolve import resolve

    return resolve(understand(text, linker), ThreadState())


def test_recipes_that_dont_need_x_exclude_x():
    lk = _linker(("flour", "ingredient"), ("palm oil", "ingredient"), ("Cornbread", "recipe"), ("glass baking dish", "tool"))
    q = _resolved("Which of the cookie recipes don't need any flour?", lk)          # en-ehrensberger
    assert q.intent == "exclude" and [m.name for m in q.excluded] == ["flour"] and not q.items
    q = _resolved("Which recipes don't use palm oil?", lk)                         # en-communitykitchen
    assert q.intent == "exclude" and [m.name for m in q.excluded] == ["palm oil"]
    # "I don't have X" is lacking X, not excluding it (en-wbushey cornbread.md)
    q = _resolved("I don't have a glass baking dish for the cornbread. What else can I bake it in?", lk)
    assert q.intent != "exclude"
    assert _resolved("Which recipes use palm oil?", lk).intent == "used_in"


def test_zh_dishes_of_a_kind_without_x():
    u = understand("有没有不用肉的汤？", RECIPES_ZH)                      # zh-meow (番茄蛋花汤, 紫菜蛋花汤)
    assert u.intent == "exclude" and [m.surface for m in u.excluded] == ["肉"]
    u = understand("有没有不用金酒的鸡尾酒？", _linker(("金酒", "ingredient"), ("莫吉托", "recipe")))  # zh-drinks
    assert u.intent == "exclude" and [m.name for m in u.excluded] == ["金酒"]


def test_cocktails_are_a_kind_of_drink_of_their_own():
    from threadgraph.bot.constraint_detect import _scope

    assert _scope("有没有不用金酒的鸡尾酒？", RECIPES_ZH) == ["cocktail"]      # zh-drinks drinks/cocktail/
    assert _scope("any cocktails without gin?", RECIPES_EN) == ["cocktail"]
    assert _scope("有没有不用肉的汤？", RECIPES_ZH) == ["soup"]               # zh-meow


def test_and_in_x_moves_the_question_to_recipe_x():
    lk = _linker(("Ewedu Soup (Jute Leaves Soup)", "recipe"), ("Egusi Soup", "recipe"), ("ground egusi", "ingredient"))
    u = understand("And in egusi?", lk)                                              # en-communitykitchen
    assert u.elliptical and [(m.name, m.type) for m in u.mentions] == [("Egusi Soup", "recipe")]
    u = understand("and for the cheesecake?", RECIPES_EN)                              # en-ehrensberger
    assert u.elliptical and [(m.name, m.type) for m in u.mentions] == [("Cheesecake", "recipe")]
    # two titles starting with the word: no guess
    assert _linker(("Egusi Soup", "recipe"), ("Egusi Stew", "recipe")).link("egusi", ("recipe",)).type == "unknown"


def test_whats_optional_in_x_lists_its_ingredients():
    lk = _linker(("Yam Porridge (Asaro)", "recipe"), ("Cheesecake", "recipe"))
    u = understand("whats optional in yam porrige", lk)                               # en-communitykitchen (typo)
    assert u.intent == "contains" and [m.name for m in u.mentions] == ["Yam Porridge (Asaro)"]
    assert understand("What is optional in the Cheesecake?", lk).intent == "contains"  # en-ehrensberger


def test_a_kind_of_dish_without_x_is_an_exclusion():
    lk = _linker(("Ewedu Soup (Jute Leaves Soup)", "recipe"), ("flour", "ingredient"))
    q = _resolved("Is there a soup here that I can make without any meat?", lk)      # en-communitykitchen
    assert q.intent == "exclude" and [m.surface for m in q.excluded] == ["meat"]
    q = _resolved("any cookies without flour?", lk)                                   # en-ehrensberger
    assert q.intent == "exclude" and [m.name for m in q.excluded] == ["flour"]


def test_can_i_use_y_then_proposes_y_for_the_threads_item():
    lk = _linker(("Chocolate Gingerbread", "recipe"), ("potato", "ingredient"), ("flour", "ingredient"), ("honey", "ingredient"))
    u = understand("can I use potato flour then?", lk)                                # en-wbushey
    assert u.intent == "substitute" and u.candidate is not None and u.candidate.surface == "potato flour"
    assert u.follow_up and u.mentions == []
    u = understand("can I use honey?", lk)
    assert u.candidate is not None and u.candidate.name == "honey" and u.mentions == []


# -- answers cut inside a list ---------------------------------------------------------------------------------

def test_an_excerpt_that_stops_inside_a_list_finishes_it():
    from threadgraph.bot.compose import excerpt

    # ops-govuk fall-back-to-mirror.html.md:115-119
    text = ("When the origin is unavailable:\n"
            "1. Fastly first attempts to serve the page from the primary S3 mirror (eu-west-2)\n"
            "2. If that fails, it tries the secondary S3 replica (eu-west-1, production only)\n"
            "3. As a final fallback, it attempts the tertiary GCS mirror")
    got = excerpt(text, "When Fastly can't reach our origin, which mirrors does it try, in which order?", 200)
    assert "tertiary GCS mirror" in got and got.startswith("When the origin is unavailable:")
    # zh-drinks lemonade.md:52-55, the same way
    text = "## 进阶技巧\n- 尝试添加其他水果\n- 可以用气泡水代替普通水\n- 制作柠檬冰块提前准备"
    got = excerpt(text, "尝试添加其他水果", 12)
    assert got.startswith("- 尝试添加其他水果") and "制作柠檬冰块提前准备" in got


def test_an_excerpt_starting_at_a_later_step_starts_at_the_first():
    from threadgraph.bot.compose import excerpt

    # ops-govuk fall-back-to-aws-cloudfront.html.md:28-30
    text = ("1. Confirm that Fastly is the cause of the incident (check https://status.fastly.com/ and keep an eye on X)\n"
            "2. Escalate to GOV.UK SMT as soon as you begin to consider failing over\n"
            "3. Sign in to the AWS console as a fulladmin in the appropriate environment")
    assert excerpt(text, "escalate SMT failing over", 400).startswith("1. Confirm that Fastly is the cause")
    # zh-meow 回锅肉.md:5-9 (numbered steps)
    text = "1. 取五花肉或猪肩肉，热锅小火猪皮朝下在锅上烙猪皮至金黄\n2. 洗净猪肉切成两指宽条。\n3. 冷水焯肉，水里加葱段、花椒、姜片、料酒，煮三十分钟"
    assert excerpt(text, "猪肉切成几指宽的条", 400).startswith("1. 取五花肉或猪肩肉")


def test_zh_without_x_what_can_i_use_stays_a_substitute_question():
    lk = _linker(("腌笃鲜", "recipe"), ("猪蹄", "ingredient"), ("红枣枸杞茶", "recipe"), ("冰糖", "ingredient"))
    assert _read("腌笃鲜不用猪蹄可以用什么肉？", lk)[0] == "substitute"               # zh-meow
    assert _read("红枣枸杞茶不加冰糖可以用什么代替", lk)[0] == "substitute"          # zh-drinks
    assert _read("红枣枸杞茶不加冰糖可以吗", lk)[0] == "required"


def test_a_list_item_of_several_sentences_does_not_end_the_list():
    from threadgraph.bot.compose import excerpt

    # ops-govuk ownership-meaning.html.md:13-16 (the first item runs over three sentences)
    text = ("The owner of an application is responsible for:\n"
            "- keeping its code up to date (eg dependency updates and Rails/Ruby upgrades etc), in line with our policy on "
            "keeping software current. This includes monitoring relevant CVEs and making informed decisions, taking into "
            "account any risk, on when to upgrade. The relevant team should be marked as owner in this configuration file, "
            "which is used to render the list of all GOV.UK repositories.\n"
            "- Sentry alerts. The relevant team will ideally set up Slack alerting")
    assert "Sentry alerts" in excerpt(text, "What is the owner of a GOV.UK application responsible for?", 200)
    # pagerduty complex_incidents.md:40-42, an item followed by its sub-items
    text = ("1. The IC will assign a leader to each team who will report to them directly. All other team members will "
            "report to their team leader.\n"
            "* When assigning a team leader, the IC will also designate which team name they fall under (Alpha, Bravo, or Charlie).\n"
            "* Team leaders do not have to be trained as Incident Commanders; however, some leadership experience would be prudent.")
    assert "do not have to be trained" in excerpt(text, "who assigns a leader to each team", 120)
