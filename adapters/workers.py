"""Several ``threadgraph serve`` worker processes on one machine (``threadgraph serve --workers N``):
:func:`serve_workers` starts them, restarts a worker that dies and forwards SIGTERM/SIGINT for a
drain. Importable from :mod:`threadgraph.adapters.serve` too."""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import threading
import time

log = logging.getLogger("threadgraph.serve")


def serve_workers(workers: int, child_args: list[str], *, drain_timeout: float = 30.0,
                  env: dict | None = None) -> int:
    """Run ``workers`` processes of ``threadgraph serve <child_args> --worker-index i`` on one
    machine until SIGTERM/SIGINT, then forward the signal, wait for their drains (up to
    ``drain_timeout`` + 5 seconds) and return 0.

    The workers bind the same HTTP port with ``SO_REUSEPORT`` (the kernel spreads connections),
    each opens the current KB read-only (swapping to a new build within ~1 s of its
    publication) and shares conversation state through :func:`~threadgraph.bot.state.open_state`
    (SQLite in the data dir works on one machine; Redis anywhere). A worker that dies is
    restarted (after 1 s, doubling to at most 30 s while it keeps dying within 10 s); a worker
    exiting with status 2 (configuration error) stops them all and 2 is returned."""
    if workers < 1:
        raise ValueError("workers must be at least 1")
    stopping = threading.Event()
    procs: dict[int, subprocess.Popen] = {}
    started: dict[int, float] = {}
    backoff: dict[int, float] = {}
    restart_at: dict[int, float] = {}

    def spawn(i: int) -> None:
        cmd = [sys.executable, "-m", "threadgraph.cli", "serve", *child_args, "--worker-index", str(i)]
        procs[i] = subprocess.Popen(cmd, env=env)
        started[i] = time.monotonic()
        log.info("worker %d started (pid %d)", i, procs[i].pid)

    def on_signal(signum, frame):  # noqa: ARG001
        stopping.set()

    old = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    code = 0
    try:
        for i in range(workers):
            spawn(i)
        while not stopping.wait(0.2):
            now = time.monotonic()
            for i, proc in list(procs.items()):
                if i in restart_at:
                    if now >= restart_at[i]:
                        del restart_at[i]
                        spawn(i)
                    continue
                rc = proc.poll()
                if rc is None:
                    continue
                if rc == 2:
                    log.error("worker %d exited with a configuration error: stopping", i)
                    code = 2
                    stopping.set()
                    break
                quick = now - started[i] < 10
                backoff[i] = min(30.0, backoff.get(i, 0.5) * 2) if quick else 1.0
                log.warning("worker %d (pid %d) exited with %s; restarting in %.0f s", i, proc.pid, rc, backoff[i])
                restart_at[i] = now + backoff[i]
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + drain_timeout + 5
        for proc in procs.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.warning("worker pid %d did not stop in time: killed", proc.pid)
                proc.kill()
                proc.wait()
        for sig, handler in old.items():
            signal.signal(sig, handler)
    log.info("all %d workers stopped", workers)
    return code
