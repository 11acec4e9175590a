"""Slack adapter (slack-bolt): threadgraph as a plugin on a Bolt ``App``, or a standalone app.

Two entry points:

* :func:`install` mounts threadgraph on an existing ``slack_bolt.App`` (the team's own
  listeners and middleware keep working) and returns the :class:`SlackAdapter`;
* :func:`create_app` builds a fresh ``App`` (HTTP Events API with the signing secret, or Socket
  Mode when ``SLACK_APP_TOKEN`` is set, see :mod:`threadgraph.adapters.serve`) and installs
  threadgraph on it.

Behaviour: answers ``app_mention`` events in channels and every message in DMs, always in the
thread (``thread_ts``, else ``ts``); keeps answering later messages in a thread it joined without a
new mention (``settings.slack_follow_threads``); acknowledges at once and answers on a background
thread pool, showing a placeholder message that is then updated with the answer; ignores its own
and other bots' messages; answers a retried delivery (same ``event_id``) once; joined threads,
handled event ids and recorded answers live in the shared state (:mod:`threadgraph.bot.state`), so
they survive a restart and are shared by every worker; renders the
:class:`~threadgraph.bot.answer.Answer` as Block Kit, answer first (text, at most three linked sources,
follow-ups) with a "Sources" button (the full evidence, posted to the clicking user only) and 👍/👎
buttons whose clicks are stored by the state's feedback store; honours
``settings.slack_channel_allowlist``.


Delivery (one path for :func:`install` and :func:`create_app`): a long answer is split into
several messages within Slack's limits — at most 3,000 characters per section, 50 blocks and
:data:`MESSAGE_TEXT_BUDGET` characters of block text per message (Slack refuses a message whose
blocks hold ~11-13k characters with ``msg_blocks_too_long``); the "thinking…" placeholder becomes
the first part and the rest follow in the thread. Every Web API call of the delivery waits out HTTP
429 ``Retry-After`` (slack-sdk's ``RateLimitErrorRetryHandler`` on a copy of the request's client,
so the team's own client is left as it is). A delivery that still fails replaces the placeholder
with an apology. The answer text is capped at :data:`~threadgraph.adapters.render.MAX_ANSWER_CHARS`.
Bolt's log line for a request with a bad signature is rewritten without the request body.

Block Kit rendering lives in :mod:`threadgraph.adapters.slack_render`; its public names are
importable from here.
"""

from __future__ import annotations

import copy
import logging
import re
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

from slack_bolt import App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

from . import render
from ..bot.feedback import FeedbackStore
from ..bot.message import IncomingMessage, ThreadKey
from ..bot.state import Claim, StateStore, open_state
from ..settings import Settings
from .slack_render import (  # noqa: F401 - re-exported: rendering is imported from here
    CONTEXT_ELEMENTS,
    MAX_BLOCKS,
    MESSAGE_TEXT_BUDGET,
    SECTION_LIMIT,
    escape,
    render_answer,
    text_message,
    unescape,
    vote_block,
)

log = logging.getLogger("threadgraph.slack")

__all__ = ["ACCEPTED_SUBTYPES", "CONTEXT_ELEMENTS", "MAX_BLOCKS", "MESSAGE_TEXT_BUDGET", "PLACEHOLDER_TEXT",
           "RATE_LIMIT_RETRIES", "SECTION_LIMIT", "VOTE_ACTION_RE", "SlackAdapter", "create_app", "delivery_client",
           "escape", "install", "quiet_rejected_bodies", "render_answer", "text_message", "unescape", "vote_block"]

#: Times one Web API call of a delivery is retried after HTTP 429 (waiting ``Retry-After`` each time).
RATE_LIMIT_RETRIES = 5
VOTE_ACTION_RE = re.compile(r"^threadgraph_vote_(up|down)$")
PLACEHOLDER_TEXT = ":hourglass_flowing_sand: _thinking…_"
ACCEPTED_SUBTYPES = {None, "file_share", "thread_broadcast"}


def delivery_client(client: WebClient, retries: int = RATE_LIMIT_RETRIES) -> WebClient:
    """A copy of ``client`` (same token, base URL, timeout, proxy, headers) whose retry handlers
    also wait out HTTP 429 ``Retry-After`` up to ``retries`` times (slack-sdk's
    ``RateLimitErrorRetryHandler``). ``client`` itself is not changed."""
    out = copy.copy(client)
    handlers = [h for h in (client.retry_handlers or []) if not isinstance(h, RateLimitErrorRetryHandler)]
    out.retry_handlers = handlers + [RateLimitErrorRetryHandler(max_retry_count=retries)]
    return out


class _QuietRejectedBodies(logging.Filter):
    """Rewrites Bolt's "Invalid request signature detected (…, body: …)" log line without the
    request body (user text, up to the server's size limit). Never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.msg if isinstance(record.msg, str) else ""
        if msg.startswith("Invalid request signature detected"):
            record.msg, record.args = "Invalid request signature detected (request body not logged)", ()
        return True


_QUIET_BODIES = _QuietRejectedBodies()


def quiet_rejected_bodies() -> None:
    """Attach the filter that keeps rejected request bodies out of Bolt's log (idempotent)."""
    lg = logging.getLogger("slack_bolt.RequestVerification")
    if _QUIET_BODIES not in lg.filters:
        lg.addFilter(_QUIET_BODIES)


# ---------------------------------------------------------------------------------------------
# The adapter


@dataclass
class _Job:
    event_id: str
    key: ThreadKey
    channel: str
    thread_ts: str
    user: str
    text: str
    retry_num: str = ""
    claims: tuple[str, ...] = ()


class SlackAdapter:
    """threadgraph's Slack behaviour, independent of how the ``App`` receives requests.

    ``bot`` is a ``ThreadGraphBot`` (anything with ``answer(IncomingMessage, retrieval) ->
    Answer`` and ``reset(ThreadKey)``); ``state`` (joined threads, handled event ids) defaults
    to :func:`~threadgraph.bot.state.open_state` of ``settings``, ``feedback`` to the state's.
    Answers run on a private thread pool of ``max_workers``; call :meth:`drain` to wait for
    in-flight answers (SIGTERM)."""

    def __init__(self, bot, settings: Settings | None = None, feedback: FeedbackStore | None = None,
                 max_workers: int = 8, state: StateStore | None = None):
        self.bot = bot
        self.settings = settings or getattr(bot, "settings", None) or Settings()
        self.state = state or open_state(self.settings)
        self.feedback = feedback or self.state.feedback
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="threadgraph-slack")
        self._inflight: set[Future] = set()
        self._inflight_lock = threading.Lock()
        self._closed = False

    # -- request side (runs inside Bolt's dispatch: must be quick) --------------------------

    def on_request(self, body: dict, context: BoltContext, headers: dict | None = None) -> None:
        """Inspect one incoming request body; when it is an event threadgraph answers, queue the
        answer on the thread pool. Never raises (a failure is logged with the event id)."""
        try:
            if body.get("type") != "event_callback":
                return
            job = self._job_for(body, context, headers or {})
            if job is None:
                return
            if self._closed:
                log.warning("slack event %s dropped: adapter is shutting down", job.event_id)
                for claim in job.claims:  # another worker may answer a re-delivery
                    self.state.release_event(claim)
                return
            client = context.client
            fut = self._pool.submit(self._run_job, job, client)
            with self._inflight_lock:
                self._inflight.add(fut)
            fut.add_done_callback(self._done)
        except Exception:  # noqa: BLE001 - one bad event must not break the app
            log.exception("slack event %s could not be handled", body.get("event_id", "?"))

    def _done(self, fut: Future) -> None:
        with self._inflight_lock:
            self._inflight.discard(fut)

    def _job_for(self, body: dict, context: BoltContext, headers: dict) -> _Job | None:
        event = body.get("event") or {}
        etype = event.get("type")
        if etype not in ("app_mention", "message"):
            return None
        event_id = body.get("event_id", "")
        bot_user_id = context.bot_user_id or ""
        # never answer bots (including ourselves)
        if event.get("bot_id") or event.get("subtype") == "bot_message":
            return None
        if event.get("subtype") not in ACCEPTED_SUBTYPES:
            return None
        user = event.get("user", "")
        if not user or (bot_user_id and user == bot_user_id):
            return None
        channel = event.get("channel", "")
        channel_type = event.get("channel_type", "")
        text = event.get("text") or ""
        thread_ts = event.get("thread_ts") or event.get("ts", "")
        mention = f"<@{bot_user_id}" if bot_user_id else None
        team = body.get("team_id") or event.get("team") or context.team_id or ""

        if etype == "message":
            if channel_type == "im":
                pass  # every DM message
            elif (self.settings.slack_follow_threads and event.get("thread_ts")
                  and not (mention and mention in text)
                  and self.state.is_joined(f"slack:{team}:{channel}:{event['thread_ts']}")):
                pass  # a later message in a thread we joined (a mention comes as app_mention too)
            else:
                return None
        if channel_type != "im" and self.settings.slack_channel_allowlist \
                and channel not in self.settings.slack_channel_allowlist:
            log.debug("slack event %s in channel %s ignored: not on the allowlist", event_id, channel)
            return None
        # a retried delivery carries the same event_id; a mention also arrives as message.*
        keys = ([f"slack:event:{event_id}"] if event_id else []) + [f"slack:msg:{team}:{channel}:{event.get('ts', '')}"]
        claims: list[str] = []
        for claim in keys:
            got = self.state.claim_event(claim)
            if got is not Claim.NEW:
                log.info("slack event %s already %s (retry %s)", event_id or "-",
                         "handled" if got is Claim.DONE else "being answered",
                         _header(headers, "x-slack-retry-num") or "-")
                for held in claims:  # the other key stays answered by whoever holds it
                    self.state.release_event(held)
                return None
            claims.append(claim)
        if bot_user_id:
            text = re.sub(rf"<@{re.escape(bot_user_id)}(\|[^>]*)?>", "", text)
        text = unescape(text).strip()
        key = ThreadKey(platform="slack", workspace=team, channel=channel, thread=thread_ts)
        return _Job(event_id=event_id, key=key, channel=channel, thread_ts=thread_ts, user=user,
                    text=text, retry_num=_header(headers, "x-slack-retry-num"), claims=tuple(claims))

    # -- work side (thread pool) ------------------------------------------------------------

    def _run_job(self, job: _Job, client: WebClient) -> None:
        client = delivery_client(client)
        try:
            self._answer_job(job, client)
        finally:
            for claim in job.claims:
                try:
                    self.state.finish_event(claim)
                except Exception:  # noqa: BLE001 - the lease expires by itself
                    log.exception("slack event %s: could not be marked handled", job.event_id)

    def _answer_job(self, job: _Job, client: WebClient) -> None:
        try:
            self.state.join_thread(f"slack:{job.key.workspace}:{job.channel}:{job.thread_ts}")
        except Exception:  # noqa: BLE001 - answering matters more than following the thread
            log.exception("slack event %s: thread could not be marked joined", job.event_id)
        placeholder_ts = None
        try:
            resp = client.chat_postMessage(channel=job.channel, thread_ts=job.thread_ts, text=PLACEHOLDER_TEXT)
            placeholder_ts = resp.get("ts")
        except Exception:  # noqa: BLE001
            log.warning("slack event %s: placeholder could not be posted", job.event_id, exc_info=True)
        try:
            if not job.text:
                answer_msgs = [text_message(render.HELP_TEXT)]
            else:
                msg = IncomingMessage(thread=job.key, user=job.user, text=job.text, event_id=job.event_id,
                                      metadata={"platform": "slack"})
                answer = self.bot.answer(msg)
                answer_id = self.feedback.record_answer(answer, job.key)
                answer_msgs = render_answer(answer, answer_id)
        except Exception:  # noqa: BLE001
            log.exception("slack event %s (thread %s) failed in the core", job.event_id, job.key.key())
            answer_msgs = [text_message(render.APOLOGY_TEXT)]
        self.deliver(client, job.channel, job.thread_ts, placeholder_ts, answer_msgs, job.event_id)

    def deliver(self, client: WebClient, channel: str, thread_ts: str, placeholder_ts: str | None,
                messages: list[dict], event_id: str = "") -> bool:
        """Send ``messages`` (``{"text", "blocks"}`` dicts, see :func:`render_answer`) in the
        thread ``thread_ts`` of ``channel``: the first replaces the placeholder ``placeholder_ts``
        (``chat.update``; posted when there is none), the others are posted in order. ``client``
        should come from :func:`delivery_client` (429 waited out). When a part cannot be
        delivered the rest is dropped, and the placeholder, if still showing "thinking…", becomes
        an apology. Returns True when every part arrived. Never raises."""
        for i, m in enumerate(messages):
            try:
                if i == 0 and placeholder_ts:
                    client.chat_update(channel=channel, ts=placeholder_ts, text=m["text"], blocks=m["blocks"])
                else:
                    client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=m["text"], blocks=m["blocks"])
            except Exception as exc:  # noqa: BLE001
                error = exc.response.get("error") if isinstance(exc, SlackApiError) else type(exc).__name__
                log.error("slack event %s: part %d/%d of the reply could not be delivered (%s)", event_id,
                          i + 1, len(messages), error)
                if i == 0 and placeholder_ts:
                    apology = text_message(render.APOLOGY_TEXT)
                    try:
                        client.chat_update(channel=channel, ts=placeholder_ts, text=apology["text"],
                                           blocks=apology["blocks"])
                    except Exception:  # noqa: BLE001
                        log.error("slack event %s: the placeholder could not be replaced", event_id)
                return False
        return True

    # -- votes --------------------------------------------------------------------------------

    def on_vote(self, body: dict) -> None:
        """Store a 👍/👎 click (a ``block_actions`` payload). Never raises."""
        try:
            action = (body.get("actions") or [{}])[0]
            vote = 1 if action.get("action_id") == "threadgraph_vote_up" else -1
            user = (body.get("user") or {}).get("id", "")
            channel = (body.get("channel") or {}).get("id", "")
            message = body.get("message") or {}
            team = (body.get("team") or {}).get("id", "")
            thread_ts = message.get("thread_ts") or message.get("ts", "")
            key = ThreadKey(platform="slack", workspace=team, channel=channel, thread=thread_ts)
            self.feedback.vote(action.get("value", ""), vote, user, key)
            log.info("slack vote %+d on answer %s in thread %s", vote, action.get("value"), key.key())
        except Exception:  # noqa: BLE001
            log.exception("slack vote could not be stored")

    def on_sources(self, body: dict, client: WebClient) -> None:
        """A "Sources" click (``block_actions``): post the answer's full evidence
        (:func:`~threadgraph.adapters.render.slack_sources_blocks`) to the clicking user only
        (``chat.postEphemeral``, in the answer's thread). Never raises."""
        try:
            action = (body.get("actions") or [{}])[0]
            answer = self.feedback.answer(action.get("value", ""))
            channel = (body.get("channel") or {}).get("id", "")
            user = (body.get("user") or {}).get("id", "")
            message = body.get("message") or {}
            thread_ts = message.get("thread_ts") or message.get("ts")
            if answer is None:
                blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": escape(
                    "These sources are no longer available. (来源已不可用。)")}}]
            else:
                blocks = render.slack_sources_blocks(answer)
            client.chat_postEphemeral(channel=channel, user=user, thread_ts=thread_ts,
                                      text=blocks[0]["text"]["text"][:SECTION_LIMIT], blocks=blocks)
        except Exception:  # noqa: BLE001
            log.exception("slack sources could not be shown")

    # -- lifecycle ------------------------------------------------------------------------------

    def drain(self, timeout: float = 30.0) -> bool:
        """Stop accepting events and wait up to ``timeout`` seconds for in-flight answers.

        Returns True when everything finished in time."""
        self._closed = True
        with self._inflight_lock:
            pending = list(self._inflight)
        done, not_done = wait(pending, timeout=timeout)
        self._pool.shutdown(wait=False, cancel_futures=True)
        return not not_done

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait (without closing) until no answer is in flight; for tests and drains."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._inflight_lock:
                if not self._inflight:
                    return True
            time.sleep(0.01)
        return False


def _header(headers: dict, name: str) -> str:
    v = headers.get(name) or headers.get(name.title()) or ""
    if isinstance(v, (list, tuple)):
        v = v[0] if v else ""
    return str(v)


def install(app: App, bot, settings: Settings | None = None, feedback: FeedbackStore | None = None,
            state: StateStore | None = None) -> SlackAdapter:
    """Mount threadgraph on an existing Bolt ``App``; returns the :class:`SlackAdapter`.

    Adds one global middleware (it queues the answer and always calls ``next()``, so the app's
    own middleware and listeners still run), quiet fallback listeners for ``app_mention`` and
    ``message`` events that only acknowledge when no other listener of the app matches, the
    ``threadgraph_vote_up``/``threadgraph_vote_down`` action listener and the
    ``threadgraph_sources`` action listener (the "Sources" button). ``settings`` defaults to
    ``bot.settings``; ``state`` and ``feedback`` as in :class:`SlackAdapter`. Replies go through a
    copy of the request's client (the app's token) that waits out HTTP 429
    (:func:`delivery_client`); the app's client is not changed. Bolt's log line for a request with
    a bad signature no longer carries the request body."""
    adapter = SlackAdapter(bot, settings or getattr(bot, "settings", None), feedback, state=state)
    quiet_rejected_bodies()

    def threadgraph_middleware(body, context, request, next):  # noqa: A002 - Bolt's argument name
        adapter.on_request(body, context, getattr(request, "headers", {}) or {})
        return next()

    app.use(threadgraph_middleware)

    mine: list = []  # threadgraph's own fallback listeners

    def unclaimed(body) -> bool:
        # match only when none of the app's other listeners claims this event
        return not _others_match(app, body, mine)

    def _ack_only(ack):
        ack()

    for event_type in ("app_mention", "message"):
        app.event(event_type, matchers=[unclaimed])(_ack_only)
        mine.append(app._listeners[-1])  # the listener just registered

    def threadgraph_vote(ack, body):
        ack()
        adapter.on_vote(body)

    app.action(VOTE_ACTION_RE)(threadgraph_vote)

    def threadgraph_sources(ack, body, client):
        ack()
        adapter.on_sources(body, client)

    app.action(render.SOURCES_ACTION)(threadgraph_sources)
    app.threadgraph_adapter = adapter  # type: ignore[attr-defined]
    return adapter


def _others_match(app: App, body: dict, mine: list) -> bool:
    """True when a listener of ``app`` other than ``mine`` matches this request."""
    from slack_bolt.request import BoltRequest
    from slack_bolt.response import BoltResponse

    try:
        req = BoltRequest(body=body, mode="socket_mode")
        resp = BoltResponse(status=200)
        for listener in getattr(app, "_listeners", []):
            if listener in mine:
                continue
            if listener.matches(req=req, resp=resp):
                return True
    except Exception:  # noqa: BLE001
        return False
    return False


def create_app(bot, settings: Settings | None = None, feedback: FeedbackStore | None = None,
               state: StateStore | None = None) -> App:
    """A fresh Bolt ``App`` with threadgraph installed (the standalone form).

    The app's Web API client uses ``settings.slack_bot_token`` and ``settings.slack_api_url``;
    ``auth.test`` is called once here, so a bad token fails at start. HTTP requests are verified
    with ``settings.slack_signing_secret`` (Socket Mode needs no signing secret). Replies take the
    same delivery path as :func:`install` (429 waited out there). The adapter is
    ``app.threadgraph_adapter``.

    Raises ``ValueError`` when ``SLACK_BOT_TOKEN`` is missing, or ``SLACK_SIGNING_SECRET`` for the
    HTTP Events API; ``slack_sdk.errors.SlackApiError`` when ``auth.test`` fails."""
    settings = settings or getattr(bot, "settings", None) or Settings()
    if settings.slack_bot_token is None:
        raise ValueError("SLACK_BOT_TOKEN is not set")
    signing = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else ""
    socket_mode = settings.slack_app_token is not None
    if not signing and not socket_mode:
        raise ValueError("SLACK_SIGNING_SECRET is required for the HTTP Events API (or set SLACK_APP_TOKEN)")
    # The token is given as `token` (not inside a `client`): Bolt reads SLACK_BOT_TOKEN from the
    # environment by itself and warns "`token` will be unused" when a client is given as well.
    # Its own client then gets our API URL; auth.test runs here against that URL (not at import).
    app = App(token=settings.slack_bot_token.get_secret_value(), signing_secret=signing or "unused-in-socket-mode",
              request_verification_enabled=not (socket_mode and not signing), token_verification_enabled=False,
              process_before_response=True, name="threadgraph")
    app.client.base_url = settings.slack_api_url if settings.slack_api_url.endswith("/") else settings.slack_api_url + "/"
    app.client.auth_test()
    install(app, bot, settings, feedback, state)
    return app
