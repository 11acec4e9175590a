"""Serving threadgraph on Slack and Telegram from one process (used by ``threadgraph serve``).

Entry point for the CLI::

    serve(bot, settings, platforms=("slack", "telegram"), role="all", host="0.0.0.0", port=None)

* ``platforms``: any of ``"slack"``, ``"telegram"``; ``"all"`` (or both names) serves every platform
  whose token is configured. A platform named explicitly without its token raises ``ValueError``.
* ``role``: which transports this process runs —
  ``"http"`` (Procfile ``web:``): the HTTP endpoints only — Slack Events API (when no
  ``SLACK_APP_TOKEN``) at ``POST /slack/events`` and the Telegram webhook (when
  ``THREADGRAPH_TELEGRAM_WEBHOOK_URL`` is set) at the URL's path (default ``/telegram/webhook``);
  ``"worker"`` (Procfile ``worker:``): Slack Socket Mode (when ``SLACK_APP_TOKEN`` is set) and
  Telegram long polling (when no webhook URL); ``"all"`` (default): both, whatever is configured.
  A web and a worker process started from the same configuration never serve the same platform
  twice. When a role has nothing to serve, ``serve`` logs that and returns.
* ``port``: HTTP port; default ``$PORT``, else ``settings.slack_port`` (Slack over HTTP) or
  ``settings.telegram_port``. ``GET /healthz`` answers ``ok``; ``GET /status`` a JSON object
  (``pid``, ``worker``, ``kb`` build id, ``state`` backend without password).

The Telegram webhook acknowledges an update only once its answer is sent: a worker that dies
mid-answer leaves the update to Telegram's re-delivery, and the shared state
(:mod:`threadgraph.bot.state`) answers it once. All conversation state lives there, so ``http``
processes are stateless with ``THREADGRAPH_STATE_URL`` (Redis): run any number behind a load
balancer, or :func:`serve_workers` (``threadgraph serve --workers N``, in
:mod:`threadgraph.adapters.workers`, importable from here) on one machine.
* ``insecure_webhook``: the Telegram webhook refuses to start without
  ``THREADGRAPH_TELEGRAM_WEBHOOK_SECRET`` (anyone who finds the URL could post forged updates
  and make the bot message any chat); ``True`` (CLI ``--insecure-webhook``) starts it anyway,
  with a warning.

A token the platform rejects at start (Telegram ``getMe``, Slack ``auth.test``) is reported as a
``ValueError`` naming the setting, never with the SDK's exception text (python-telegram-bot's
says "The token `<token>` was rejected").

SIGTERM / SIGINT stop intake, drain in-flight answers (up to ``drain_timeout`` seconds) and return.
One failing update never stops the process (the adapters answer with an apology and log the
traceback with the event/update id). Secret values from ``settings`` are redacted from log output.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import re
import signal
import threading
from dataclasses import dataclass, field
from urllib.parse import urlparse

from aiohttp import web

from ..bot.state import open_state
from ..settings import SecretRedactor, Settings
from .workers import serve_workers  # noqa: F401 - re-exported: ``threadgraph serve --workers`` imports it from here

log = logging.getLogger("threadgraph.serve")

ROLES = ("all", "http", "worker")
#: What Telegram accepts as a webhook secret token.
WEBHOOK_SECRET_RE = re.compile(r"[A-Za-z0-9_-]{1,256}")


def install_log_redaction(settings: Settings) -> SecretRedactor:
    """Attach a :class:`~threadgraph.settings.SecretRedactor` for the secrets of ``settings`` to
    every root handler (once: a handler that already redacts these secrets is left alone), and
    quiet ``httpx`` (it logs request URLs, which contain the Telegram token) to WARNING. Returns
    the filter."""
    flt = SecretRedactor.for_settings(settings)
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for h in root.handlers:
        if not any(isinstance(f, SecretRedactor) and f.secrets >= flt.secrets for f in h.filters):
            h.addFilter(flt)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    return flt


@dataclass
class Plan:
    """What one process serves: ``slack`` is ``None``/``"http"``/``"socket"``, ``telegram`` is
    ``None``/``"webhook"``/``"polling"``."""

    slack: str | None = None
    telegram: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def needs_http(self) -> bool:
        """True when this process serves an HTTP endpoint (Slack Events API or Telegram webhook)."""
        return self.slack == "http" or self.telegram == "webhook"

    @property
    def empty(self) -> bool:
        """True when there is nothing to serve."""
        return self.slack is None and self.telegram is None


def plan(settings: Settings, platforms=("all",), role: str = "all", worker_index: int = 0,
         insecure_webhook: bool = False) -> Plan:
    """Decide what to serve from ``settings``, ``platforms`` and ``role`` (see module doc).
    Worker ``worker_index`` > 0 of ``serve --workers N`` leaves Telegram long polling to worker 0
    (Telegram allows one poller per bot).

    Raises ``ValueError`` for an unknown platform or role, a platform named explicitly whose
    token is missing, or a Telegram webhook to serve without a valid
    ``THREADGRAPH_TELEGRAM_WEBHOOK_SECRET`` (1-256 of ``A-Z a-z 0-9 _ -``) unless
    ``insecure_webhook``."""
    if isinstance(platforms, str):
        platforms = (platforms,)
    names = set()
    for p in platforms:
        if p == "all":
            names |= {"slack", "telegram"}
        elif p in ("slack", "telegram"):
            names.add(p)
        else:
            raise ValueError(f"unknown platform {p!r} (slack, telegram or all)")
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r} ({', '.join(ROLES)})")
    explicit = "all" not in platforms
    result = Plan()
    if "slack" in names:
        if settings.slack_bot_token is None:
            if explicit:
                raise ValueError("serving Slack needs SLACK_BOT_TOKEN")
            result.notes.append("Slack skipped: SLACK_BOT_TOKEN not set")
        else:
            mode = "socket" if settings.slack_app_token is not None else "http"
            if mode == "http" and settings.slack_signing_secret is None:
                raise ValueError("Slack over HTTP needs SLACK_SIGNING_SECRET (or set SLACK_APP_TOKEN for Socket Mode)")
            if role == "all" or (role == "http") == (mode == "http"):
                result.slack = mode
            else:
                result.notes.append(f"Slack ({mode}) is served by the {'http' if mode == 'http' else 'worker'} role")
    if "telegram" in names:
        if settings.telegram_bot_token is None:
            if explicit:
                raise ValueError("serving Telegram needs TELEGRAM_BOT_TOKEN")
            result.notes.append("Telegram skipped: TELEGRAM_BOT_TOKEN not set")
        else:
            mode = "webhook" if settings.telegram_webhook_url else "polling"
            if mode == "polling" and worker_index > 0 and role != "http":
                result.notes.append(f"Telegram long polling runs in worker 0 only (this is worker {worker_index})")
            elif role == "all" or (role == "http") == (mode == "webhook"):
                result.telegram = mode
                secret = settings.telegram_webhook_secret.get_secret_value() if settings.telegram_webhook_secret else ""
                if mode == "webhook" and secret and not WEBHOOK_SECRET_RE.fullmatch(secret):
                    raise ValueError("THREADGRAPH_TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, "
                                     "0-9, _ and - (Telegram refuses others)")
                if mode == "webhook" and not secret:
                    if not insecure_webhook:
                        raise ValueError(
                            "the Telegram webhook needs THREADGRAPH_TELEGRAM_WEBHOOK_SECRET (a random token of "
                            "A-Z, a-z, 0-9, _ and -): without it anyone who finds the URL can post forged "
                            "updates. Pass --insecure-webhook to run without it anyway")
                    result.notes.append("WARNING: the Telegram webhook runs WITHOUT a secret token "
                                        "(--insecure-webhook): forged updates are accepted")
            else:
                result.notes.append(f"Telegram ({mode}) is served by the {'http' if mode == 'webhook' else 'worker'} role")
    return result


def webhook_path(settings: Settings) -> str:
    """The local path of the Telegram webhook (path of ``telegram_webhook_url``, default
    ``/telegram/webhook``)."""
    path = urlparse(settings.telegram_webhook_url or "").path
    return path if path and path != "/" else "/telegram/webhook"


class Server:
    """The running pieces of :func:`serve`, startable and stoppable from a running event loop
    (tests drive it directly). ``await start()`` then ``await stop()``; ``port`` is the bound
    HTTP port (``None`` without HTTP). ``worker_index`` (set by :func:`serve_workers`) binds
    the port with ``SO_REUSEPORT`` beside the other workers; only worker 0 sets the Telegram
    webhook and polls."""

    def __init__(self, bot, settings: Settings, platforms=("all",), role: str = "all",
                 host: str = "0.0.0.0", port: int | None = None, drain_timeout: float = 30.0,
                 worker_index: int | None = None, insecure_webhook: bool = False):
        self.bot, self.settings = bot, settings
        self.worker_index = worker_index
        self.plan = plan(settings, platforms, role, worker_index or 0, insecure_webhook)
        self.state = open_state(settings)
        self.host = host
        self.requested_port = port
        self.port: int | None = None
        self.drain_timeout = drain_timeout
        self.slack_app = None
        self.slack_adapter = None
        self.socket_handler = None
        self.application = None
        self._runner: web.AppRunner | None = None
        self._secret = (settings.telegram_webhook_secret.get_secret_value()
                        if settings.telegram_webhook_secret else "")

    # -- HTTP --------------------------------------------------------------------------------

    def web_app(self) -> web.Application:
        """The aiohttp app with ``POST /slack/events``, the Telegram webhook route and
        ``GET /healthz``."""
        app = web.Application(client_max_size=2 * 1024 * 1024)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/status", self._status)
        if self.plan.slack == "http":
            app.router.add_post("/slack/events", self._slack_events)
        if self.plan.telegram == "webhook":
            app.router.add_post(webhook_path(self.settings), self._telegram_webhook)
        return app

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def _status(self, request: web.Request) -> web.Response:
        kb = None
        try:
            handle = getattr(self.bot, "kb", None)
            if handle is not None:
                kb = (await asyncio.to_thread(handle.get)).build.name
        except Exception:  # noqa: BLE001 - status reports, never fails
            log.debug("status: no knowledge base", exc_info=True)
        return web.json_response({"pid": os.getpid(), "worker": self.worker_index, "kb": kb,
                                  "state": self.state.describe()})

    async def _slack_events(self, request: web.Request) -> web.Response:
        """``POST /slack/events``: the signature is checked on the raw bytes first (401 when it is
        missing or wrong), then the body is parsed (400 when it is not UTF-8, JSON or a form Bolt
        reads); only a signed, well-formed request reaches Bolt. A rejected request is logged as
        one line with its size, never with its body or a traceback."""
        from slack_bolt.request import BoltRequest
        from slack_sdk.signature import SignatureVerifier

        raw = await request.read()
        headers = {k.lower(): v for k, v in request.headers.items()}
        verifier = SignatureVerifier(self.settings.slack_signing_secret.get_secret_value())
        try:
            signed = verifier.is_valid(raw, headers.get("x-slack-request-timestamp"), headers.get("x-slack-signature"))
        except (ValueError, TypeError):  # e.g. a timestamp that is not a number
            signed = False
        if not signed:
            log.warning("slack events: request with a missing or invalid signature rejected (%d bytes)", len(raw))
            return web.json_response({"error": "invalid request"}, status=401)
        try:
            bolt_req = BoltRequest(body=raw.decode("utf-8"), query=request.query_string, headers=headers)
            if not isinstance(bolt_req.body, dict):
                raise ValueError("body is not an object")
        except Exception as exc:  # noqa: BLE001 - any parse failure is the client's fault
            log.warning("slack events: signed request with a malformed body rejected (%d bytes, %s)", len(raw),
                        type(exc).__name__)
            return web.json_response({"error": "malformed request body"}, status=400)
        resp = await asyncio.to_thread(self.slack_app.dispatch, bolt_req)
        out_headers = {k: v[0] for k, v in resp.headers.items() if v and k.lower() != "content-length"}
        return web.Response(status=resp.status, body=resp.body.encode() if isinstance(resp.body, str) else resp.body,
                            headers=out_headers)

    async def _telegram_webhook(self, request: web.Request) -> web.Response:
        from telegram import Update

        got = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
        if self._secret and not hmac.compare_digest(got.encode(), self._secret.encode()):
            log.warning("telegram webhook: request with a wrong secret token rejected")
            return web.Response(status=403, text="forbidden")
        try:
            data = json.loads(await request.text())
            update = Update.de_json(data, self.application.bot)
        except Exception as exc:  # noqa: BLE001 - one line, never the body (user text)
            log.warning("telegram webhook: unparsable update rejected (%s)", type(exc).__name__)
            return web.Response(status=400, text="bad update")
        try:
            # blocking handlers (webhook build): returns once the answer is sent, so the 200 below
            # acknowledges a delivered answer and a dead worker's update is re-delivered
            await self.application.process_update(update)
        except Exception:  # noqa: BLE001
            log.exception("telegram webhook: update %s failed", getattr(update, "update_id", "?"))
            return web.Response(status=500, text="failed")
        return web.Response(text="ok")

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Build and start everything in the plan. Raises on configuration or start-up errors
        (e.g. ``auth.test`` or ``getMe`` failing)."""
        for note in self.plan.notes:
            (log.warning if note.startswith("WARNING") else log.info)(note)
        await asyncio.to_thread(self.state.ping)  # StateUnavailable: fail at start, not per message
        log.info("conversation state: %s", self.state.describe())
        if self.plan.slack:
            from slack_sdk.errors import SlackApiError

            from .slack import create_app

            try:
                self.slack_app = await asyncio.to_thread(create_app, self.bot, self.settings, None, self.state)
            except SlackApiError as exc:
                raise ValueError(f"Slack refused SLACK_BOT_TOKEN at auth.test ({exc.response.get('error')})") from None
            self.slack_adapter = self.slack_app.threadgraph_adapter
            if self.plan.slack == "socket":
                from slack_bolt.adapter.socket_mode import SocketModeHandler

                self.socket_handler = SocketModeHandler(
                    self.slack_app, self.settings.slack_app_token.get_secret_value())
                await asyncio.to_thread(self.socket_handler.connect)
                log.info("Slack: Socket Mode connected")
        if self.plan.telegram:
            from .telegram import build_application

            polling = self.plan.telegram == "polling"
            from telegram.error import InvalidToken

            self.application = build_application(self.bot, self.settings, updater=polling, state=self.state)
            try:
                await self.application.initialize()
            except InvalidToken:
                # PTB's message quotes the token: report without it (and without the chained traceback)
                self.application = None
                raise ValueError("Telegram rejected TELEGRAM_BOT_TOKEN (getMe: Unauthorized); "
                                 "check the token @BotFather gave you") from None
            await self.application.start()
            if polling:
                await self.application.updater.start_polling(
                    allowed_updates=["message", "edited_message", "callback_query"], poll_interval=0.0,
                    timeout=10, bootstrap_retries=3)
                log.info("Telegram: long polling as @%s", self.application.bot.username)
            elif not self.worker_index:
                await self.application.bot.set_webhook(
                    url=self.settings.telegram_webhook_url, secret_token=self._secret or None,
                    allowed_updates=["message", "edited_message", "callback_query"])
                log.info("Telegram: webhook set for @%s", self.application.bot.username)
        if self.plan.needs_http:
            port = self.requested_port
            if port is None:
                env_port = os.environ.get("PORT")
                port = int(env_port) if env_port else (
                    self.settings.slack_port if self.plan.slack == "http" else self.settings.telegram_port)
            self._runner = web.AppRunner(self.web_app(), shutdown_timeout=self.drain_timeout, access_log=None)
            await self._runner.setup()
            site = web.TCPSite(self._runner, self.host, port, reuse_port=self.worker_index is not None or None)
            await site.start()
            self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            log.info("HTTP endpoints listening on %s:%s", self.host, self.port)

    async def stop(self) -> None:
        """Stop intake, drain in-flight answers (``drain_timeout``), release everything.
        Never raises; problems are logged."""
        steps = []
        if self._runner is not None:
            steps.append(("http", self._runner.cleanup()))
        for name, coro in steps:
            try:
                await coro
            except Exception:  # noqa: BLE001
                log.exception("stopping %s failed", name)
        if self.socket_handler is not None:
            try:
                await asyncio.to_thread(self.socket_handler.close)
            except Exception:  # noqa: BLE001
                log.exception("closing Socket Mode failed")
        if self.application is not None:
            app = self.application
            try:
                if app.updater is not None and app.updater.running:
                    await app.updater.stop()
                if app.running:
                    await asyncio.wait_for(app.stop(), timeout=self.drain_timeout)  # awaits in-flight handlers
                adapter = app.bot_data.get("threadgraph_adapter")
                if adapter is not None:
                    await adapter.aclose()
                await app.shutdown()
            except Exception:  # noqa: BLE001
                log.exception("stopping Telegram failed")
        if self.slack_adapter is not None:
            ok = await asyncio.to_thread(self.slack_adapter.drain, self.drain_timeout)
            if not ok:
                log.warning("Slack: some answers were still running after %.0f s", self.drain_timeout)
        log.info("threadgraph stopped")


async def serve_async(bot, settings: Settings, platforms=("all",), role: str = "all", host: str = "0.0.0.0",
                      port: int | None = None, stop: asyncio.Event | None = None,
                      drain_timeout: float = 30.0, started=None, worker_index: int | None = None,
                      insecure_webhook: bool = False) -> None:
    """Async form of :func:`serve`: runs until ``stop`` is set (or SIGTERM/SIGINT when this runs
    in the main thread), then drains and returns. ``started(server)`` is called once up."""
    server = Server(bot, settings, platforms, role, host, port, drain_timeout, worker_index, insecure_webhook)
    if server.plan.empty:
        for note in server.plan.notes:
            log.info(note)
        log.warning("nothing to serve for platforms=%s role=%s", list(platforms), role)
        return
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    installed = []
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, stop.set)
                installed.append(sig)
            except (NotImplementedError, RuntimeError):
                pass
    try:
        await server.start()
        if started is not None:
            started(server)
        await stop.wait()
        log.info("stop requested: draining in-flight answers")
    finally:
        await server.stop()
        for sig in installed:
            loop.remove_signal_handler(sig)


def serve(bot, settings: Settings | None = None, platforms=("all",), role: str = "all", host: str = "0.0.0.0",
          port: int | None = None, drain_timeout: float = 30.0, worker_index: int | None = None,
          insecure_webhook: bool = False) -> None:
    """Serve ``bot`` (a ``ThreadGraphBot``) until SIGTERM/SIGINT; see the module docstring.

    ``platforms``: iterable of ``"slack"``/``"telegram"``/``"all"`` (a single string is accepted);
    ``role``: ``"all"``, ``"http"`` (Procfile ``web``) or ``"worker"`` (Procfile ``worker``);
    ``port``: HTTP port (default ``$PORT``, then the settings); ``worker_index``: this process's
    index under :func:`serve_workers`; ``insecure_webhook``: serve a Telegram webhook without a
    secret token. Installs secret redaction on the root log handlers. Raises ``ValueError`` on a
    bad platform/role, a missing or rejected token, or a webhook without a secret (see the module
    docstring); :class:`~threadgraph.bot.state.StateUnavailable` when the state backend does not
    answer."""
    settings = settings or getattr(bot, "settings", None) or Settings()
    install_log_redaction(settings)
    asyncio.run(serve_async(bot, settings, platforms, role, host, port, drain_timeout=drain_timeout,
                            worker_index=worker_index, insecure_webhook=insecure_webhook))
