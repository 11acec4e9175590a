"""How an Answer is shown (adapters/render.py): answer first, at most three linked
sources, the full evidence behind a "Sources" button; and where source links come
from (bot/citations.py). Pure functions: no platform server needed."""

from __future__ import annotations

import html
import json
import re

from threadgraph.adapters import render
from threadgraph.adapters.slack import render_answer
from threadgraph.bot.answer import Answer, Citation, Fact, Passage, Source
from threadgraph.bot.citations import citation_title, citations, human_title, source_url
from threadgraph.settings import Settings

HTC = "https://github.com/Anduin2017/HowToCook/blob/master"
KUNGPAO = "howtocook/dishes/meat_dish/宫保鸡丁/宫保鸡丁.md"


def kungpao_answer(n_facts: int = 1, **kw) -> Answer:
    facts = [Fact(id=f"f-{i:016x}", subject="手枪腿", relation="SUBSTITUTES", object="鸡胸肉",
                  properties={"context": "recipe:宫保鸡丁", "context_name": "宫保鸡丁"},
                  source=Source(doc=KUNGPAO if i == 0 else f"howtocook/dishes/d{i}.md", section="必备原料和工具", line=11))
             for i in range(n_facts)]
    passages = [Passage(id="p-1", doc=KUNGPAO, section="必备原料和工具", text="- 手枪腿（或者鸡胸脯肉）\n- 大葱", line=11)]
    srcs = citations(None, Settings(_env_file=None, source_urls={"corpora/howtocook": HTC}), facts, passages)
    return Answer(thread="t", question="宫保鸡丁没有手枪腿用什么代替？", intent="substitute", found=True,
                  answer="做宫保鸡丁时，手枪腿可以用鸡胸肉代替。", facts=facts, passages=passages, sources=srcs,
                  follow_ups=["宫保鸡丁需要哪些原料？"], **kw)


# -- citations ----------------------------------------------------------------------------------

def test_source_url_maps_a_corpus_folder_from_any_root():
    path = "dishes/meat_dish/%E5%AE%AB%E4%BF%9D%E9%B8%A1%E4%B8%81/%E5%AE%AB%E4%BF%9D%E9%B8%A1%E4%B8%81.md"
    for folder in ("corpora/howtocook", "howtocook", "./corpora/howtocook/"):
        assert source_url(KUNGPAO, 11, {folder: HTC}) == f"{HTC}/{path}"
    assert source_url(KUNGPAO, 11, {"other": HTC}) is None
    tpl = {"howtocook": "https://example.org/{path}?plain=1#L{line}"}
    assert source_url(KUNGPAO, 11, tpl) == f"https://example.org/{path}?plain=1#L11"
    # the document's own (front-matter) URL wins; the longest folder wins
    assert source_url(KUNGPAO, 11, {"howtocook": HTC}, {KUNGPAO: "https://x.test/kp"}) == "https://x.test/kp"
    assert source_url(KUNGPAO, 1, {"howtocook": "https://a", "howtocook/dishes": "https://b"}).startswith("https://b/meat_dish/")


def test_titles_are_human():
    assert human_title("severity_levels") == "Severity levels"
    assert human_title("index") == "Index"
    assert human_title("宫保鸡丁") == "宫保鸡丁"
    assert citation_title("docs/before/different_roles.md", "Deputy > Who are they?", {}) == "Different roles › Who are they?"
    assert citation_title(KUNGPAO, "", {KUNGPAO: "宫保鸡丁"}) == "宫保鸡丁"


def test_citations_one_per_document_at_most_three():
    a = kungpao_answer(n_facts=5)
    assert [c.doc for c in a.sources] == [KUNGPAO, "howtocook/dishes/d1.md", "howtocook/dishes/d2.md"]
    assert a.sources[0].url.startswith(HTC + "/dishes/meat_dish/")
    assert render.more_sources(a) == 2


# -- Telegram -----------------------------------------------------------------------------------

def test_telegram_reply_is_answer_then_linked_sources_then_button():
    a = kungpao_answer(n_facts=5)
    msgs = render.telegram_messages(a, "abc123")
    assert len(msgs) == 1
    body = msgs[0].html
    assert body.startswith("做宫保鸡丁时，手枪腿可以用鸡胸肉代替。\n\n📄 ")
    assert body.count("<a href=") == 3 and "+2 more" not in body and "另有 2 个" in body
    assert "⇄" not in body and "recipe:" not in body and "f-0000" not in body
    assert msgs[0].reply_markup == {"inline_keyboard": [[{"text": "📄 来源（6）", "callback_data": "threadgraph_sources:abc123"}]]}
    assert len(render.SOURCES_CALLBACK + "0" * 32) <= 64  # Telegram's callback_data limit


def test_telegram_sources_message_holds_the_full_evidence():
    a = kungpao_answer(n_facts=5)
    out = "\n".join(render.telegram_sources_html(a))
    assert out.startswith("<b>来源与证据</b>")
    assert out.count("手枪腿 可以用 鸡胸肉 代替（宫保鸡丁）") == 5
    assert "手枪腿（或者鸡胸脯肉）; 大葱" in html.unescape(out)


def test_telegram_long_answer_is_split_and_never_cut():
    steps = "\n".join(f"{i}. 第 {i} 步：" + "翻炒均匀，" * 40 + "出锅。" for i in range(1, 40))
    a = kungpao_answer().model_copy(update={"answer": "宫保鸡丁的做法：\n" + steps})
    msgs = render.telegram_messages(a, "id")
    assert len(msgs) >= 2 and all(len(m.html) <= 4096 for m in msgs)
    text = "\n".join(html.unescape(re.sub(r"<[^>]+>", "", m.html)) for m in msgs)
    for i in range(1, 40):
        assert f"{i}. 第 {i} 步：" + "翻炒均匀，" * 40 + "出锅。" in text
    assert [m.reply_markup is not None for m in msgs] == [False] * (len(msgs) - 1) + [True]


def test_telegram_no_button_without_evidence_or_id():
    a = Answer(thread="t", question="q", intent="general", found=False, answer="知识库里没有关于佛跳墙的依据。")
    assert render.telegram_messages(a, "id")[0].reply_markup is None
    assert render.telegram_messages(kungpao_answer(), None)[0].reply_markup is None


# -- Slack --------------------------------------------------------------------------------------

def test_slack_reply_is_answer_sources_context_and_buttons():
    a = kungpao_answer(n_facts=2)
    [msg] = render_answer(a, "abc123")
    kinds = [b["type"] for b in msg["blocks"]]
    assert kinds == ["section", "context", "context", "actions"]
    assert msg["blocks"][0]["text"]["text"] == "做宫保鸡丁时，手枪腿可以用鸡胸肉代替。"
    src = msg["blocks"][1]["elements"][0]["text"]
    assert src.startswith(f"📄 <{HTC}/dishes/meat_dish/") and "|宫保鸡丁 › 必备原料和工具> (第 11 行)" in src
    buttons = msg["blocks"][-1]["elements"]
    assert [b["action_id"] for b in buttons] == ["threadgraph_sources", "threadgraph_vote_up", "threadgraph_vote_down"]
    assert buttons[0]["value"] == "abc123"
    assert "⇄" not in json.dumps(msg, ensure_ascii=False)


def test_slack_sources_blocks_fit_slack_limits():
    facts = [Fact(id=f"f-{i:016x}", subject=f"原料{i} <&>", relation="SUBSTITUTES", object="替代" + "x" * 400,
                  source=Source(doc=f"dishes/d{i}.md", line=i + 1)) for i in range(400)]
    a = Answer(thread="t", question="q", intent="substitute", found=True, answer="x", facts=facts)
    blocks = render.slack_sources_blocks(a)
    assert len(blocks) <= 50
    assert all(len(b["text"]["text"]) <= 3000 for b in blocks if b["type"] == "section")
    text = "\n".join(b["text"]["text"] for b in blocks if b["type"] == "section")
    assert "原料0 &lt;&amp;&gt;" in text and "<&>" not in text


def test_console_sources_are_short_lines():
    a = kungpao_answer(n_facts=5)
    lines = render.console_sources(a)
    assert lines[0].startswith("宫保鸡丁 › 必备原料和工具 · 第 11 行 · https://")
    assert lines[-1].startswith("另有 2 个来源")


def test_answer_json_sources_are_optional():
    a = Answer.model_validate({"thread": "t", "question": "q", "intent": "x", "found": False, "answer": "a"})
    assert a.sources == []
    assert Citation(title="T", doc="d.md").url is None


def test_a_pdf_source_reads_as_its_page_not_a_raw_line():
    """A PDF passage's line holds page x 1000 + line on the page (tests/test_pdf_docx.py: the
    plan's first heading is on page 48); users must see "p. 48", never "line 48003"."""
    from threadgraph.adapters import render
    from threadgraph.bot.answer import Answer, Citation

    cit = Citation(title="Incident Response Plan › Recover", doc="plan.pdf", line=48003)
    md = Citation(title="Roles", doc="roles.md", line=7)
    en = Answer(thread="t", question="q", intent="general", found=True, answer="a", language="en", sources=[cit, md])
    zh = en.model_copy(update={"language": "zh"})
    assert render.console_sources(en) == ["Incident Response Plan › Recover · p. 48", "Roles · line 7"]
    assert "(p. 48)" in render.telegram_sources_line(en) and "48003" not in render.telegram_sources_line(en)
    assert render.console_sources(zh)[0] == "Incident Response Plan › Recover · 第 48 页"
