"""vaultrag-toy: the engines this package adds to vaultrag (its entry point names ENGINES)."""

from vaultrag.engines import EmbedderEngine, RerankerEngine

ENGINES = [
    EmbedderEngine("toy", "Toy hashing embedder (plugin)", "vaultrag_toy.embedder", model_prefix="toy/"),
    RerankerEngine("toy-overlap", "Toy word-overlap ranker (plugin)", "vaultrag_toy.ranker"),
]
