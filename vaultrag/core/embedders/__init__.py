"""The embedding backends, one module each (registered in vaultrag/engines.py; core/embed.py builds them)."""
