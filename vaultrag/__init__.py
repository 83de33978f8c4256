"""vaultrag: ask a Markdown vault questions offline, and see why each note was or wasn't found."""

__version__ = "0.1.0"
