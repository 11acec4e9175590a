"""Conversation core: messages, thread memory, understanding (phrase patterns
and entity linking), the intent handlers (``bot/intents/``), retrieval and
composition, answers. Imports no platform SDK."""
