"""Conversation core: messages, thread memory, understanding, retrieval orchestration, answers. Imports no platform SDK."""
