"""The curated language models "Get a model" offers: multilingual (Portuguese and English) instruct GGUFs on the hub."""

from __future__ import annotations

from dataclasses import dataclass

from vaultrag.core.i18n import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class CatalogModel:
    """One downloadable model file. `size_bytes` and `ram_gb` are approximate (shown as such: "≈ 1.1 GB"); the
    download uses the size and the sha256 the hub reports for the file at that time."""

    key: str  # the name `vaultrag llm get KEY` takes
    title: str
    repo_id: str  # the hub repository
    filename: str  # the GGUF file in it, as published
    size_bytes: int  # approximate download size
    ram_gb: float  # approximate RAM needed to run it with a 4k context
    languages: str  # the window shows it and the note translated: QCoreApplication.translate("Catalog", …)
    licence: str
    note: str = ""


QWEN = QT_TRANSLATE_NOOP("Catalog", "29 languages, Portuguese and English among them")
LLAMA = QT_TRANSLATE_NOOP("Catalog", "English, Portuguese, Spanish, French, German, Italian, Hindi, Thai")
GEMMA = QT_TRANSLATE_NOOP("Catalog", "over 140 languages, Portuguese and English among them")

# Q4_K_M quantizations: the usual balance of size and quality on a CPU. The sizes are the published files' rounded
# sizes; the RAM is the file plus the context's cache and the runtime, rounded up.
CATALOG: tuple[CatalogModel, ...] = (
    CatalogModel("qwen2.5-1.5b", "Qwen2.5 1.5B Instruct (Q4_K_M)", "Qwen/Qwen2.5-1.5B-Instruct-GGUF",
                 "qwen2.5-1.5b-instruct-q4_k_m.gguf", 1_120_000_000, 2.0,
                 QWEN, "Apache-2.0",
                 QT_TRANSLATE_NOOP("Catalog", "Small and quick: the one to start with on a laptop.")),
    CatalogModel("qwen2.5-3b", "Qwen2.5 3B Instruct (Q4_K_M)", "Qwen/Qwen2.5-3B-Instruct-GGUF",
                 "qwen2.5-3b-instruct-q4_k_m.gguf", 2_100_000_000, 3.5,
                 QWEN, "Qwen Research License (non-commercial)",
                 QT_TRANSLATE_NOOP("Catalog", "Better answers than the 1.5B, about half as fast.")),
    CatalogModel("llama3.2-3b", "Llama 3.2 3B Instruct (Q4_K_M)", "bartowski/Llama-3.2-3B-Instruct-GGUF",
                 "Llama-3.2-3B-Instruct-Q4_K_M.gguf", 2_020_000_000, 3.5,
                 LLAMA, "Llama 3.2 Community License"),
    CatalogModel("gemma3-4b", "Gemma 3 4B it (Q4_K_M)", "bartowski/google_gemma-3-4b-it-GGUF",
                 "google_gemma-3-4b-it-Q4_K_M.gguf", 2_490_000_000, 4.5,
                 GEMMA, "Gemma Terms of Use",
                 QT_TRANSLATE_NOOP("Catalog", "The largest here: the best answers, the slowest.")),
)


def find(key: str) -> CatalogModel | None:
    """The catalog's model named `key`, or None."""
    return next((m for m in CATALOG if m.key == key), None)


def approx_gb(n_bytes: float) -> str:
    """A size as the catalog shows it, approximate: "≈ 1.1 GB"."""
    return f"\u2248 {n_bytes / 1e9:.1f} GB"
