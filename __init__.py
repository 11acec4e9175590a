"""threadgraph: a Graph-RAG chat-bot plugin for messaging platforms.

The repository root is the ``threadgraph`` package (see ``pyproject.toml``):
``threadgraph.bot`` (conversation core), ``threadgraph.adapters`` (Slack,
Telegram, console), ``threadgraph.knowledge`` (graph store, vector store,
embeddings, retrieval) and ``threadgraph.ingest`` (parsers, extraction,
normalization, loading).
"""

__version__ = "0.1.0"
