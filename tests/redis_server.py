"""A real ``redis-server`` on a free 127.0.0.1 port, for the tests and ``benchmarks/scale.py``.

The binary is ``$THREADGRAPH_REDIS_SERVER`` or ``redis-server`` on PATH (Debian's package:
``apt-get install -y redis-server``; ``make test`` installs it when run as root). Nothing is
persisted (``--save '' --appendonly no``). :func:`redis_binary` returns None when there is none;
the pytest fixtures then skip the Redis tests with that reason, or fail when
``THREADGRAPH_REQUIRE_REDIS=1`` (CI).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time

MISSING_REASON = ("redis-server not found: install it (`apt-get install -y redis-server`, which `make test` "
                  "does when run as root) or set THREADGRAPH_REDIS_SERVER to a binary")


def redis_binary() -> str | None:
    """Path of the redis-server binary, or None."""
    env = os.environ.get("THREADGRAPH_REDIS_SERVER")
    if env:
        return env if os.access(env, os.X_OK) else None
    return shutil.which("redis-server") or next(
        (p for p in ("/usr/bin/redis-server", "/usr/local/bin/redis-server", "/usr/sbin/redis-server")
         if os.access(p, os.X_OK)), None)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """``with RedisServer() as r:`` runs redis-server until the block ends; ``r.url`` is
    ``redis://[:password@]127.0.0.1:PORT/0``. Raises RuntimeError when the binary is missing or
    the server does not answer within 10 s."""

    def __init__(self, password: str | None = None, port: int | None = None):
        self.binary = redis_binary()
        if self.binary is None:
            raise RuntimeError(MISSING_REASON)
        self.password = password
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """``redis://[:password@]127.0.0.1:PORT/0``."""
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        """Start the server and wait until it answers PING; returns self."""
        cmd = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
               "--daemonize", "no", "--loglevel", "warning"]
        if self.password:
            cmd += ["--requirepass", self.password]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        import redis

        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                client.close()
                return self
            except redis.ConnectionError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    err = self.proc.stderr.read().decode(errors="replace") if self.proc.poll() is not None else ""
                    self.stop()
                    raise RuntimeError(f"redis-server did not start on port {self.port}: {err[-500:]}")
                time.sleep(0.05)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __enter__(self) -> "RedisServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
