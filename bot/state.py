"""Conversation state shared across events, restarts and workers: one interface, two backends.

Everything a conversation needs beyond the event being handled:

* **thread memory** — :class:`~threadgraph.bot.memory.ThreadState` (turns, named entities, the
  filled slots and constraints such as an excluded ingredient), keyed by ``ThreadKey.key()``,
  forgotten ``memory_ttl_s`` seconds after the last update: :attr:`StateStore.memory`;
* **processed events** — Slack ``event_id`` (and channel/ts), Telegram ``update_id``: a claim
  holding a *lease* while one process answers, then *done* for ``event_ttl_s`` seconds
  (:meth:`StateStore.claim_event`, :meth:`StateStore.finish_event`);
* **joined Slack threads** — follow-ups without a mention are answered there
  (:meth:`StateStore.join_thread`, :meth:`StateStore.is_joined`);
* **Telegram reply roots** — message id → root of its reply chain, so a reply to the bot's
  answer continues the conversation (:meth:`StateStore.set_reply_root`,
  :meth:`StateStore.reply_root`);
* **feedback** — the answers sent and the 👍/👎 votes on them: :attr:`StateStore.feedback`.

Backends (:func:`open_state` picks one from the settings):

* :class:`SQLiteState` — the embedded default, files in the data dir (``memory.sqlite``,
  ``feedback.sqlite``, ``state.sqlite``). WAL mode: any number of processes *on one machine*
  share them (``serve --workers N``).
* :class:`RedisState` — ``THREADGRAPH_STATE_URL=redis://[:password@]host:port/db`` (or
  ``rediss://``, ``unix://``), through the ``redis`` client; expiry is Redis's own (``PX`` on
  every key), claims are ``SET NX PX``. Workers on any number of machines share it.

Event claims are at-least-once with a lease: :meth:`~StateStore.claim_event` answers
:attr:`Claim.NEW` to exactly one caller (who then holds a lease of ``lease_s`` seconds, renewed
every ``lease_s / 3`` seconds by a background thread while the process lives),
:attr:`Claim.BUSY` to others while the lease lives, and :attr:`Claim.DONE` after
:meth:`~StateStore.finish_event`. When the holder dies (SIGKILL, machine loss) its lease
expires within ``lease_s`` seconds and a re-delivery of the event is claimed anew, so the
event is answered once — or, when the holder died between its reply reaching the platform and
``finish_event`` (milliseconds), twice.

The interface is in :mod:`threadgraph.bot.state_base`, the backends in
:mod:`threadgraph.bot.state_sqlite` and :mod:`threadgraph.bot.state_redis`; every name is
importable from here.
"""

from __future__ import annotations

import threading
from pathlib import Path

from .state_base import (  # noqa: F401 - re-exported: the interface is imported from here
    SCHEMES_REDIS,
    Claim,
    MemoryStore,
    StateStore,
    StateUnavailable,
    VoteStore,
    redact_url,
)
from .state_redis import RedisFeedback, RedisMemory, RedisState  # noqa: F401 - re-exported
from .state_sqlite import SQLiteState  # noqa: F401 - re-exported

__all__ = ["SCHEMES_REDIS", "Claim", "MemoryStore", "RedisFeedback", "RedisMemory", "RedisState", "SQLiteState",
           "StateStore", "StateUnavailable", "VoteStore", "open_state", "redact_url"]

_shared: dict[tuple, StateStore] = {}
_shared_lock = threading.Lock()


def open_state(settings, *, shared: bool = True) -> StateStore:
    """The state store configured by ``settings``: :class:`RedisState` when
    ``settings.state_url`` is set (``redis://``, ``rediss://`` or ``unix://``), else
    :class:`SQLiteState` in ``settings.data_dir``. TTLs come from ``memory_ttl_days``,
    ``memory_max_turns``, ``state_event_ttl_s`` and ``state_lease_s``.

    With ``shared`` (default) one store is kept per configuration in this process, so the core
    and the adapters share connections and one lease renewer. Opening connects to nothing (call
    :meth:`StateStore.ping` to check). Raises :class:`StateUnavailable` for an unsupported URL
    scheme or a malformed URL (the password never appears in the message)."""
    url = settings.state_url.get_secret_value() if getattr(settings, "state_url", None) else ""
    common = dict(memory_ttl_s=settings.memory_ttl_days * 86400, max_turns=settings.memory_max_turns,
                  event_ttl_s=settings.state_event_ttl_s, lease_s=settings.state_lease_s)
    if url:
        scheme = url.split("://", 1)[0].lower() if "://" in url else ""
        if scheme not in SCHEMES_REDIS:
            raise StateUnavailable(f"THREADGRAPH_STATE_URL {redact_url(url)}: unsupported scheme {scheme!r} "
                                   "(redis://, rediss:// or unix://; unset for SQLite in the data dir)")
        ident = ("redis", url, settings.state_key_prefix, *common.values())

        def make() -> StateStore:
            return RedisState(url, prefix=settings.state_key_prefix,
                              answer_ttl_s=settings.feedback_ttl_days * 86400, **common)
    else:
        ident = ("sqlite", str(Path(settings.data_dir).resolve()), *common.values())

        def make() -> StateStore:
            return SQLiteState(settings.data_dir, **common)

    if not shared:
        return make()
    with _shared_lock:
        store = _shared.get(ident)
        if store is None or store._stop.is_set():
            store = _shared[ident] = make()
        return store
