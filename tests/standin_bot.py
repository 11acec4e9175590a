"""Test helper for the adapter tests: ``derive_bot`` wraps the REAL core (the ``bot``
fixture of tests/conftest.py) to observe what an adapter hands it, or to inject a core
failure or a reshaped answer. There is no stand-in core: every answer is computed by
``ThreadGraphBot`` over the session KB."""

from __future__ import annotations


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
