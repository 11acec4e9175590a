"""A running bot picks up a newly ingested KB without a restart and without
failing questions in flight (real ingest into the same data folder)."""

from __future__ import annotations

import threading
import time

from conftest import CORPORA, tiny_settings


def test_new_kb_is_picked_up_while_answering(tmp_path):
    from threadgraph.bot.core import ThreadGraphBot
    from threadgraph.bot.message import IncomingMessage, ThreadKey
    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge.kb import KBHandle

    data = tmp_path / "data"
    s = tiny_settings(data)
    assert run_ingest([CORPORA / "pagerduty-incident-response"], s).ok
    bot = ThreadGraphBot(s, kb=KBHandle(data, s, check_interval=0.1))
    key = ThreadKey(platform="test", thread="reload")
    q = IncomingMessage(thread=key, text="宫保鸡丁没有手枪腿用什么代替？")
    assert not bot.answer(q).found  # no recipes yet

    errors: list[BaseException] = []
    answered = [0]
    stop = threading.Event()

    def keep_asking() -> None:
        while not stop.is_set():
            try:
                bot.answer(IncomingMessage(thread=key, text="who can stand in for the Scribe?"))
                answered[0] += 1
            except BaseException as exc:  # noqa: BLE001 - any failure in flight fails the test
                errors.append(exc)

    worker = threading.Thread(target=keep_asking)
    worker.start()
    try:
        report = run_ingest([CORPORA / "pagerduty-incident-response", CORPORA / "howtocook" / "dishes" / "meat_dish"], s)
        assert report.ok
        time.sleep(0.3)
        a = bot.answer(q)
    finally:
        stop.set()
        worker.join()
    assert not errors, errors
    assert answered[0] > 0
    assert a.found and "鸡胸肉" in a.answer
