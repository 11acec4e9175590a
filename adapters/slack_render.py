"""Block Kit rendering for :mod:`threadgraph.adapters.slack` (which re-exports its public names):
Slack text escaping, :func:`render_answer` (an answer as one or more messages within Slack's
limits: :data:`SECTION_LIMIT` characters per section, :data:`MAX_BLOCKS` blocks and
:data:`MESSAGE_TEXT_BUDGET` characters of block text per message), the vote buttons
(:func:`vote_block`) and :func:`text_message`."""

from __future__ import annotations

from typing import Any

from . import render
from ..bot.answer import Answer

SECTION_LIMIT = 3000  # characters of text per section block / context element
MAX_BLOCKS = 50  # blocks per message
CONTEXT_ELEMENTS = 10  # elements per context block
#: Characters of block text per message. Slack refuses a message whose blocks hold more than
#: ~12,000 characters in all (``msg_blocks_too_long``, seen from ~11,300 in public reports, the
#: block containers count too); 7,000 leaves room for 50 blocks' overhead.
MESSAGE_TEXT_BUDGET = 7000


def escape(text: str) -> str:
    """Escape ``&``, ``<`` and ``>`` for Slack text (mrkdwn or plain)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescape(text: str) -> str:
    """Undo Slack's escaping of ``&``, ``<``, ``>`` in incoming message text."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _escaped_len(text: str) -> int:
    return len(escape(text))


def _context_blocks(lines: list[str], prefix: str) -> list[dict]:
    """Context blocks holding ``lines`` (escaped, prefixed), ≤3000 chars per element, ≤10
    elements per block."""
    texts: list[str] = []
    for line in lines:
        texts.extend(render.split_text(f"{prefix}{line}", SECTION_LIMIT, _escaped_len))
    elements = [{"type": "mrkdwn", "text": escape(t)} for t in render.pack(texts, SECTION_LIMIT, "\n", _escaped_len)]
    return [
        {"type": "context", "elements": elements[i : i + CONTEXT_ELEMENTS]}
        for i in range(0, len(elements), CONTEXT_ELEMENTS)
    ]


def vote_block(answer_id: str) -> dict:
    """The actions block with the 👍 / 👎 buttons; button ``value`` is the ``answer_id``."""
    return {
        "type": "actions",
        "block_id": "threadgraph_vote",
        "elements": [
            {"type": "button", "action_id": "threadgraph_vote_up", "value": answer_id,
             "text": {"type": "plain_text", "text": "👍", "emoji": True}},
            {"type": "button", "action_id": "threadgraph_vote_down", "value": answer_id,
             "text": {"type": "plain_text", "text": "👎", "emoji": True}},
        ],
    }


def _block_text_len(block: dict) -> int:
    """Characters of text in one block (every ``text`` string in it)."""
    n = 0
    stack: list[Any] = [block]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "text" and isinstance(v, str):
                    n += len(v)
                else:
                    stack.append(v)
        elif isinstance(node, list):
            stack.extend(node)
    return n


def _pack_blocks(blocks: list[dict], reserve: list[dict]) -> list[list[dict]]:
    """``blocks`` in order, packed into messages of at most :data:`MAX_BLOCKS` blocks and
    :data:`MESSAGE_TEXT_BUDGET` characters of block text; ``reserve`` (the vote buttons) is
    appended to the last message (a new one when it does not fit)."""
    parts: list[list[dict]] = []
    current: list[dict] = []
    size = 0
    for b in blocks:
        n = _block_text_len(b)
        if current and (len(current) + 1 > MAX_BLOCKS or size + n > MESSAGE_TEXT_BUDGET):
            parts.append(current)
            current, size = [], 0
        current.append(b)
        size += n
    extra = sum(_block_text_len(b) for b in reserve)
    if reserve:
        if current and (len(current) + len(reserve) > MAX_BLOCKS or size + extra > MESSAGE_TEXT_BUDGET):
            parts.append(current)
            current = []
        current.extend(reserve)
    if current:
        parts.append(current)
    return parts


def render_answer(answer: Answer, answer_id: str | None = None) -> list[dict[str, Any]]:
    """Render an ``Answer`` as one or more Slack messages, answer first.

    Returns a list of ``{"text": fallback, "blocks": [...]}`` dicts: the answer text (cut at
    :data:`~threadgraph.adapters.render.MAX_ANSWER_CHARS`) in mrkdwn section blocks of at most
    3000 characters (split on paragraph boundaries), at most three sources in a context block,
    follow-up suggestions in a context block (:func:`~threadgraph.adapters.render.slack_blocks`),
    and (when ``answer_id`` is given) the "Sources" button (the full evidence, see
    :meth:`SlackAdapter.on_sources`) with the vote buttons at the end of the last message. Every
    message has at most 50 blocks and at most :data:`MESSAGE_TEXT_BUDGET` characters of block
    text; the fallback ``text`` is at most 3000 characters. All KB and user text is escaped
    (``&``, ``<``, ``>``)."""
    answer = render.cap_answer(answer)
    blocks: list[dict] = render.slack_blocks(answer)
    reserve: list[dict] = []
    if answer_id:
        actions = vote_block(answer_id)
        if render.has_evidence(answer):
            actions["elements"].insert(0, render.slack_sources_button(answer, answer_id))
        reserve = [actions]
    messages = []
    for part in _pack_blocks(blocks, reserve):
        first_text = next((b["text"]["text"] for b in part if b["type"] == "section"), None)
        fallback = first_text if first_text else escape((answer.answer or "…")[:300])
        messages.append({"text": fallback[:SECTION_LIMIT], "blocks": part})
    return messages


def text_message(text: str) -> dict[str, Any]:
    """One plain message (``text`` escaped, in one section, cut to 3000 characters)."""
    body = escape(text)[:SECTION_LIMIT]
    return {"text": body, "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": body}}]}
