"""The reranking backends, one module each (registered in vaultrag/engines.py; core/rerank.py builds them)."""
