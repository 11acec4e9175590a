"""Knowledge base: Kùzu graph store, LanceDB vector store, fastembed embeddings, retrieval. Imports no platform SDK."""
