"""Ingest: read documents (``readers/``), extract entities and triples
(``recipes``, ``documents``, ``roles``, ``tables``; their words and cue
patterns are data in ``lexicon/``), normalize names, chunk, and load the
knowledge base (``service.run_ingest``)."""
