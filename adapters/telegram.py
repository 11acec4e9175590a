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
characters on paragraph boundaries without breaking tags, answer first: the text, at most three
linked sources, the follow-ups, and an inline "Sources" button whose callback sends the full
evidence (the answer is recorded in the :class:`~threadgraph.bot.feedback.FeedbackStore`); the
typing action is shown while working; ``RetryAfter`` (HTTP 429) is waited out. ``/start``,
``/help``, ``/reset``, ``/ask``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import threading
from collections import OrderedDict

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, MessageEntity, Update
from telegram.constants import ChatAction, ChatType, ParseMode
from telegram.error import RetryAfter
from telegram.ext import (AIORateLimiter, Application, CallbackQueryHandler, CommandHandler, ContextTypes,
                          MessageHandler, filters)

from . import render
from .render import TTLSet
from ..bot.answer import Answer
from ..bot.feedback import FeedbackStore
from ..bot.message import IncomingMessage, ThreadKey
from ..settings import Settings

log = logging.getLogger("threadgraph.telegram")

MESSAGE_LIMIT = 4096
TYPING_EVERY_S = 4.5
MAX_SEND_RETRIES = 4


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def _escaped_len(text: str) -> int:
    return len(_esc(text))


def _wrapped(raw: str, open_tag: str = "", close_tag: str = "", prefix: str = "") -> list[str]:
    """``raw`` escaped and wrapped as ``prefix + open_tag + text + close_tag`` pieces of at most
    4096 characters each (the raw text is split, never the tags)."""
    overhead = len(prefix) + len(open_tag) + len(close_tag)
    return [f"{prefix}{open_tag}{_esc(part)}{close_tag}"
            for part in render.split_text(raw, MESSAGE_LIMIT - overhead, _escaped_len)]


def render_html(answer: Answer) -> list[str]:
    """Render an ``Answer`` as Telegram HTML messages of at most 4096 characters each, answer
    first: the answer text (paragraphs), at most three linked sources, the follow-ups (see
    :func:`~threadgraph.adapters.render.telegram_messages`); every string escaped, messages cut
    only between complete pieces, so each is well-formed HTML on its own."""
    return [m.html for m in render.telegram_messages(answer, None, MESSAGE_LIMIT)]


def keyboard(markup: dict | None) -> InlineKeyboardMarkup | None:
    """The PTB ``InlineKeyboardMarkup`` of a Bot API JSON keyboard (``None`` stays ``None``)."""
    if not markup:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(b["text"], callback_data=b.get("callback_data"), url=b.get("url"))
                                  for b in row] for row in markup.get("inline_keyboard", [])])


class TelegramAdapter:
    """threadgraph's Telegram behaviour; its coroutine methods are PTB handler callbacks.

    ``bot`` is a ``ThreadGraphBot`` (``answer(IncomingMessage, retrieval) -> Answer``,
    ``reset(ThreadKey)``), called in a worker thread. Keeps a bounded map from
    ``(chat, message_id)`` to the reply-chain root (in memory)."""

    def __init__(self, bot, settings: Settings | None = None, max_roots: int = 100_000,
                 feedback: FeedbackStore | None = None):
        self.bot = bot
        self.settings = settings or getattr(bot, "settings", None) or Settings()
        self._feedback = feedback
        self._roots: OrderedDict[tuple[int, int], int] = OrderedDict()
        self._roots_lock = threading.Lock()
        self._max_roots = max_roots
        self._seen_updates = TTLSet(ttl=3600)

    @property
    def feedback(self) -> FeedbackStore:
        """Where sent answers are recorded (so a "Sources" click can show their evidence):
        ``{data_dir}/feedback.sqlite`` unless given."""
        if self._feedback is None:
            self._feedback = FeedbackStore.for_data_dir(self.settings.data_dir)
        return self._feedback

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
            root = self._root_of(message.chat_id, reply.message_id) if reply else message.message_id
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
            await self._send(message, _esc("Usage: /ask <question>"), update)
            return
        await self._answer(update, context, question)

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/start``: greeting plus help."""
        if update.effective_message:
            await self._send(update.effective_message, _esc("👋 Hi! " + render.HELP_TEXT), update)

    async def on_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/help``: what the bot does and its commands."""
        if update.effective_message:
            await self._send(update.effective_message, _esc(render.HELP_TEXT), update)

    async def on_reset(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/reset``: clear this thread's memory (in a plain group, reply to the conversation)."""
        message = update.effective_message
        if message is None:
            return
        key = self.thread_key(message)
        try:
            await asyncio.to_thread(self.bot.reset, key)
            text = "🧹 Memory for this thread cleared. (已清除本话题的记忆。)"
        except Exception:  # noqa: BLE001
            log.exception("telegram update %s: reset of thread %s failed", update.update_id, key.key())
            text = render.APOLOGY_TEXT
        await self._send(message, _esc(text), update)

    async def on_sources(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The "Sources" button (callback data ``threadgraph_sources:<answer id>``): acknowledge
        the click, then send the answer's full evidence
        (:func:`~threadgraph.adapters.render.telegram_sources_html`) as a reply to the answer."""
        query = update.callback_query
        if query is None:
            return
        answer_id = (query.data or "")[len(render.SOURCES_CALLBACK):]
        try:
            await query.answer()
        except Exception:  # noqa: BLE001 - an expired query still gets its sources
            log.debug("telegram callback %s could not be acknowledged", query.id, exc_info=True)
        message = query.message
        if not isinstance(message, Message):
            return
        try:
            answer = await asyncio.to_thread(self.feedback.answer, answer_id)
            if answer is None:
                chunks = [_esc("These sources are no longer available. (来源已不可用。)")]
            else:
                chunks = render.telegram_sources_html(answer, MESSAGE_LIMIT)
            for chunk in chunks:
                await self._send(message, chunk, update)
        except Exception:  # noqa: BLE001
            log.exception("telegram update %s: sources of answer %s could not be sent", update.update_id, answer_id)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Application error handler: logs the traceback with the update id."""
        update_id = getattr(update, "update_id", "?")
        log.error("telegram update %s failed", update_id, exc_info=context.error)

    # -- answering -------------------------------------------------------------------------

    async def _answer(self, update: Update, context: ContextTypes.DEFAULT_TYPE, text: str) -> None:
        message = update.effective_message
        if not self._seen_updates.add_if_new(f"{message.chat_id}:{message.message_id}"):
            log.info("telegram update %s already handled", update.update_id)
            return
        key = self.thread_key(message)
        if key.thread and message.chat.type != ChatType.PRIVATE and not message.is_topic_message:
            self._remember_root(message.chat_id, message.message_id, int(key.thread))
        await self._typing_once(message)
        typing = asyncio.create_task(self._keep_typing(message))
        try:
            incoming = IncomingMessage(
                thread=key, user=str(message.from_user.id if message.from_user else ""), text=text.strip(),
                event_id=str(update.update_id), metadata={"platform": "telegram", "message_id": message.message_id})
            if not incoming.text:
                chunks = [render.TelegramMessage(_esc(render.HELP_TEXT))]
            else:
                answer = await asyncio.to_thread(self.bot.answer, incoming)
                answer_id = None
                if render.has_evidence(answer):
                    try:
                        answer_id = await asyncio.to_thread(self.feedback.record_answer, answer, key)
                    except Exception:  # noqa: BLE001 - the answer still goes out, without its button
                        log.warning("telegram update %s: answer not recorded", update.update_id, exc_info=True)
                chunks = render.telegram_messages(answer, answer_id, MESSAGE_LIMIT)
        except Exception:  # noqa: BLE001
            log.exception("telegram update %s (thread %s) failed in the core", update.update_id, key.key())
            chunks = [render.TelegramMessage(_esc(render.APOLOGY_TEXT))]
        finally:
            typing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await typing
        try:
            for chunk in chunks:
                sent = await self._send(message, chunk.html, update, keyboard(chunk.reply_markup))
                if sent is not None and key.thread and not message.is_topic_message \
                        and message.chat.type != ChatType.PRIVATE:
                    self._remember_root(message.chat_id, sent.message_id, int(key.thread))
        except Exception:  # noqa: BLE001
            log.exception("telegram update %s (thread %s): reply could not be delivered", update.update_id,
                          key.key())

    async def _typing_once(self, message: Message) -> None:
        try:
            await message.get_bot().send_chat_action(
                chat_id=message.chat_id, action=ChatAction.TYPING,
                message_thread_id=message.message_thread_id if message.is_topic_message else None)
        except Exception:  # noqa: BLE001 - typing is cosmetic (incl. RetryAfter): never wait for it
            log.debug("typing action failed", exc_info=True)

    async def _keep_typing(self, message: Message) -> None:
        try:
            while True:
                await asyncio.sleep(TYPING_EVERY_S)
                await self._typing_once(message)
        except asyncio.CancelledError:
            pass

    async def _send(self, message: Message, html_text: str, update: Update,
                    reply_markup: InlineKeyboardMarkup | None = None) -> Message | None:
        """Reply with ``html_text`` (already escaped HTML) in the message's chat/topic, quoting in
        groups, with ``reply_markup`` when given; waits out ``RetryAfter`` up to
        ``MAX_SEND_RETRIES`` times."""
        quote = message.chat.type != ChatType.PRIVATE
        for attempt in range(MAX_SEND_RETRIES + 1):
            try:
                return await message.reply_text(html_text, parse_mode=ParseMode.HTML, do_quote=quote,
                                                disable_web_page_preview=True, reply_markup=reply_markup)
            except RetryAfter as exc:
                if attempt == MAX_SEND_RETRIES:
                    raise
                delay = exc.retry_after.total_seconds() if hasattr(exc.retry_after, "total_seconds") \
                    else float(exc.retry_after)
                log.warning("telegram update %s: flood limit, retrying in %.1f s", update.update_id, delay)
                await asyncio.sleep(delay + 0.1)
        return None


def _strip_mention(text: str, username: str) -> str:
    import re

    return re.sub(rf"@{re.escape(username)}\b", "", text, flags=re.IGNORECASE).strip()


def install(application: Application, bot, settings: Settings | None = None, group: int = 1,
            commands: bool = True) -> TelegramAdapter:
    """Add threadgraph's handlers to an existing PTB ``Application``; returns the adapter.

    Handlers go into handler ``group`` (default 1, so a catch-all text handler of the app in
    group 0 does not hide them and vice versa) and run non-blocking (``block=False``), so one
    slow answer never holds up other updates. ``commands=False`` skips ``/start``, ``/help``
    (keep the app's own) but still adds ``/ask`` and ``/reset``. The "Sources" button's callback
    queries (``threadgraph_sources:…``) are handled too. ``settings`` defaults to ``bot.settings``."""
    adapter = TelegramAdapter(bot, settings)
    handlers = [
        CommandHandler("ask", adapter.on_ask, block=False),
        CommandHandler("reset", adapter.on_reset, block=False),
        MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT & ~filters.COMMAND, adapter.on_text, block=False),
        CallbackQueryHandler(adapter.on_sources, pattern=f"^{render.SOURCES_CALLBACK}", block=False),
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
