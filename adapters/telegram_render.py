"""Telegram message rendering and keyboards for :mod:`threadgraph.adapters.telegram` (which
re-exports every name here): HTML escaping measured in UTF-16 code units as Telegram counts,
:func:`render_html`, the inline keyboard under an answer (:func:`answer_markup`, votes and "did you
mean" buttons, :func:`keyboard`), the question a "did you mean" button asks
(:func:`candidate_question`), and where a reply goes (:func:`reply_thread_id`) and in which
language (:func:`user_language`)."""

from __future__ import annotations


from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update

from . import render
from ..bot.answer import Answer

MESSAGE_LIMIT = 4096  # UTF-16 code units after entity parsing
GENERAL_TOPIC_ID = 1  # a forum's General topic: never sent as message_thread_id
VOTE_PREFIX = "tgv"  # callback data "tgv:+:<answer_id>" / "tgv:-:<answer_id>"
ASK_PREFIX = "tgq"  # callback data "tgq:<answer_id>:<candidate index>"
BUTTON_TEXT_LIMIT = 60


_esc, _utf16_len, _escaped_len = render.telegram_escape, render.utf16_len, render.telegram_len


def reply_thread_id(message: Message) -> int | None:
    """The ``message_thread_id`` a reply to ``message`` must carry: its forum topic, or None
    outside topics and in the General topic (id 1, which Telegram refuses)."""
    tid = message.message_thread_id
    if not message.is_topic_message or tid is None or tid == GENERAL_TOPIC_ID:
        return None
    return tid


def user_language(update: Update) -> str:
    """``"zh"`` or ``"en"`` from the ``language_code`` of the update's user (``"en"`` when unknown)."""
    user = update.effective_user
    return render.language(user.language_code if user else None)


def _wrapped(raw: str, open_tag: str = "", close_tag: str = "", prefix: str = "") -> list[str]:
    """``raw`` escaped and wrapped as ``prefix + open_tag + text + close_tag`` pieces of at most
    4096 characters each (the raw text is split, never the tags)."""
    overhead = _utf16_len(prefix) + len(open_tag) + len(close_tag)
    return [f"{prefix}{open_tag}{_esc(part)}{close_tag}"
            for part in render.split_text(raw, MESSAGE_LIMIT - overhead, _escaped_len)]


def render_html(answer: Answer) -> list[str]:
    """Render an ``Answer`` as Telegram HTML messages of at most 4096 UTF-16 code units each
    (so at most 4096 characters), answer first: the answer text (paragraphs, capped at
    :data:`~threadgraph.adapters.render.MAX_ANSWER_CHARS`), at most three linked sources, the
    follow-ups (see :func:`~threadgraph.adapters.render.telegram_messages`); every string
    escaped, messages cut only between complete pieces, so each is well-formed HTML on its own."""
    return [m.html for m in render.telegram_messages(render.cap_answer(answer), None, MESSAGE_LIMIT)]


def keyboard(markup: dict | None) -> InlineKeyboardMarkup | None:
    """The PTB ``InlineKeyboardMarkup`` of a Bot API JSON keyboard (``None`` stays ``None``)."""
    if not markup:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(b["text"], callback_data=b.get("callback_data"), url=b.get("url"))
                                  for b in row] for row in markup.get("inline_keyboard", [])])


def answer_markup(answer: Answer, answer_id: str, markup: dict | None = None) -> dict:
    """The inline keyboard under an answer (Bot API JSON): one button per "did you mean"
    candidate (a not-found answer's ``follow_ups``; callback data ``tgq:<answer_id>:<index>``),
    the rows of ``markup`` (the "Sources" button), then 👍 and 👎
    (``tgv:+:<answer_id>`` / ``tgv:-:<answer_id>``). Callback data stays within Telegram's 64 bytes."""
    rows: list[list[dict]] = []
    if not answer.found:
        for i, name in enumerate(answer.follow_ups[:5]):
            label = name if len(name) <= BUTTON_TEXT_LIMIT else name[: BUTTON_TEXT_LIMIT - 1] + "…"
            rows.append([{"text": label, "callback_data": f"{ASK_PREFIX}:{answer_id}:{i}"}])
    rows += [list(r) for r in (markup or {}).get("inline_keyboard", [])]
    rows.append([{"text": "👍", "callback_data": f"{VOTE_PREFIX}:+:{answer_id}"},
                 {"text": "👎", "callback_data": f"{VOTE_PREFIX}:-:{answer_id}"}])
    return {"inline_keyboard": rows}


def candidate_question(answer: Answer, index: int) -> str | None:
    """The question a "did you mean" button asks: the stored ``answer`` re-asked with its first
    unknown name replaced by candidate ``index`` of ``follow_ups``; the candidate alone when the
    unknown name is not in the question. None for a bad index."""
    cands = answer.follow_ups or []
    if not 0 <= index < len(cands):
        return None
    cand, question = cands[index], answer.question or ""
    unknown = next((e.name for e in answer.entities if e.type == "unknown" and e.name), None)
    if unknown and unknown in question:
        return question.replace(unknown, cand, 1)
    return cand

