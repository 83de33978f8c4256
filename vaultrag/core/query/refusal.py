"""The refusal sentence in each language: what the prompt asks a model to say, and what the checks recognise."""

from __future__ import annotations


class ByLanguage(dict[str, str]):
    """Texts per language; a language without a translation gets the English one."""

    def __missing__(self, language: str) -> str:
        return self["en"]


REFUSAL = ByLanguage({"pt": "Não encontrei isso nas notas.", "en": "I couldn't find this in the notes.",
                      "es": "No encontré esto en las notas.", "de": "Das habe ich in den Notizen nicht gefunden."})
