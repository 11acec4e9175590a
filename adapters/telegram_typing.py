"""The typing indicator of :class:`~threadgraph.adapters.telegram.TelegramAdapter` (a mixin):
best effort, sent in the background through a ``telegram.Bot`` of its own (no rate limiter, short
timeouts), so a 429 on ``sendChatAction`` neither delays the answer nor pauses the application's
rate limiter; after a 429 that chat gets no typing until the ``retry_after`` has passed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from telegram import Bot, Message
from telegram.constants import ChatAction
from telegram.error import RetryAfter
from telegram.request import HTTPXRequest

from .telegram_render import reply_thread_id

log = logging.getLogger("threadgraph.telegram")

TYPING_EVERY_S = 4.5
#: Seconds the reply waits at most for the first typing action still in flight.
TYPING_SETTLE_S = 0.5


class TypingIndicator:
    """Mixin of :class:`~threadgraph.adapters.telegram.TelegramAdapter`: :meth:`_keep_typing`
    shows "typing…" while an answer is computed. Uses the host's ``_typing_bot`` (``Bot | None``,
    created on first use; the host's ``aclose`` shuts it down) and ``_typing_paused`` (chat id ->
    monotonic time typing may resume), both set in the host's ``__init__``."""

    _typing_bot: Bot | None
    _typing_paused: dict[int, float]

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

    async def _keep_typing(self, bot: Bot, message: Message, first: "asyncio.Task | None" = None) -> None:
        """Typing now (or, given, after the ``first`` send already under way) and every
        ``TYPING_EVERY_S`` until cancelled (runs beside the answer)."""
        try:
            if first is not None:
                await asyncio.shield(first)
                await asyncio.sleep(TYPING_EVERY_S)
            while True:
                await self._typing_once(bot, message)
                await asyncio.sleep(TYPING_EVERY_S)
        except asyncio.CancelledError:
            pass

    @staticmethod
    async def _settle_typing(first: "asyncio.Task", timeout: float = TYPING_SETTLE_S) -> None:
        """Let the first typing action land before the reply (so "typing…" never shows after
        the answer), waiting at most ``timeout`` seconds: a slow typing call never holds up an
        answer longer than that, and a flood-limited one returns at once."""
        if not first.done():
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(first), timeout)
