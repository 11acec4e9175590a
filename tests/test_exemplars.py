"""The nearest-exemplar intent fallback (bot/exemplars.py): frames with
generic words, the choice rule, and the real e5 model reading phrasings that
are not in the exemplar file."""

from __future__ import annotations

import pytest

from conftest import E5_PATH
from threadgraph.bot import exemplars
from threadgraph.bot.linker import Linker, Mention
from threadgraph.bot.query import Understanding
from threadgraph.knowledge.kb import EntityName

needs_e5 = pytest.mark.skipif(not (E5_PATH / "model.onnx").exists(),
                              reason="multilingual-e5-small-int8 not beside the checkout")


def test_generic_frame_replaces_each_name_by_the_word_of_its_type():
    body = "桂圆红枣粥没有糯米怎么办"
    ms = [Mention("桂圆红枣粥", "桂圆红枣粥", "recipe", "r1", 0), Mention("糯米", "糯米", "ingredient", "i1", 7)]
    assert exemplars.generic_frame(body, ms, "zh") == "这道菜没有这种食材怎么办"
    en = "Who covers for the Incident Commander?"
    assert exemplars.generic_frame(en, [Mention("Incident Commander", "Incident Commander", "role", "p", 19)],
                                   "en") == "Who covers for this role?"


def test_choose_takes_the_nearest_intent_only_when_near_and_clear_of_general():
    ranked = [("steps", 0.95), ("contains", 0.93), ("general", 0.90)]
    assert exemplars.choose(ranked, {"recipe"}, False) == ("steps", 0.95)
    # too far from every exemplar
    assert exemplars.choose([("steps", 0.85), ("general", 0.80)], {"recipe"}, False) is None
    # not clearly nearer than a general question
    assert exemplars.choose([("steps", 0.950), ("general", 0.945)], {"recipe"}, False) is None


def test_choose_never_falls_through_to_a_distant_second_intent():
    # required needs an ingredient; none is named, so only an intent as near may stand in
    assert exemplars.choose([("required", 0.95), ("steps", 0.90), ("general", 0.85)], {"recipe"}, False) is None
    assert exemplars.choose([("required", 0.95), ("steps", 0.945), ("general", 0.85)], {"recipe"}, False) == \
        ("steps", 0.945)
    # a follow-up may take the intent without the entity: memory supplies it
    assert exemplars.choose([("required", 0.95), ("general", 0.85)], set(), True) == ("required", 0.95)



@needs_e5
@pytest.mark.parametrize("frame,intent", [
    ("这道菜怎么熬", "steps"),                                   # HowToCook-style "怎么熬"
    ("这道菜可以不加这种食材吗 thx", "required"),
    ("How long does this dish stay in the oven?", "steps"),
    ("Who takes over from this role when they are on holiday?", "stand_in"),
])
def test_e5_reads_phrasings_that_are_not_exemplars(e5, frame, intent):
    for by_lang in exemplars.data()["intents"].values():
        assert all(frame != q for qs in by_lang.values() for q in qs)  # not an exemplar itself
    assert exemplars.nearest(e5, frame)[0][0] == intent


@needs_e5
def test_refine_gives_a_general_question_the_exemplar_intent_and_typed_slots(e5):
    names = [EntityName("recipe:桂圆红枣粥", "桂圆红枣粥", "recipe", "桂圆红枣粥"),
             EntityName("ingredient:糯米", "糯米", "ingredient", "糯米")]
    lk = Linker(names)
    u = Understanding(text="桂圆红枣粥怎么熬", intent="general", language="zh")
    got = exemplars.refine(u, e5, lk)
    assert got.intent == "steps" and got.rule.startswith("steps/exemplar/")
    assert [m.name for m in got.mentions] == ["桂圆红枣粥"]
    # a question naming nothing stays general: passages answer it better than an empty slot
    v = Understanding(text="怎么熬", intent="general", language="zh")
    assert exemplars.refine(v, e5, lk).intent == "general"
    # without an embedder nothing changes
    w = Understanding(text="桂圆红枣粥怎么熬", intent="general", language="zh")
    assert exemplars.refine(w, None, lk).intent == "general"
