"""Test-only stand-in for ``ThreadGraphBot`` (used only when tests/conftest.py has no ``bot``
fixture yet). Same interface: ``answer(message, retrieval) -> Answer``, ``reset(thread)``,
``settings``. It remembers the turns per thread so follow-ups can be checked."""

from __future__ import annotations

import threading

from threadgraph.bot.answer import Answer, Fact, Passage, Source
from threadgraph.bot.message import IncomingMessage, ThreadKey


class StandInBot:
    def __init__(self, settings):
        self.settings = settings
        self._memory: dict[str, list[str]] = {}
        self._lock = threading.Lock()

    def answer(self, message: IncomingMessage, retrieval: str = "hybrid") -> Answer:
        with self._lock:
            turns = self._memory.setdefault(message.thread.key(), [])
            turns.append(message.text)
            previous = turns[:-1]
        text = f"宫保鸡丁: 花生可以用腰果代替。 (turn {len(turns)})"
        if previous:
            text += f"\n\nEarlier in this thread: {previous[-1]}"
        return Answer(thread=message.thread.key(), question=message.text, intent="substitution", found=True,
                      answer=text,
                      facts=[Fact(id="f-0123456789abcdef", subject="花生", relation="SUBSTITUTES", object="腰果",
                                  properties={"context": "宫保鸡丁"},
                                  source=Source(doc="dishes/meat_dish/宫保鸡丁.md", section="必备原料和工具", line=12))],
                      passages=[Passage(id="p1", doc="dishes/meat_dish/宫保鸡丁.md", section="必备原料和工具",
                                        text="花生米 50g", score=1.0, line=12)],
                      follow_ups=["宫保鸡丁要放多少辣椒?"])

    def reset(self, thread: ThreadKey) -> None:
        with self._lock:
            self._memory.pop(thread.key(), None)


def core_bot(request, tmp_path):
    """The real ``bot`` fixture from tests/conftest.py when it exists, else the stand-in."""
    try:
        return request.getfixturevalue("bot")
    except Exception as exc:  # pytest.FixtureLookupError
        if type(exc).__name__ != "FixtureLookupError":
            raise
        from threadgraph.settings import Settings

        return StandInBot(Settings(data_dir=tmp_path / "data"))


def derive_bot(bot, *, before=None, after=None, seen: list | None = None, resets: list | None = None):
    """A copy of ``bot`` whose class is a subclass of the real bot's class, overriding
    ``answer``: ``before(message)`` runs first (raise there to simulate a core failure), the
    real answer is computed, then ``after(answer)`` may return a changed Answer. Each message
    is appended to ``seen``, each reset key to ``resets``."""
    import copy

    base = type(bot)

    class Derived(base):  # type: ignore[misc, valid-type]
        def answer(self, message, retrieval="hybrid"):
            if seen is not None:
                seen.append(message)
            if before is not None:
                before(message)
            result = super().answer(message, retrieval)
            return after(result) if after is not None else result

        def reset(self, thread):
            if resets is not None:
                resets.append(thread)
            return super().reset(thread)

    derived = copy.copy(bot)
    derived.__class__ = Derived
    return derived
