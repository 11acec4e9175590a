"""threadgraph: a Graph-RAG chat-bot plugin for messaging platforms.

The repository root is the ``threadgraph`` package (see ``pyproject.toml``):
``threadgraph.bot`` (conversation core, with one handler per intent in
``threadgraph.bot.intents``), ``threadgraph.adapters`` (Slack, Telegram,
console), ``threadgraph.knowledge`` (graph store, vector store, embeddings,
retrieval, the text toolkit), ``threadgraph.ingest`` (parsers, extraction,
normalization, loading), ``threadgraph.evaluation`` (scoring conversation
cases), ``threadgraph.cli`` and ``threadgraph.settings``.
"""

__version__ = "0.1.0"
