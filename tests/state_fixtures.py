"""Fixtures for the conversation-state tests: a real ``redis-server`` (session-wide, with a
password) and ``backend``, parametrized over ``"sqlite"`` and ``"redis"``, so one suite runs
against both. Import the fixtures into a test module: ``from state_fixtures import *``."""

from __future__ import annotations

import itertools
import os

import pytest
from pydantic import SecretStr

from redis_server import MISSING_REASON, RedisServer, redis_binary

REDIS_PASSWORD = "tg-redis-pw-4471"
_prefixes = itertools.count(1)


@pytest.fixture(scope="session")
def redis_server():
    """A real redis-server on a free 127.0.0.1 port (``requirepass`` set), stopped after the
    session. Skips (fails when ``THREADGRAPH_REQUIRE_REDIS=1``) without a binary."""
    if redis_binary() is None:
        if os.environ.get("THREADGRAPH_REQUIRE_REDIS") == "1":
            pytest.fail(MISSING_REASON)
        pytest.skip(MISSING_REASON)
    with RedisServer(password=REDIS_PASSWORD) as server:
        yield server


class Backend:
    """One state backend for a test: ``name`` (``"sqlite"``/``"redis"``) and
    ``settings(data_dir, **kw)`` — test-model settings whose state lives in that backend (a key
    prefix of its own per test on Redis; the data dir's SQLite files otherwise)."""

    def __init__(self, name: str, url: str | None):
        self.name = name
        self.url = url
        self.prefix = f"t{next(_prefixes)}-{os.getpid()}:"

    def settings(self, data_dir, **kw):
        """Test-model settings for ``data_dir`` with this backend's state URL and key prefix."""
        from conftest import tiny_settings

        if self.url:
            kw.setdefault("state_url", SecretStr(self.url))
            kw.setdefault("state_key_prefix", self.prefix)
        return tiny_settings(data_dir, **kw)

    def env(self) -> dict:
        """Environment variables selecting this backend for a ``threadgraph serve`` process."""
        if not self.url:
            return {}
        return {"THREADGRAPH_STATE_URL": self.url, "THREADGRAPH_STATE_KEY_PREFIX": self.prefix}


@pytest.fixture(params=["sqlite", "redis"])
def backend(request) -> Backend:
    """Each test using it runs twice: SQLite in its data dir, then the real Redis."""
    if request.param == "redis":
        return Backend("redis", request.getfixturevalue("redis_server").url)
    return Backend("sqlite", None)
