"""The conversation core over a real KB: every intent in Chinese and English,
follow-ups from thread memory (also across separate CLI invocations), thread
switching, not-found answers, the JSON contract, memory persistence."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from conftest import CORPORA, TINY_MODEL, TINY_NAME, doc_lines

KUNGPAO = "howtocook/dishes/meat_dish/宫保鸡丁/宫保鸡丁.md"


def _names(ans) -> set[str]:
    return {f.subject for f in ans.facts} | {f.object for f in ans.facts}


def test_substitute_zh_in_recipe_context(ask):
    a = ask("宫保鸡丁没有手枪腿用什么代替？")
    assert a.found and a.intent == "substitute" and a.language == "zh"
    assert "鸡胸肉" in a.answer
    sub = [f for f in a.facts if f.relation == "SUBSTITUTES"]
    assert sub and sub[0].properties["context"] == "recipe:宫保鸡丁"
    assert sub[0].source.doc == KUNGPAO and sub[0].source.line > 0
    # the cited line really holds the alternative
    line = (CORPORA / KUNGPAO).read_text(encoding="utf-8").splitlines()[sub[0].source.line - 1]
    assert "鸡胸脯肉" in line


def test_substitute_never_invents(ask):
    a = ask("宫保鸡丁没有大葱用什么代替？")
    # the recipe records no alternative for its scallion: no SUBSTITUTES fact may be cited for it in this recipe
    here = [f for f in a.facts if f.relation == "SUBSTITUTES" and f.properties.get("context") == "recipe:宫保鸡丁"]
    assert not here
    if not a.found:
        assert "没有" in a.answer


def test_stand_in_en(ask):
    a = ask("Who can stand in for the Incident Commander?")
    assert a.found and a.intent == "stand_in" and a.language == "en"
    assert "Deputy" in a.answer
    assert all(f.relation == "SUBSTITUTES" for f in a.facts)


def test_stand_in_with_condition(ask):
    a = ask("who can cover for the Scribe?")
    assert a.found and "Deputy" in a.answer and "small" in a.answer


def test_contains_zh_required_and_optional(ask):
    a = ask("宫保鸡丁需要哪些原料？")
    assert a.found and a.intent == "contains"
    req = {f.object: f.properties.get("required") for f in a.facts}
    assert req.get("大葱") is True and req.get("莴笋") is False
    assert "大葱" in a.answer and "可选" in a.answer


def test_used_in_zh_includes_variants(ask):
    a = ask("哪些菜用到花生？")
    assert a.found and a.intent == "used_in"
    assert "宫保鸡丁" in a.answer  # through 熟花生 / 生花生
    assert "花生" in {f.object[-2:] for f in a.facts}
    # forms written after the name: 凉粉.md:22 "- 花生碎", 烤鱼.md:29 "- 熟花生米", 皮蛋豆腐.md:18 "- 花生碎（可选）"
    assert {"凉粉", "烤鱼", "皮蛋豆腐"} <= {f.subject for f in a.facts}


def test_shared_ingredients(ask):
    a = ask("宫保鸡丁和鱼香肉丝有哪些共同的原料？")
    assert a.found and a.intent == "shared"
    subjects = {f.subject for f in a.facts}
    assert subjects == {"宫保鸡丁", "鱼香肉丝"}
    # every shared item is cited from both recipes, under the name each writes (大葱 in one,
    # 葱 in the other, for one shared item listed as "葱 / 大葱")
    by = {s: [f.object for f in a.facts if f.subject == s] for s in subjects}
    assert len(by["宫保鸡丁"]) == len(by["鱼香肉丝"]) > 0
    assert "料酒" in by["宫保鸡丁"] and "料酒" in by["鱼香肉丝"]


def test_required_or_optional(ask):
    a = ask("西红柿炒鸡蛋一定要放糖吗？")
    assert a.found and a.intent == "required"
    assert a.facts[0].properties["required"] is False
    assert "可选" in a.answer


def test_required_en(ask):
    a = ask("Is 大葱 required in 宫保鸡丁?")
    assert a.found and a.intent == "required" and a.facts[0].properties["required"] is True


def test_exclude_lists_only_recipes_without_it(ask, kb_dir):
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    a = ask("不用鸡蛋的菜有哪些？")
    assert a.found and a.intent == "exclude"
    listed = {f.subject for f in a.facts}
    assert listed
    g = GraphStore(current_build(kb_dir) / "graph.kuzu", read_only=True)
    with_egg = {r["n"] for r in g.query(
        "MATCH (r:Entity)-[:CONTAINS]->(i:Entity) WHERE i.name = '鸡蛋' RETURN r.name AS n")}
    g.close()
    assert with_egg and not (listed & with_egg)


def test_responsibility_en(ask):
    a = ask("What does the Scribe do?")
    assert a.found and a.intent == "responsibility"
    assert "recorded" in a.answer  # "Ensure the incident call is being recorded." (different_roles.md)


def test_steps_recipe_from_passages(ask):
    a = ask("宫保鸡丁怎么做？")
    assert a.found and a.intent == "steps"
    assert a.passages and a.passages[0].doc == KUNGPAO and "操作" in a.passages[0].section


def test_general_question_from_passages(ask):
    a = ask("What is a postmortem for?")
    assert a.found and a.passages
    assert any("postmortem" in p.text.lower() for p in a.passages)


def test_not_found_for_absent_dish(ask):
    a = ask("佛跳墙怎么做？")
    assert not a.found and not a.facts
    assert "没有" in a.answer
    assert any(e.name == "佛跳墙" and e.type == "unknown" for e in a.entities)


def test_not_found_in_english(ask):
    a = ask("Who can stand in for the Chief Astronaut?")
    assert not a.found and "no evidence" in a.answer.lower()


def test_follow_up_switches_dish_keeps_question(ask):
    ask("宫保鸡丁需要哪些原料？", thread="sw")
    b = ask("那鱼香肉丝呢？", thread="sw")
    assert b.intent == "contains" and b.found
    assert {f.subject for f in b.facts} == {"鱼香肉丝"}


def test_follow_up_keeps_recipe_changes_ingredient(ask):
    ask("宫保鸡丁没有手枪腿用什么代替？", thread="fu")
    b = ask("那干辣椒呢？", thread="fu")
    assert b.intent == "substitute" and b.found
    assert "二荆条" in b.answer  # 干辣椒（或者二荆条） in the same recipe


def test_follow_up_pronoun_en(ask):
    ask("Who can stand in for the Scribe?", thread="p")
    b = ask("What does it do?", thread="p")
    assert b.intent == "responsibility" and any(e.name == "Scribe" for e in b.entities)


def test_follow_up_three_turns(ask):
    ask("who can stand in for the Incident Commander?", thread="three")
    ask("and the Scribe?", thread="three")
    c = ask("what about the Internal Liaison?", thread="three")
    assert c.intent == "stand_in" and c.found and "Deputy" in c.answer


def test_threads_do_not_share_memory(ask):
    ask("宫保鸡丁需要哪些原料？", thread="a")
    b = ask("那干辣椒呢？", thread="b")
    assert not any(e.name == "宫保鸡丁" for e in b.entities)


def test_reset_forgets_the_thread(bot, ask):
    from threadgraph.bot.message import ThreadKey

    ask("宫保鸡丁需要哪些原料？", thread="r")
    bot.reset(ThreadKey(platform="test", thread="r"))
    b = ask("那干辣椒呢？", thread="r")
    assert not any(e.name == "宫保鸡丁" for e in b.entities)


def test_memory_expires_after_ttl(tmp_path):
    import time

    from threadgraph.bot.memory import ThreadMemory, ThreadState

    m = ThreadMemory(tmp_path / "m.sqlite", ttl_s=0.2)
    st = ThreadState(last_intent="contains")
    m.save("k", st)
    assert m.load("k").last_intent == "contains"
    time.sleep(0.3)
    assert m.load("k").last_intent is None


def test_concurrent_threads_keep_their_own_memory(bot):
    from threadgraph.bot.message import IncomingMessage, ThreadKey

    dishes = ["宫保鸡丁", "鱼香肉丝", "西红柿炒鸡蛋", "可乐鸡翅"]
    errors: list[str] = []

    def run(i: int) -> None:
        key = ThreadKey(platform="test", thread=f"c{i}")
        dish = dishes[i % len(dishes)]
        bot.answer(IncomingMessage(thread=key, text=f"{dish}需要哪些原料？"))
        a = bot.answer(IncomingMessage(thread=key, text="它怎么做？"))
        if not any(e.name == dish for e in a.entities):
            errors.append(f"thread {i}: {dish} not remembered: {[e.name for e in a.entities]}")

    ts = [threading.Thread(target=run, args=(i,)) for i in range(16)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors


def test_answer_json_contract(ask):
    a = ask("宫保鸡丁没有手枪腿用什么代替？")
    d = json.loads(a.model_dump_json())
    assert set(d) >= {"thread", "question", "intent", "found", "answer", "entities", "facts", "passages", "follow_ups"}
    f = d["facts"][0]
    assert set(f) >= {"id", "subject", "relation", "object", "properties", "source"}
    assert set(f["source"]) >= {"doc", "section", "line"}
    assert f["id"].startswith("f-") and len(f["id"]) == 18
    p = d["passages"][0]
    assert set(p) >= {"id", "doc", "section", "text", "score"}


def test_fact_ids_are_stable_across_questions(ask):
    a = ask("宫保鸡丁没有手枪腿用什么代替？", thread="s1")
    b = ask("宫保鸡丁没有手枪腿用什么代替？", thread="s2")
    assert [f.id for f in a.facts] == [f.id for f in b.facts]


def _cli(args, kb_dir):
    env = dict(os.environ, HF_HUB_OFFLINE="1", THREADGRAPH_EMBEDDING_MODEL=TINY_NAME,
               THREADGRAPH_EMBEDDING_MODEL_PATH=str(TINY_MODEL))
    return subprocess.run([sys.executable, "-m", "threadgraph.cli", *args, "--data-dir", str(kb_dir)],
                          env=env, capture_output=True, text=True, timeout=120)


def test_follow_up_across_separate_ask_invocations(kb_dir):
    r1 = _cli(["ask", "宫保鸡丁没有手枪腿用什么代替？", "--thread", "cli-fu-1", "--json"], kb_dir)
    assert r1.returncode == 0, r1.stderr
    r2 = _cli(["ask", "那干辣椒呢？", "--thread", "cli-fu-1", "--json"], kb_dir)
    assert r2.returncode == 0, r2.stderr
    a2 = json.loads(r2.stdout)
    assert a2["intent"] == "substitute" and "二荆条" in a2["answer"]


def test_ask_jsonl_in_order_and_bad_lines(kb_dir):
    env = dict(os.environ, HF_HUB_OFFLINE="1", THREADGRAPH_EMBEDDING_MODEL=TINY_NAME,
               THREADGRAPH_EMBEDDING_MODEL_PATH=str(TINY_MODEL))
    lines = "\n".join([
        json.dumps({"thread": "j1", "text": "宫保鸡丁需要哪些原料？"}, ensure_ascii=False),
        "not json",
        json.dumps({"thread": "j1", "text": "那鱼香肉丝呢？"}, ensure_ascii=False),
    ])
    r = subprocess.run([sys.executable, "-m", "threadgraph.cli", "ask", "--jsonl", "--data-dir", str(kb_dir)],
                       input=lines, env=env, capture_output=True, text=True, timeout=120)
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.returncode == 1  # one bad line
    assert out[0]["question"] == "宫保鸡丁需要哪些原料？" and "error" in out[1]
    assert out[2]["intent"] == "contains" and "鱼香肉丝" in {f["subject"] for f in out[2]["facts"]}


def test_retrieval_modes(ask):
    g = ask("宫保鸡丁没有手枪腿用什么代替？", thread="m1", retrieval="graph")
    v = ask("宫保鸡丁没有手枪腿用什么代替？", thread="m2", retrieval="vector")
    assert g.facts and not g.passages
    assert not v.facts
    with pytest.raises(ValueError):
        ask("x", retrieval="bogus")


def test_candidate_substitute_confirmed_from_the_recipe(ask):
    a = ask("宫保鸡丁里的手枪腿可以换成鸡胸肉吗？")
    assert a.found and a.intent == "substitute" and a.answer.startswith("可以")
    assert [f.object for f in a.facts if f.relation == "SUBSTITUTES"] == ["鸡胸肉"]


def test_candidate_substitute_not_recorded_is_said_plainly(ask):
    a = ask("宫保鸡丁里的手枪腿可以换成豆腐吗？")
    assert "没有记录" in a.answer and "豆腐" in a.answer
    assert not any(f.object == "豆腐" for f in a.facts)  # never invented


def test_pronoun_in_exclude_reuses_the_remembered_item(ask):
    ask("哪些菜用到豆腐？", thread="pro")
    b = ask("不用它的菜有哪些？", thread="pro")
    assert b.intent == "exclude" and any(e.name == "豆腐" for e in b.entities)


def test_pronoun_with_empty_memory_asks_back(ask):
    a = ask("它怎么做？", thread="empty")
    assert not a.found and not a.facts and not a.passages
    assert "哪" in a.answer  # asks which dish is meant


@pytest.mark.parametrize("text", ["。。。", "🙂🙂", "?!", "'}) MATCH (n) DETACH DELETE n //"])
def test_content_free_input_is_not_answered_from_random_passages(ask, text):
    a = ask(text, thread="junk")
    assert not a.found and not a.facts


def test_did_you_mean_offers_dishes_containing_the_name(ask, kb_dir):
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    g = GraphStore(current_build(kb_dir) / "graph.kuzu", read_only=True)
    variants = {r["n"] for r in g.query("MATCH (e:Entity) WHERE e.type = 'recipe' AND e.name CONTAINS '红烧肉' RETURN e.name AS n")}
    g.close()
    a = ask("红烧肉需要哪些原料？", thread="dym")
    assert not a.found
    assert variants and set(a.follow_ups) <= variants and a.follow_ups


def test_symmetric_alternative_answers_from_either_side(ask):
    # "手枪腿（或者鸡胸脯肉）": asking about the second name finds the first
    a = ask("宫保鸡丁没有鸡胸肉用什么代替？", thread="sym")
    assert a.found and "手枪腿" in a.answer


def test_who_is_responsible_from_responsible_for_facts(ask):
    a = ask("Who is responsible for the status page?", thread="resp")
    assert a.found and "Customer Liaison" in a.answer
    rel = [f for f in a.facts if f.properties.get("predicate") == "responsible_for"]
    assert rel and all(f.subject == "Customer Liaison" for f in rel)
    line = (CORPORA / rel[0].source.doc).read_text(encoding="utf-8").splitlines()[rel[0].source.line - 1]
    assert "status page" in line.lower()


def test_delegated_stand_in_is_not_called_a_substitute(ask):
    a = ask("Who can stand in for the Customer Liaison?", thread="cl")
    assert a.found
    assert "delegates" in a.answer  # the IC appoints somebody; the IC does not post
    assert not any(f.relation == "SUBSTITUTES" and f.object == "Incident Commander" for f in a.facts)


def test_steps_after_an_incident_grouped_by_role(ask):
    a = ask("What are the steps after an incident?", thread="after")
    assert a.found and a.intent == "steps"
    assert "Steps for Incident Commander:" in a.answer and "Steps for Scribe:" in a.answer
    assert {f.source.doc.rsplit("/", 1)[-1] for f in a.facts} == {"after_an_incident.md"}


def test_role_steps_in_one_phase(ask):
    a = ask("What are the steps for the Scribe during an incident?", thread="during")
    assert a.found and all(f.subject == "Steps for Scribe" for f in a.facts)
    assert {f.source.doc.rsplit("/", 1)[-1] for f in a.facts} == {"during_an_incident.md"}


def test_definition_question_prefers_the_defining_passage(ask):
    a = ask("What is a SEV-1 incident?", thread="def")
    assert a.found and a.passages
    first = a.passages[0].text
    assert "SEV-1" in first and "critical" in first.lower()


@pytest.mark.parametrize("text, recipe, item, required", [
    ("台式卤肉饭的鸡蛋是必须的吗", "台式卤肉饭", "鸡蛋", False),  # lazy split 台 / 式卤肉饭的鸡蛋 repaired
    ("水煮玉米盐是必须放的吗？", "水煮玉米", "盐", True),  # a one-character ingredient after the dish
    ("咸肉菜饭的冬笋可以不放吗？", "咸肉菜饭", "冬笋", False),
])
def test_required_phrasings_link_dish_and_item(ask, text, recipe, item, required):
    a = ask(text, thread="req-" + recipe)
    assert a.intent == "required" and a.found
    f = a.facts[0]
    assert (f.subject, f.object, f.properties["required"]) == (recipe, item, required)


def test_unknown_dish_is_kept_not_replaced_by_a_letter_inside_it(ask):
    # no recipe is called 红烧肉; several are kinds of it (南派红烧肉, 徽派红烧肉 …): the answer is over
    # those, never about the single character 肉 inside the name
    a = ask("红烧肉可以不放糖吗？", thread="hsr")
    assert a.intent == "required"
    assert "南派红烧肉" in a.answer and "徽派红烧肉" in a.answer
    assert not any(e.name == "肉" for e in a.entities)


def test_generic_other_is_not_a_candidate(ask):
    a = ask("肉蟹煲的料酒能换成别的吗？", thread="crab")
    assert a.found and a.intent == "substitute"
    assert any(f.relation == "SUBSTITUTES" and f.properties.get("context_name") == "肉蟹煲" for f in a.facts)


def test_plural_role_and_phase_steps(ask):
    a = ask("What are the steps for the SMEs after an incident?", thread="sme")
    assert a.found and a.facts and all("Subject Matter Expert" in f.subject for f in a.facts)


def test_glossary_term_defined_from_its_own_section(ask):
    a = ask("what do you mean by a grenade thrower?", thread="gt")
    assert a.found and a.passages[0].section.endswith("Grenade Thrower")


def test_absent_capitalised_role_is_not_found(ask):
    a = ask("What are the duties of the Safety Officer?", thread="so")
    assert not a.found


def test_generic_who_question_is_not_read_as_a_role_description(ask):
    a = ask("Who has to sign off on a status page post before it goes out?", thread="who")
    assert a.intent == "general"
    # the status-page owner is not the answer to a sign-off question
    assert not any(f.properties.get("predicate") == "responsible_for" for f in a.facts)


def test_passage_excerpt_starts_at_the_matching_sentence():
    from threadgraph.bot.compose import focused_snippet

    text = "Intro sentence about nothing. Another filler line. SEV-5 issues get a JIRA ticket. Trailing words."
    assert focused_snippet(text, "How do we handle a SEV-5?", 80).startswith("SEV-5 issues get a JIRA ticket")
    assert focused_snippet(text, "", 80).startswith("Intro sentence")


def test_identifier_in_question_must_appear_in_the_top_passage(ask):
    a = ask("How do we handle a SEV-5?", thread="sev5")
    assert a.found and "SEV-5" in a.passages[0].text
    assert "SEV-5" in a.answer.split("\n")[0]  # answer first: the excerpt starts at the matching row


def test_stand_in_written_by_abbreviation_and_full_name_is_listed_once(ask):
    # incident_response.md:936 "handover to another IC"; incident_commander.md:224
    # "transferring command to another Incident Commander": one stand-in, written two ways
    a = ask("Who can stand in for the Incident Commander?", thread="ic-once")
    assert a.answer.count("another Incident Commander") == 1
    assert "another IC" not in a.answer
    # line 936's condition ("If you absolutely are the only person …") belongs to that sentence
    # only: line 224 states the same stand-in without it, so the merged stand-in shows none
    assert "only person who can solve the problem" not in a.answer


def test_related_text_of_a_not_found_answer_is_a_pointer_not_the_list_after_it():
    from threadgraph.bot.compose import excerpt

    text = doc_lines(CORPORA / "howtocook/dishes/meat_dish/宫保鸡丁/宫保鸡丁.md", 78, 82)
    short = excerpt(text, "宫保鸡丁没有花生用什么代替?", 200, whole_list=False)
    assert short == "相较于简单版本，这里更加推荐使用二荆条与生花生。并且加入了莴笋陪衬花生的香脆与鸡肉的松软"
    # an answer excerpt (the default) still shows the list that follows
    assert "1. 莴笋去皮切至 1cm 见方的小块，备用；" in excerpt(text, "宫保鸡丁没有花生用什么代替?", 200)
