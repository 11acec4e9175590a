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
evidence (the answer is recorded in the feedback store); the typing action is shown while
working (best effort, see below); ``RetryAfter`` (HTTP 429) on a reply is waited out; messages are
measured in UTF-16 units, as Telegram counts, and the answer text is capped at
:data:`~threadgraph.adapters.render.MAX_ANSWER_CHARS`. ``/start``, ``/help``, ``/reset``, ``/ask``.
Reply roots, handled ``update_id`` s and recorded answers live in the shared state
(:mod:`threadgraph.bot.state`): after a restart, or on another worker, a reply to the bot's
answer continues its thread, a re-delivered update is not answered again (one waiting for a dead
worker's lease is answered when the lease expires) and a "Sources" click finds its answer.


``/start`` and ``/help`` speak the user's language (``language_code``: Chinese or English).

Under the answer, beside "Sources": 👍/👎 inline buttons (votes stored in the same
:class:`~threadgraph.bot.feedback.FeedbackStore` as Slack's), and for a "did you mean" answer one
button per candidate name (a click asks the question again with that name). A photo, sticker or
other non-text message in a private chat gets a one-line "I read text questions".

The typing indicator is best effort: it goes out in the background through a Bot of its own
(no rate limiter, short timeouts), so a 429 on ``sendChatAction`` neither delays the answer nor
pauses the application's rate limiter; after a 429 that chat gets no typing until the
``retry_after`` has passed. A reply never names ``message_thread_id`` 1 (a forum's General topic,
which Telegram refuses as "message thread not found"); replies in other topics stay in the topic.

Rendering and keyboards live in :mod:`threadgraph.adapters.telegram_render`, the typing indicator in
:mod:`threadgraph.adapters.telegram_typing`; their public names are importable from here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor

from telegram import Bot, InlineKeyboardMarkup, Message, MessageEntity, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import RetryAfter
from telegram.ext import (AIORateLimiter, Application, CallbackQueryHandler, CommandHandler, ContextTypes,
                          MessageHandler, filters)

from . import render
from ..bot.feedback import FeedbackStore
from ..bot.message import IncomingMessage, ThreadKey
from ..bot.state import Claim, StateStore, open_state
from ..settings import Settings
from .telegram_render import (  # noqa: F401 - re-exported: rendering is imported from here
    ASK_PREFIX,
    BUTTON_TEXT_LIMIT,
    GENERAL_TOPIC_ID,
    MESSAGE_LIMIT,
    VOTE_PREFIX,
    _esc,
    answer_markup,
    candidate_question,
    keyboard,
    render_html,
    reply_thread_id,
    user_language,
)
from .telegram_typing import TYPING_EVERY_S, TypingIndicator  # noqa: F401 - re-exported

log = logging.getLogger("threadgraph.telegram")

__all__ = ["ASK_PREFIX", "BUTTON_TEXT_LIMIT", "GENERAL_TOPIC_ID", "MAX_SEND_RETRIES", "MESSAGE_LIMIT", "NON_TEXT",
           "TYPING_EVERY_S", "VOTE_PREFIX", "TelegramAdapter", "answer_markup", "answer_threads", "build_application",
           "candidate_question", "install", "keyboard", "render_html", "reply_thread_id", "user_language"]

MAX_SEND_RETRIES = 4
#: Non-text messages answered with "I read text questions" in private chats.
NON_TEXT = (filters.PHOTO | filters.Sticker.ALL | filters.VOICE | filters.AUDIO | filters.VIDEO
            | filters.VIDEO_NOTE | filters.ANIMATION | filters.Document.ALL | filters.LOCATION | filters.CONTACT)


class TelegramAdapter(TypingIndicator):
    """threadgraph's Telegram behaviour; its coroutine methods are PTB handler callbacks.

    ``bot`` is a ``ThreadGraphBot`` (``answer(IncomingMessage, retrieval) -> Answer``,
    ``reset(ThreadKey)``), called on a private pool of :func:`answer_threads` threads.
    ``state`` (reply-chain roots per ``(chat, message_id)``, handled update ids) defaults to
    :func:`~threadgraph.bot.state.open_state` of ``settings``. Call :meth:`aclose` when done
    (closes the typing client)."""

    def __init__(self, bot, settings: Settings | None = None, feedback: FeedbackStore | None = None,
                 state: StateStore | None = None):
        self.bot = bot
        self.settings = settings or getattr(bot, "settings", None) or Settings()
        self.state = state or open_state(self.settings)
        self._feedback = feedback
        self._answer_pool = ThreadPoolExecutor(max_workers=answer_threads(self.settings),
                                               thread_name_prefix="threadgraph-telegram")
        self._typing_bot: Bot | None = None
        self._typing_paused: dict[int, float] = {}  # chat id -> monotonic time typing may resume

    @property
    def feedback(self) -> FeedbackStore:
        """Where sent answers are recorded (so a "Sources" click, on any worker, can show their
        evidence): the state's feedback store unless given."""
        if self._feedback is None:
            self._feedback = self.state.feedback
        return self._feedback

    # -- thread keys ---------------------------------------------------------------------------

    def _remember_root(self, chat_id: int, message_id: int, root: int) -> None:
        self.state.set_reply_root(chat_id, message_id, root)

    def _root_of(self, chat_id: int, message_id: int) -> int:
        root = self.state.reply_root(chat_id, message_id)
        return message_id if root is None else root

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
        proceed, claim = await self._claim(update)
        if not proceed:
            return
        unfinished = [claim] if claim is not None else []
        try:
            await self._send(message, _esc(render.message("text_only", user_language(update))), update)
        finally:
            self._finish(update, unfinished)

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
                    await self._answer(update, context, question, message=message, user=query.from_user)
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

    async def _claim(self, update: Update) -> tuple[bool, str | None]:
        """Claim ``update`` in the shared state: ``(answer it?, claim key to finish)``. Waits
        (without blocking the loop) while another worker's lease lives, up to 3 leases. A state
        failure answers anyway, unclaimed (a duplicate is better than a lost answer)."""
        key = f"telegram:{update.get_bot().id}:update:{update.update_id}"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 3 * self.state.lease_s
        while True:
            try:
                got = self.state.claim_event(key)
            except Exception:  # noqa: BLE001
                log.warning("telegram update %s: state unavailable, answering without de-duplication",
                            update.update_id, exc_info=True)
                return True, None
            if got is Claim.NEW:
                return True, key
            if got is Claim.DONE:
                log.info("telegram update %s already handled", update.update_id)
                return False, None
            if loop.time() >= deadline:
                log.warning("telegram update %s still being answered elsewhere; left to that worker", update.update_id)
                return False, None
            await asyncio.sleep(0.2)

    async def _answer(self, update: Update, context: ContextTypes.DEFAULT_TYPE, text: str,
                      message: Message | None = None, user=None) -> None:
        """Answer ``text`` in reply to ``message`` (default: the update's message) for ``user``
        (default: its sender), once per update across workers (see :meth:`_claim`)."""
        proceed, claim = await self._claim(update)
        if not proceed:
            return
        unfinished = [claim] if claim is not None else []
        try:
            await self._answer_claimed(update, context, text, unfinished, message, user)
        finally:
            self._finish(update, unfinished)

    def _finish(self, update: Update, unfinished: list[str]) -> None:
        """Mark the claimed update handled (once: ``unfinished`` is emptied)."""
        while unfinished:
            claim = unfinished.pop()
            try:
                self.state.finish_event(claim)
            except Exception:  # noqa: BLE001 - the lease expires by itself
                log.exception("telegram update %s: could not be marked handled", update.update_id)

    async def _answer_claimed(self, update: Update, context: ContextTypes.DEFAULT_TYPE, text: str,
                              unfinished: list[str], message: Message | None = None, user=None) -> None:
        message = message or update.effective_message
        user = user or message.from_user
        key = self.thread_key(message)
        if key.thread and message.chat.type != ChatType.PRIVATE and not message.is_topic_message:
            self._remember_root(message.chat_id, message.message_id, int(key.thread))
        first_typing = asyncio.create_task(self._typing_once(context.bot, message))
        typing = asyncio.create_task(self._keep_typing(context.bot, message, first_typing))
        try:
            incoming = IncomingMessage(
                thread=key, user=str(user.id if user else ""), text=text.strip(),
                event_id=str(update.update_id), metadata={"platform": "telegram", "message_id": message.message_id})
            if not incoming.text:
                lang = render.language(user.language_code if user else None)
                chunks = [render.TelegramMessage(_esc(render.message("help", lang)))]
            else:
                answer = await asyncio.get_running_loop().run_in_executor(self._answer_pool, self.bot.answer, incoming)
                answer_id = None
                try:
                    answer_id = await asyncio.to_thread(self.feedback.record_answer, answer, key)
                except Exception:  # noqa: BLE001 - the answer still goes out, without its buttons
                    log.warning("telegram update %s: answer not recorded", update.update_id, exc_info=True)
                chunks = render.telegram_messages(render.cap_answer(answer), answer_id, MESSAGE_LIMIT)
                if chunks and answer_id:
                    chunks[-1].reply_markup = answer_markup(answer, answer_id, chunks[-1].reply_markup)
        except Exception:  # noqa: BLE001
            log.exception("telegram update %s (thread %s) failed in the core", update.update_id, key.key())
            chunks = [render.TelegramMessage(_esc(render.APOLOGY_TEXT))]
        finally:
            await self._settle_typing(first_typing)
            typing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await typing
        try:
            for chunk in chunks:
                sent = await self._send(message, chunk.html, update, keyboard(chunk.reply_markup))
                if sent is not None:
                    # at once: a reply to this part may arrive before the next part is out
                    self._remember_roots(update, message, key, [sent.message_id])
        except Exception:  # noqa: BLE001
            log.exception("telegram update %s (thread %s): reply could not be delivered", update.update_id,
                          key.key())
        # handled as soon as the reply is out: a worker dying now must not have it answered again
        self._finish(update, unfinished)

    def _remember_roots(self, update: Update, message: Message, key: ThreadKey, sent_ids: list[int]) -> None:
        """Record that our messages ``sent_ids`` belong to the reply chain of ``key`` (plain
        groups only), so a reply to one of them continues that thread's memory."""
        if key.thread and not message.is_topic_message and message.chat.type != ChatType.PRIVATE:
            try:
                for mid in sent_ids:
                    self._remember_root(message.chat_id, mid, int(key.thread))
            except Exception:  # noqa: BLE001 - a reply to this answer then starts a new thread
                log.exception("telegram update %s: reply roots could not be stored", update.update_id)

    async def _send(self, message: Message, html_text: str, update: Update,
                    reply_markup: InlineKeyboardMarkup | None = None) -> Message | None:
        """Reply with ``html_text`` (already escaped HTML) in the message's chat/topic (never
        the General topic's id 1), quoting in groups, with ``reply_markup`` when given; waits out ``RetryAfter`` up to
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


def answer_threads(settings: Settings) -> int:
    """Threads answering at once in one process: ``settings.answer_threads``, or when 0, 1 without
    an LLM (answers are CPU-bound and the GIL runs one at a time: more threads only add switching
    and delay the event loop, e.g. recording a sent reply) and 16 with one (answers wait on it)."""
    return settings.answer_threads or (16 if settings.llm_enabled else 1)


def _strip_mention(text: str, username: str) -> str:
    import re

    return re.sub(rf"@{re.escape(username)}\b", "", text, flags=re.IGNORECASE).strip()


def install(application: Application, bot, settings: Settings | None = None, group: int = 1,
            commands: bool = True, block: bool = False, state: StateStore | None = None) -> TelegramAdapter:
    """Add threadgraph's handlers to an existing PTB ``Application``; returns the adapter.

    Handlers go into handler ``group`` (default 1, so a catch-all text handler of the app in
    group 0 does not hide them and vice versa) and run non-blocking (``block=False``), so one
    slow answer never holds up other updates; ``block=True`` makes
    ``application.process_update`` return only after the answer is sent (a webhook that
    acknowledges after answering). ``commands=False`` skips ``/start``, ``/help`` (keep the
    app's own) but still adds ``/ask`` and ``/reset``. Also adds the handlers of threadgraph's
    inline buttons ("Sources": ``threadgraph_sources:…``; votes and "did you mean":
    ``tgv:``/``tgq:``) and the "I read text questions" reply to non-text messages in private
    chats. ``settings`` defaults to ``bot.settings``, ``state`` to
    :func:`~threadgraph.bot.state.open_state` of it."""
    adapter = TelegramAdapter(bot, settings, state=state)
    handlers = [
        CommandHandler("ask", adapter.on_ask, block=block),
        CommandHandler("reset", adapter.on_reset, block=block),
        MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT & ~filters.COMMAND, adapter.on_text, block=block),
        MessageHandler(filters.UpdateType.MESSAGE & filters.ChatType.PRIVATE & NON_TEXT, adapter.on_non_text,
                       block=block),
        CallbackQueryHandler(adapter.on_sources, pattern=f"^{render.SOURCES_CALLBACK}", block=block),
        CallbackQueryHandler(adapter.on_button, pattern=rf"^(?:{VOTE_PREFIX}|{ASK_PREFIX}):", block=block),
    ]
    if commands:
        handlers += [CommandHandler("start", adapter.on_start, block=block),
                     CommandHandler("help", adapter.on_help, block=block)]
    application.add_handlers(handlers, group=group)
    application.bot_data["threadgraph_adapter"] = adapter
    return adapter


def build_application(bot, settings: Settings | None = None, updater: bool = True,
                      state: StateStore | None = None) -> Application:
    """A fresh PTB ``Application`` for ``settings.telegram_bot_token`` with threadgraph installed.

    Points at ``{settings.telegram_api_url}/bot`` (files at ``.../file/bot``), waits out 429s
    via ``AIORateLimiter(max_retries=3)`` (unless ``settings.telegram_rate_limit`` is off),
    processes updates concurrently and logs failed updates with their id. ``updater=False``
    builds it without an ``Updater`` for a webhook served by our own HTTP server, with blocking
    handlers (``process_update`` returns once the answer is sent). Raises ``ValueError`` when
    ``TELEGRAM_BOT_TOKEN`` is missing."""
    settings = settings or getattr(bot, "settings", None) or Settings()
    if settings.telegram_bot_token is None:
        raise ValueError("TELEGRAM_BOT_TOKEN is not set")
    root = settings.telegram_api_url.rstrip("/")
    builder = (Application.builder()
               .token(settings.telegram_bot_token.get_secret_value())
               .base_url(f"{root}/bot")
               .base_file_url(f"{root}/file/bot")
               .concurrent_updates(True))
    if settings.telegram_rate_limit:
        builder = builder.rate_limiter(AIORateLimiter(max_retries=3))
    if not updater:
        builder = builder.updater(None)
    application = builder.build()
    adapter = install(application, bot, settings, block=not updater, state=state)
    application.add_error_handler(adapter.on_error)
    return application
