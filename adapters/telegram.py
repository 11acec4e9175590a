"""Telegram adapter (python-telegram-bot 22): threadgraph as handlers on an ``Application``.

* :func:`install` adds threadgraph's handlers to an existing ``telegram.ext.Application`` (the
  team's own handlers and commands keep working) and returns the :class:`TelegramAdapter`;
* :func:`build_application` builds a fresh ``Application`` pointed at
  ``{settings.telegram_api_url}/bot`` with a flood-limit aware rate limiter, and installs
  threadgraph on it. Serving (long polling or webhook) is in :mod:`threadgraph.adapters.serve`.

Behaviour: private chats get an answer to every text message; groups only when the bot is
mentioned (``@username``), replied to, or asked via ``/ask``. Replies stay in the forum topic
(``message_thread_id``). Thread key: chat plus topic, or the root of the reply chain in plain
groups (a reply to the bot's answer continues the same memory), or the whole chat in private.
Answers are sent in HTML parse mode with every user and KB string escaped, split at 4096
characters (UTF-16 units, as Telegram counts) on paragraph boundaries without breaking tags, the
answer text capped at :data:`~threadgraph.adapters.render.MAX_ANSWER_CHARS`; ``RetryAfter``
(HTTP 429) on a reply is waited out. ``/start``, ``/help``, ``/reset``, ``/ask``; ``/start`` and
``/help`` speak the user's language (``language_code``: Chinese or English).

Under the answer: 👍/👎 inline buttons (votes stored in the same
:class:`~threadgraph.bot.feedback.FeedbackStore` as Slack's), and for a "did you mean" answer one
button per candidate name (a click asks the question again with that name). A photo, sticker or
other non-text message in a private chat gets a one-line "I read text questions".

The typing indicator is best effort: it goes out in the background through a Bot of its own
(no rate limiter, short timeouts), so a 429 on ``sendChatAction`` neither delays the answer nor
pauses the application's rate limiter; after a 429 that chat gets no typing until the
``retry_after`` has passed. A reply never names ``message_thread_id`` 1 (a forum's General topic,
which Telegram refuses as "message thread not found"); replies in other topics stay in the topic.
"""

from __future__ import annotations

import asyncio
import html
import logging
import threading
from collections import OrderedDict

import time

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message, MessageEntity, Update
from telegram.constants import ChatAction, ChatType, ParseMode
from telegram.error import RetryAfter
from telegram.ext import (AIORateLimiter, Application, CallbackQueryHandler, CommandHandler, ContextTypes,
                          MessageHandler, filters)
from telegram.request import HTTPXRequest

from . import render
from .render import TTLSet
from ..bot.answer import Answer
from ..bot.feedback import FeedbackStore
from ..bot.message import IncomingMessage, ThreadKey
from ..settings import Settings

log = logging.getLogger("threadgraph.telegram")

MESSAGE_LIMIT = 4096  # UTF-16 code units after entity parsing
TYPING_EVERY_S = 4.5
MAX_SEND_RETRIES = 4
GENERAL_TOPIC_ID = 1  # a forum's General topic: never sent as message_thread_id
VOTE_PREFIX = "tgv"  # callback data "tgv:+:<answer_id>" / "tgv:-:<answer_id>"
ASK_PREFIX = "tgq"  # callback data "tgq:<answer_id>:<candidate index>"
BUTTON_TEXT_LIMIT = 60
#: Non-text messages answered with "I read text questions" in private chats.
NON_TEXT = (filters.PHOTO | filters.Sticker.ALL | filters.VOICE | filters.AUDIO | filters.VIDEO
            | filters.VIDEO_NOTE | filters.ANIMATION | filters.Document.ALL | filters.LOCATION | filters.CONTACT)


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _escaped_len(text: str) -> int:
    """Telegram's measure of ``text`` once escaped: UTF-16 code units (an emoji counts 2)."""
    return _utf16_len(_esc(text))


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
    (so at most 4096 characters).

    The answer text (paragraphs, cut at :data:`~threadgraph.adapters.render.MAX_ANSWER_CHARS`),
    facts (one per line, italic), sources (``<code>``) and follow-up suggestions are each
    escaped with ``html.escape``; messages are cut only between complete pieces, so every
    message is well-formed HTML on its own."""
    answer = render.cap_answer(answer)
    pieces: list[str] = []
    for para in render.paragraphs(answer.answer) or ["…"]:
        pieces.extend(_wrapped(para))
    if answer.facts:
        lines = [p for f in answer.facts for p in _wrapped(render.fact_line(f), "<i>", "</i>", "📌 ")]
        pieces.extend(render.pack(lines, MESSAGE_LIMIT, "\n", _utf16_len))
    sources = render.source_lines(answer)
    if sources:
        lines = [p for s in sources for p in _wrapped(s, "<code>", "</code>", "📄 ")]
        pieces.extend(render.pack(lines, MESSAGE_LIMIT, "\n", _utf16_len))
    if answer.follow_ups:
        mark = "💬 " if answer.found else "❓ "
        lines = [p for q in answer.follow_ups for p in _wrapped(q, prefix=mark)]
        pieces.extend(render.pack(lines, MESSAGE_LIMIT, "\n", _utf16_len))
    return render.pack(pieces, MESSAGE_LIMIT, "\n\n", _utf16_len)


def keyboard(answer: Answer, answer_id: str) -> InlineKeyboardMarkup:
    """The inline keyboard under an answer: one button per "did you mean" candidate (a
    not-found answer's ``follow_ups``; callback data ``tgq:<answer_id>:<index>``), then 👍 and 👎
    (``tgv:+:<answer_id>`` / ``tgv:-:<answer_id>``). Callback data stays within Telegram's 64 bytes."""
    rows: list[list[InlineKeyboardButton]] = []
    if not answer.found:
        for i, name in enumerate(answer.follow_ups[:5]):
            label = name if len(name) <= BUTTON_TEXT_LIMIT else name[: BUTTON_TEXT_LIMIT - 1] + "…"
            rows.append([InlineKeyboardButton(label, callback_data=f"{ASK_PREFIX}:{answer_id}:{i}")])
    rows.append([InlineKeyboardButton("👍", callback_data=f"{VOTE_PREFIX}:+:{answer_id}"),
                 InlineKeyboardButton("👎", callback_data=f"{VOTE_PREFIX}:-:{answer_id}")])
    return InlineKeyboardMarkup(rows)


def candidate_question(answer: dict, index: int) -> str | None:
    """The question a "did you mean" button asks: the stored ``answer`` (its JSON as a dict)
    re-asked with its first unknown name replaced by candidate ``index`` of ``follow_ups``; the
    candidate alone when the unknown name is not in the question. None for a bad index."""
    cands = answer.get("follow_ups") or []
    if not 0 <= index < len(cands):
        return None
    cand, question = cands[index], answer.get("question") or ""
    unknown = next((e.get("name") for e in answer.get("entities") or []
                    if e.get("type") == "unknown" and e.get("name")), None)
    if unknown and unknown in question:
        return question.replace(unknown, cand, 1)
    return cand


class TelegramAdapter:
    """threadgraph's Telegram behaviour; its coroutine methods are PTB handler callbacks.

    ``bot`` is a ``ThreadGraphBot`` (``answer(IncomingMessage, retrieval) -> Answer``,
    ``reset(ThreadKey)``), called in a worker thread. ``feedback`` defaults to the store in
    ``settings.data_dir`` (shared with Slack). Keeps a bounded map from ``(chat, message_id)`` to
    the reply-chain root (in memory). Call :meth:`aclose` when done (closes the typing client)."""

    def __init__(self, bot, settings: Settings | None = None, max_roots: int = 100_000,
                 feedback: FeedbackStore | None = None):
        self.bot = bot
        self.settings = settings or getattr(bot, "settings", None) or Settings()
        self.feedback = feedback or FeedbackStore.for_data_dir(self.settings.data_dir)
        self._roots: OrderedDict[tuple[int, int], int] = OrderedDict()
        self._roots_lock = threading.Lock()
        self._max_roots = max_roots
        self._seen_updates = TTLSet(ttl=3600)
        self._typing_bot: Bot | None = None
        self._typing_paused: dict[int, float] = {}  # chat id -> monotonic time typing may resume

    # -- thread keys ---------------------------------------------------------------------------

    def _remember_root(self, chat_id: int, message_id: int, root: int) -> None:
        with self._roots_lock:
            self._roots[(chat_id, message_id)] = root
            self._roots.move_to_end((chat_id, message_id))
            while len(self._roots) > self._max_roots:
                self._roots.popitem(last=False)

    def _root_of(self, chat_id: int, message_id: int) -> int:
        with self._roots_lock:
            return self._roots.get((chat_id, message_id), message_id)

    def thread_key(self, message: Message) -> ThreadKey:
        """The memory key for ``message``: chat (private), chat + topic (forum topic), or chat +
        reply-chain root (other groups)."""
        chat = str(message.chat_id)
        if message.chat.type == ChatType.PRIVATE:
            thread = ""
        elif message.is_topic_message and message.message_thread_id:
            thread = str(message.message_thread_id)
        else:
            reply = message.reply_to_message
            # a reply continues its chain; a message of ours (a button's) is in the chain it answered
            root = self._root_of(message.chat_id, reply.message_id if reply else message.message_id)
            thread = str(root)
        return ThreadKey(platform="telegram", workspace=chat, channel=chat, thread=thread)

    def _is_addressed(self, message: Message, bot_id: int, username: str) -> bool:
        if message.chat.type == ChatType.PRIVATE:
            return True
        reply = message.reply_to_message
        if reply is not None and reply.from_user is not None and reply.from_user.id == bot_id:
            return True
        mention = f"@{username}".lower()
        for ent, value in message.parse_entities([MessageEntity.MENTION, MessageEntity.TEXT_MENTION]).items():
            if ent.type == MessageEntity.MENTION and value.lower() == mention:
                return True
            if ent.type == MessageEntity.TEXT_MENTION and ent.user and ent.user.id == bot_id:
                return True
        return False

    # -- handlers ------------------------------------------------------------------------------

    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Text message handler: answers in private chats, or in groups when addressed."""
        message = update.effective_message
        if message is None or message.text is None or (message.from_user and message.from_user.is_bot):
            return
        if not self._is_addressed(message, context.bot.id, context.bot.username or ""):
            return
        text = message.text
        if context.bot.username:
            text = _strip_mention(text, context.bot.username)
        await self._answer(update, context, text)

    async def on_ask(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/ask <question>`` (works in groups without a mention)."""
        message = update.effective_message
        if message is None or (message.from_user and message.from_user.is_bot):
            return
        question = " ".join(context.args or []).strip()
        if not question and message.reply_to_message and message.reply_to_message.text:
            question = message.reply_to_message.text
        if not question:
            await self._send(message, _esc(render.message("ask_usage", user_language(update))), update)
            return
        await self._answer(update, context, question)

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/start``: greeting plus help, in the user's language."""
        if update.effective_message:
            lang = user_language(update)
            text = render.message("greeting", lang) + render.message("help", lang)
            await self._send(update.effective_message, _esc(text), update)

    async def on_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/help``: what the bot does and its commands, in the user's language."""
        if update.effective_message:
            await self._send(update.effective_message, _esc(render.message("help", user_language(update))), update)

    async def on_non_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A photo, sticker, voice message, file … in a private chat: one line saying the bot
        reads text questions (in the user's language)."""
        message = update.effective_message
        if message is None or (message.from_user and message.from_user.is_bot):
            return
        if not self._seen_updates.add_if_new(f"{message.chat_id}:{message.message_id}"):
            return
        await self._send(message, _esc(render.message("text_only", user_language(update))), update)

    async def on_reset(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/reset``: clear this thread's memory (in a plain group, reply to the conversation)."""
        message = update.effective_message
        if message is None:
            return
        key = self.thread_key(message)
        try:
            await asyncio.to_thread(self.bot.reset, key)
            text = render.message("reset_done", user_language(update))
        except Exception:  # noqa: BLE001
            log.exception("telegram update %s: reset of thread %s failed", update.update_id, key.key())
            text = render.APOLOGY_TEXT
        await self._send(message, _esc(text), update)

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A click on one of threadgraph's inline buttons: a vote (stored with the answer, like
        Slack's) or a "did you mean" candidate (the question asked again with that name). Always
        answers the callback query; never raises."""
        query = update.callback_query
        if query is None:
            return
        lang = render.language(query.from_user.language_code if query.from_user else None)
        parts = (query.data or "").split(":")
        note = None
        try:
            message = query.message if isinstance(query.message, Message) else None
            if parts[0] == VOTE_PREFIX and len(parts) == 3 and parts[1] in "+-":
                key = self.thread_key(message) if message else None
                user = str(query.from_user.id) if query.from_user else ""
                await asyncio.to_thread(self.feedback.vote, parts[2], 1 if parts[1] == "+" else -1, user, key)
                log.info("telegram vote %s1 on answer %s", parts[1], parts[2])
                note = render.message("vote_thanks", lang)
            elif parts[0] == ASK_PREFIX and len(parts) == 3 and parts[2].isdigit() and message is not None:
                stored = await asyncio.to_thread(self.feedback.answer, parts[1])
                question = candidate_question(stored, int(parts[2])) if stored else None
                if question:
                    await query.answer()
                    await self._answer(update, context, question, message=message, user=query.from_user,
                                       dedupe=f"cb:{query.id}")
                    return
        except Exception:  # noqa: BLE001
            log.exception("telegram update %s: button %r failed", update.update_id, query.data)
        try:
            await query.answer(text=note)
        except Exception:  # noqa: BLE001
            log.warning("telegram update %s: callback query could not be answered", update.update_id)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Application error handler: logs the traceback with the update id."""
        update_id = getattr(update, "update_id", "?")
        log.error("telegram update %s failed", update_id, exc_info=context.error)

    # -- answering -------------------------------------------------------------------------

    async def _answer(self, update: Update, context: ContextTypes.DEFAULT_TYPE, text: str,
                      message: Message | None = None, user=None, dedupe: str | None = None) -> None:
        message = message or update.effective_message
        user = user or message.from_user
        if not self._seen_updates.add_if_new(dedupe or f"{message.chat_id}:{message.message_id}"):
            log.info("telegram update %s already handled", update.update_id)
            return
        key = self.thread_key(message)
        if key.thread and message.chat.type != ChatType.PRIVATE and not message.is_topic_message:
            self._remember_root(message.chat_id, message.message_id, int(key.thread))
        typing = asyncio.create_task(self._keep_typing(context.bot, message))
        markup = None
        try:
            incoming = IncomingMessage(
                thread=key, user=str(user.id if user else ""), text=text.strip(),
                event_id=str(update.update_id), metadata={"platform": "telegram", "message_id": message.message_id})
            if not incoming.text:
                chunks = [_esc(render.message("help", render.language(user.language_code if user else None)))]
            else:
                answer = await asyncio.to_thread(self.bot.answer, incoming)
                chunks = render_html(answer)
                try:
                    answer_id = await asyncio.to_thread(self.feedback.record_answer, answer, key)
                    markup = keyboard(answer, answer_id)
                except Exception:  # noqa: BLE001 - the answer matters more than its buttons
                    log.exception("telegram update %s: answer could not be recorded for feedback", update.update_id)
        except Exception:  # noqa: BLE001
            log.exception("telegram update %s (thread %s) failed in the core", update.update_id, key.key())
            chunks = [_esc(render.APOLOGY_TEXT)]
        finally:
            typing.cancel()
        try:
            for i, chunk in enumerate(chunks):
                sent = await self._send(message, chunk, update, markup if i == len(chunks) - 1 else None)
                if sent is not None and key.thread and not message.is_topic_message \
                        and message.chat.type != ChatType.PRIVATE:
                    self._remember_root(message.chat_id, sent.message_id, int(key.thread))
        except Exception:  # noqa: BLE001
            log.exception("telegram update %s (thread %s): reply could not be delivered", update.update_id,
                          key.key())

    def _typing_client(self, bot: Bot) -> Bot:
        """A plain ``telegram.Bot`` for chat actions only: same token and API URL as ``bot``, no
        rate limiter, its own small connection pool with short timeouts."""
        if self._typing_bot is None:
            base_url, file_url = bot.base_url, bot.base_file_url
            self._typing_bot = Bot(
                token=bot.token, base_url=lambda _token: base_url, base_file_url=lambda _token: file_url,
                request=HTTPXRequest(connection_pool_size=8, read_timeout=5.0, write_timeout=5.0,
                                     connect_timeout=5.0, pool_timeout=1.0))
        return self._typing_bot

    async def _typing_once(self, bot: Bot, message: Message) -> None:
        """Send one typing action to ``message``'s chat/topic unless a 429 paused typing there.
        Never raises: a ``RetryAfter`` pauses typing in that chat for ``retry_after`` seconds."""
        chat_id = message.chat_id
        if self._typing_paused.get(chat_id, 0.0) > time.monotonic():
            return
        try:
            await self._typing_client(bot).send_chat_action(
                chat_id=chat_id, action=ChatAction.TYPING, message_thread_id=reply_thread_id(message))
        except RetryAfter as exc:
            delay = exc.retry_after.total_seconds() if hasattr(exc.retry_after, "total_seconds") \
                else float(exc.retry_after)
            self._typing_paused[chat_id] = time.monotonic() + delay
            if len(self._typing_paused) > 10_000:
                now = time.monotonic()
                self._typing_paused = {k: v for k, v in self._typing_paused.items() if v > now}
            log.info("telegram chat %s: typing paused for %.0f s (flood limit)", chat_id, delay)
        except Exception:  # noqa: BLE001 - typing is cosmetic: never wait for it, never fail on it
            log.debug("typing action failed", exc_info=True)

    async def _keep_typing(self, bot: Bot, message: Message) -> None:
        """Typing now and every ``TYPING_EVERY_S`` until cancelled (runs beside the answer)."""
        try:
            while True:
                await self._typing_once(bot, message)
                await asyncio.sleep(TYPING_EVERY_S)
        except asyncio.CancelledError:
            pass

    async def _send(self, message: Message, html_text: str, update: Update,
                    reply_markup: InlineKeyboardMarkup | None = None) -> Message | None:
        """Reply with ``html_text`` (already escaped HTML) in the message's chat/topic (never
        the General topic's id 1), quoting in groups; waits out ``RetryAfter`` up to
        ``MAX_SEND_RETRIES`` times."""
        quote = message.chat.type != ChatType.PRIVATE
        for attempt in range(MAX_SEND_RETRIES + 1):
            try:
                return await message.reply_text(html_text, parse_mode=ParseMode.HTML, do_quote=quote,
                                                disable_web_page_preview=True, reply_markup=reply_markup,
                                                message_thread_id=reply_thread_id(message))
            except RetryAfter as exc:
                if attempt == MAX_SEND_RETRIES:
                    raise
                delay = exc.retry_after.total_seconds() if hasattr(exc.retry_after, "total_seconds") \
                    else float(exc.retry_after)
                log.warning("telegram update %s: flood limit, retrying in %.1f s", update.update_id, delay)
                await asyncio.sleep(delay + 0.1)
        return None

    async def aclose(self) -> None:
        """Close the typing client's connections (idempotent)."""
        if self._typing_bot is not None:
            bot, self._typing_bot = self._typing_bot, None
            try:
                await bot.request.shutdown()
            except Exception:  # noqa: BLE001
                log.debug("typing client shutdown failed", exc_info=True)


def _strip_mention(text: str, username: str) -> str:
    import re

    return re.sub(rf"@{re.escape(username)}\b", "", text, flags=re.IGNORECASE).strip()


def install(application: Application, bot, settings: Settings | None = None, group: int = 1,
            commands: bool = True) -> TelegramAdapter:
    """Add threadgraph's handlers to an existing PTB ``Application``; returns the adapter.

    Handlers go into handler ``group`` (default 1, so a catch-all text handler of the app in
    group 0 does not hide them and vice versa) and run non-blocking (``block=False``), so one
    slow answer never holds up other updates. ``commands=False`` skips ``/start``, ``/help``
    (keep the app's own) but still adds ``/ask`` and ``/reset``. Also adds the handler of
    threadgraph's inline buttons (callback data starting ``tgv:`` or ``tgq:``) and the "I read
    text questions" reply to non-text messages in private chats. ``settings`` defaults to
    ``bot.settings``."""
    adapter = TelegramAdapter(bot, settings)
    handlers = [
        CommandHandler("ask", adapter.on_ask, block=False),
        CommandHandler("reset", adapter.on_reset, block=False),
        MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT & ~filters.COMMAND, adapter.on_text, block=False),
        MessageHandler(filters.UpdateType.MESSAGE & filters.ChatType.PRIVATE & NON_TEXT, adapter.on_non_text,
                       block=False),
        CallbackQueryHandler(adapter.on_button, pattern=rf"^(?:{VOTE_PREFIX}|{ASK_PREFIX}):", block=False),
    ]
    if commands:
        handlers += [CommandHandler("start", adapter.on_start, block=False),
                     CommandHandler("help", adapter.on_help, block=False)]
    application.add_handlers(handlers, group=group)
    application.bot_data["threadgraph_adapter"] = adapter
    return adapter


def build_application(bot, settings: Settings | None = None, updater: bool = True) -> Application:
    """A fresh PTB ``Application`` for ``settings.telegram_bot_token`` with threadgraph installed.

    Points at ``{settings.telegram_api_url}/bot`` (files at ``.../file/bot``), waits out 429s
    via ``AIORateLimiter(max_retries=3)``, processes updates concurrently and logs failed
    updates with their id. ``updater=False`` builds it without an ``Updater`` (webhook served
    by our own HTTP server). Raises ``ValueError`` when ``TELEGRAM_BOT_TOKEN`` is missing."""
    settings = settings or getattr(bot, "settings", None) or Settings()
    if settings.telegram_bot_token is None:
        raise ValueError("TELEGRAM_BOT_TOKEN is not set")
    root = settings.telegram_api_url.rstrip("/")
    builder = (Application.builder()
               .token(settings.telegram_bot_token.get_secret_value())
               .base_url(f"{root}/bot")
               .base_file_url(f"{root}/file/bot")
               .rate_limiter(AIORateLimiter(max_retries=3))
               .concurrent_updates(True))
    if not updater:
        builder = builder.updater(None)
    application = builder.build()
    adapter = install(application, bot, settings)
    application.add_error_handler(adapter.on_error)
    return application
