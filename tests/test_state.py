"""The conversation-state interface (bot/state.py): one suite, run against SQLite in the data dir
and against a real redis-server (no mocks). "Another process" is a second store opened on the
same backend (its own connections, owner id and lease renewer); "a restart" is a new store."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from pydantic import SecretStr

from conftest import FOLLOW, Q
from state_fixtures import REDIS_PASSWORD, backend, redis_server  # noqa: F401 - fixtures
from threadgraph.bot.answer import Answer
from threadgraph.bot.memory import RememberedEntity, ThreadState
from threadgraph.bot.message import IncomingMessage, ThreadKey
from threadgraph.bot.state import Claim, RedisState, SQLiteState, StateUnavailable, open_state, redact_url

pytestmark = pytest.mark.timeout(120)


def _open(backend, tmp_path, **kw):
    return open_state(backend.settings(tmp_path / "data", **kw), shared=False)


@pytest.fixture
def pair(backend, tmp_path):
    """Two stores on the same backend, as two worker processes would open it."""
    a, b = _open(backend, tmp_path), _open(backend, tmp_path)
    yield a, b
    a.close()
    b.close()


def test_backend_classes(backend, tmp_path):
    store = _open(backend, tmp_path)
    assert isinstance(store, RedisState if backend.name == "redis" else SQLiteState)
    store.ping()
    store.close()


def test_thread_memory_round_trip_trim_and_reset(pair):
    a, b = pair
    state = ThreadState(turn=13, last_intent="substitution")
    state.turns = [{"role": "user", "text": f"q{i}", "intent": "x"} for i in range(30)]
    state.remember(RememberedEntity(name="宫保鸡丁", type="recipe", id="recipe:gongbao"))
    state.slots["excluded"] = RememberedEntity(name="花生", type="ingredient", id="ingredient:huasheng")
    a.memory.save("slack/T1/C1/1.0", state)
    got = b.memory.load("slack/T1/C1/1.0")  # another worker reads it
    assert got.turn == 13 and got.last_intent == "substitution"
    assert [t["text"] for t in got.turns] == [f"q{i}" for i in range(10, 30)]  # 10 turns = 20 entries kept
    assert [(e.name, e.id) for e in got.entities] == [("宫保鸡丁", "recipe:gongbao")]
    assert got.slots["excluded"].name == "花生"  # a thread constraint survives
    assert b.memory.load("slack/T1/C1/other").turn == 0
    assert b.memory.reset("slack/T1/C1/1.0") is True
    assert a.memory.load("slack/T1/C1/1.0").turn == 0
    assert a.memory.reset("slack/T1/C1/1.0") is False


def test_memory_joined_threads_and_roots_expire(backend, tmp_path):
    store = _open(backend, tmp_path, memory_ttl_days=0.4 / 86400)  # 0.4 s
    store.memory.save("k", ThreadState(turn=2))
    store.join_thread("slack:T1:C1:1.0")
    store.set_reply_root(-100, 5001, 11)
    assert store.memory.load("k").turn == 2 and store.is_joined("slack:T1:C1:1.0")
    assert store.reply_root(-100, 5001) == 11
    time.sleep(0.9)
    assert store.memory.load("k").turn == 0
    assert not store.is_joined("slack:T1:C1:1.0")
    assert store.reply_root(-100, 5001) is None
    store.close()


def test_joined_threads_and_reply_roots(pair):
    a, b = pair
    assert not b.is_joined("slack:T1:C1:1.0")
    a.join_thread("slack:T1:C1:1.0")
    assert b.is_joined("slack:T1:C1:1.0") and not b.is_joined("slack:T1:C2:1.0")
    a.set_reply_root(-100, 11, 11)
    a.set_reply_root("-100", 5001, 11)
    assert b.reply_root(-100, 5001) == 11 and b.reply_root("-100", 11) == 11
    assert b.reply_root(-100, 5002) is None and b.reply_root(-200, 5001) is None
    b.set_reply_root(-100, 5001, 12)  # re-recorded: the latest wins
    assert a.reply_root(-100, 5001) == 12


def test_event_claim_busy_done_release(pair):
    a, b = pair
    assert a.claim_event("telegram:1:update:7") is Claim.NEW
    assert b.claim_event("telegram:1:update:7") is Claim.BUSY
    assert a.claim_event("telegram:1:update:7") is Claim.BUSY  # a second delivery to the same worker too
    assert b.event_status("telegram:1:update:7") is Claim.BUSY
    a.finish_event("telegram:1:update:7")
    assert b.claim_event("telegram:1:update:7") is Claim.DONE
    assert b.event_status("telegram:1:update:7") is Claim.DONE
    assert b.event_status("telegram:1:update:8") is None
    assert a.claim_event("slack:event:Ev1") is Claim.NEW
    b.release_event("slack:event:Ev1")  # not b's claim: nothing happens
    assert b.claim_event("slack:event:Ev1") is Claim.BUSY
    a.release_event("slack:event:Ev1")  # a gives up: the next delivery is claimed anew
    assert b.claim_event("slack:event:Ev1") is Claim.NEW


def test_lease_renewed_while_holder_lives_and_expires_when_it_dies(backend, tmp_path):
    a = _open(backend, tmp_path, state_lease_s=0.4)
    b = _open(backend, tmp_path, state_lease_s=0.4)
    assert a.claim_event("e1") is Claim.NEW
    time.sleep(1.2)  # three leases: the renewer kept it
    assert b.claim_event("e1") is Claim.BUSY
    a.close()  # the holder "dies": nobody renews
    time.sleep(1.0)
    assert b.claim_event("e1") is Claim.NEW  # re-delivery after the lease is answered
    b.finish_event("e1")
    assert b.claim_event("e1") is Claim.DONE
    b.close()


def test_claim_wait_follows_the_holder(backend, tmp_path):
    a = _open(backend, tmp_path, state_lease_s=0.4)
    b = _open(backend, tmp_path, state_lease_s=0.4)
    assert a.claim_event("done-by-a") is Claim.NEW
    assert a.claim_event("a-dies") is Claim.NEW
    threading.Timer(0.3, a.finish_event, args=("done-by-a",)).start()
    assert b.claim_event_wait("done-by-a", timeout=10) is False  # a answered it: b must not
    a.close()
    assert b.claim_event_wait("a-dies", timeout=10) is True  # a's lease ran out: b answers
    b.close()


def test_exactly_one_claim_under_concurrency(pair):
    a, b = pair
    keys = [f"telegram:1:update:{i}" for i in range(40)]
    wins: list[str] = []
    lock = threading.Lock()

    def worker(store):
        for k in keys:
            if store.claim_event(k) is Claim.NEW:
                with lock:
                    wins.append(k)

    threads = [threading.Thread(target=worker, args=(s,)) for s in (a, b, a, b, a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(wins) == sorted(keys)


def _answer(text: str) -> Answer:
    return Answer(thread="slack/T1/C1/1.0", question="q", intent="substitution", found=True, answer=text)


def test_feedback_votes(pair):
    a, b = pair
    key = ThreadKey(platform="slack", workspace="T1", channel="C1", thread="1.0")
    answer_id = a.feedback.record_answer(_answer("用鸡胸肉"), key)
    assert len(answer_id) == 32
    assert b.feedback.answer(answer_id).answer == "用鸡胸肉"  # a "Sources" click on another worker
    assert b.feedback.answer("f" * 32) is None
    assert b.feedback.vote(answer_id, 1, "U1") is True  # recorded by another worker
    assert b.feedback.vote(answer_id, -1, "U1") is True  # a later vote replaces the first
    assert a.feedback.vote(answer_id, 1, "U2", key) is True
    assert a.feedback.vote("0" * 32, -1, "U3", "slack/T1/C1/9.0") is False  # unknown answer: kept without it
    with pytest.raises(ValueError):
        a.feedback.vote(answer_id, 2, "U4")
    votes = b.feedback.votes()
    assert [(v["user"], v["vote"]) for v in votes] == [("U1", -1), ("U2", 1), ("U3", -1)]
    assert votes[0]["thread"] == "slack/T1/C1/1.0" and votes[0]["answer"]["answer"] == "用鸡胸肉"
    assert votes[2]["answer"] is None and votes[2]["thread"] == "slack/T1/C1/9.0"


def test_a_restarted_store_sees_everything(backend, tmp_path):
    a = _open(backend, tmp_path)
    a.memory.save("telegram/-100/-100/11", ThreadState(turn=3))
    a.join_thread("slack:T1:C1:1.0")
    a.set_reply_root(-100, 5001, 11)
    assert a.claim_event("slack:event:Ev9") is Claim.NEW
    a.finish_event("slack:event:Ev9")
    answer_id = a.feedback.record_answer(_answer("x"), ThreadKey(platform="slack", thread="1.0"))
    a.feedback.vote(answer_id, 1, "U1")
    a.close()
    b = _open(backend, tmp_path)
    assert b.memory.load("telegram/-100/-100/11").turn == 3
    assert b.is_joined("slack:T1:C1:1.0") and b.reply_root(-100, 5001) == 11
    assert b.claim_event("slack:event:Ev9") is Claim.DONE
    assert [v["answer_id"] for v in b.feedback.votes()] == [answer_id]
    b.close()


def test_two_bots_share_a_conversation(backend, tmp_path, kb_handle):
    """Two cores (as two workers) over one backend: the follow-up asked of the second is
    resolved from the memory the first wrote."""
    from threadgraph.bot.core import ThreadGraphBot

    s = backend.settings(tmp_path / "data")
    first = ThreadGraphBot(s, kb=kb_handle, state=open_state(s, shared=False))
    second = ThreadGraphBot(s, kb=kb_handle, state=open_state(s, shared=False))
    key = ThreadKey(platform="telegram", workspace="-100", channel="-100", thread="11")
    assert "鸡胸肉" in first.answer(IncomingMessage(thread=key, text=Q)).answer
    follow = second.answer(IncomingMessage(thread=key, text=FOLLOW))
    assert follow.found and "二荆条" in follow.answer
    second.reset(key)
    assert first.memory.load(key.key()).turn == 0


def test_redis_url_password_never_shown(redis_server, tmp_path, caplog):
    from threadgraph.settings import SecretRedactor, Settings

    assert REDIS_PASSWORD in redis_server.url
    s = Settings(_env_file=None, data_dir=tmp_path, state_url=SecretStr(redis_server.url))
    store = open_state(s, shared=False)
    assert REDIS_PASSWORD not in store.describe() and REDIS_PASSWORD not in repr(store)
    assert f"127.0.0.1:{redis_server.port}/0" in store.describe()
    assert REDIS_PASSWORD not in repr(s)
    assert REDIS_PASSWORD in s.secret_values()  # so serve's log filter redacts it
    rec = logging.LogRecord("t", logging.ERROR, __file__, 1, "connect to %s failed", (redis_server.url,), None)
    SecretRedactor.for_settings(s).filter(rec)
    assert REDIS_PASSWORD not in rec.getMessage()
    store.close()
    wrong = Settings(_env_file=None, data_dir=tmp_path,
                     state_url=SecretStr(f"redis://:not-the-{REDIS_PASSWORD}@127.0.0.1:{redis_server.port}/0"))
    with pytest.raises(StateUnavailable) as err:
        open_state(wrong, shared=False).ping()
    assert REDIS_PASSWORD not in str(err.value) and "***@127.0.0.1" in str(err.value)


def test_unreachable_or_unsupported_state_url(tmp_path):
    from redis_server import free_port
    from threadgraph.settings import Settings

    port = free_port()  # nothing listens there
    s = Settings(_env_file=None, data_dir=tmp_path, state_url=SecretStr(f"redis://:hunter2-secret@127.0.0.1:{port}/0"))
    with pytest.raises(StateUnavailable) as err:
        open_state(s, shared=False).ping()
    assert "hunter2" not in str(err.value) and "does not answer" in str(err.value)
    bad = Settings(_env_file=None, data_dir=tmp_path, state_url=SecretStr("memcached://:pw-12345@host:1/0"))
    with pytest.raises(StateUnavailable) as err:
        open_state(bad)
    assert "pw-12345" not in str(err.value) and "unsupported scheme 'memcached'" in str(err.value)
    assert redact_url("redis://user:pw@h:1/2") == "redis://***@h:1/2"
    assert redact_url("redis://h:1/2") == "redis://h:1/2"


def test_open_state_shares_one_store_per_configuration(tmp_path):
    from conftest import tiny_settings

    s = tiny_settings(tmp_path / "d")
    assert open_state(s) is open_state(s.model_copy())
    assert open_state(s) is not open_state(tiny_settings(tmp_path / "e"))
    assert open_state(s, shared=False) is not open_state(s)
    assert sorted(p.name for p in (tmp_path / "d").glob("*.sqlite")) == ["memory.sqlite", "state.sqlite"]
