"""The translate stage: the question into every other language that holds a real share of the vault's notes, so
BM25 searches with both, every candidate's closeness is its best with either, and the ranker and the decision read
each note in its own language."""

from __future__ import annotations

import re
import time

from vaultrag.core.model import QueryWarning, Translation
from vaultrag.core.query.answerability import negation_words
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.query.terms import WORD, fold
from vaultrag.core.vocab import StageName, Timing, WarningCode

# A language is translated into when at least this share of the notes whose language is known is written in it
# (store.vault_languages): a vault with one stray English note among 500 Portuguese ones is not searched in English.
MIN_SHARE = 0.1
# …and by at least this many notes: in a small vault one note of code (YAML came out Swedish, Python Danish) was a
# tenth of the notes, and every question warned that it had no Swedish translation
MIN_NOTES = 3
# A question this short has a language that is a guess ("Kubernetes?" came out German, "pathlib" Malay): a pair
# without a translator is then not worth a warning (the question is searched as asked either way)
WARN_WORDS = 3
WORD_OR_SPACE = re.compile(r"\w+|\W+")


class TranslateStage:
    """Translate the question (cached by the Searcher) into the vault's other languages; nothing when the question's
    language is the vault's only one, so a monolingual question is searched exactly as before. A pair the translator
    lacks, or a failure, is a warning: the notes in that language are searched with the question as asked."""

    name = StageName.TRANSLATE
    requires = needs(Slot.QUESTION)
    provides = needs(Slot.TRANSLATION)

    def run(self, q: QueryState) -> None:
        if q.translate is None or not q.language:
            return
        counts = q.store.language_counts()
        languages = q.store.vault_languages(MIN_SHARE)
        targets = [lang for lang in languages if lang and lang != q.language and counts.get(lang, 0) >= MIN_NOTES]
        if not targets:
            return
        t = time.perf_counter()
        for target in targets:
            done = without_new_negation(q.question, q.language, q.translate(q.question, q.language, target))
            if done.text:
                q.translations[target] = done
            else:
                q.failed_translations.append(done)
                if len(WORD.findall(q.question)) < WARN_WORDS:  # its language is a guess: no warning about it
                    continue
                q.warnings.append(QueryWarning(WarningCode.NO_TRANSLATION, question_language=q.language,
                                               target_language=target, detail=done.failure))
        q.timed(Timing.TRANSLATE, t)


def without_new_negation(question: str, language: str, done: Translation) -> Translation:
    """`done` without the negating words the question lacks: the translator writes "no" (in the) as "não"
    ("how many eggs in the cake?" → "Quantos ovos não bolo?"), and a "not" the question never said refused it."""
    if not done.text or negation_words(question, language):  # a question that negates: its translation does too
        return done
    added = negation_words(done.text, done.target)
    if not added:
        return done
    kept = [w for w in WORD_OR_SPACE.findall(done.text) if fold(w.lower()) not in added]
    done.text = re.sub(r"\s+", " ", "".join(kept)).strip()
    return done

