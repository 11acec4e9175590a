"""Ingest: parse documents, extract entities and triples, normalize names, load the knowledge base."""
