"""The citation check: sentences and their [n], uncited claims, citations of missing documents, support."""

from __future__ import annotations

from vaultrag.core.model import ContextDoc
from vaultrag.core.query import citations
from vaultrag.core.vocab import SupportVerdict


def doc(index: int, text: str) -> ContextDoc:
    return ContextDoc(note=f"n{index}.md", heading_path=[], char_start=0, char_end=len(text), line_start=0,
                      line_end=1, index=index, chunk_ids=[index], source=f"n{index}.md", text=text, tokens=10)


DOCS = [doc(1, "The refund deadline is seven business days after cancelling the order."),
        doc(2, "O voo para Lisboa sai às 07:40 do aeroporto de Guarulhos.")]


def test_sentences_keep_the_citations_that_close_them():
    answer = "The deadline is seven days [1]. The flight leaves at 07:40. [2]\n- Bullet claim here [1][2]"
    assert citations.sentences(answer) == ["The deadline is seven days [1].", "The flight leaves at 07:40. [2]",
                                           "Bullet claim here [1][2]"]
    assert citations.citations("x [1][2] and [3, 1]") == [1, 2, 3]


def test_each_sentence_gets_a_verdict():
    answer = ("The refund deadline is seven business days after cancelling [1]. "
              "O voo sai às 07:40 de Guarulhos [2]. "
              "Refunds are paid in bitcoin to the captain [1]. "
              "The moon is made of cheese. "
              "The deadline is in the contract [7].")
    verdicts = [(c.verdict, c.citations) for c in citations.check(answer, DOCS)]
    assert verdicts == [(SupportVerdict.SUPPORTED, [1]), (SupportVerdict.SUPPORTED, [2]),
                        (SupportVerdict.UNSUPPORTED, [1]), (SupportVerdict.UNCITED, []),
                        (SupportVerdict.BAD_CITATION, [7])]
    checks = citations.check(answer, DOCS)
    assert checks[0].support == 1.0 and checks[2].support is not None and checks[2].support < 0.6


def test_a_claim_cited_to_the_wrong_document_is_unsupported():
    [c] = citations.check("The refund deadline is seven business days [2].", DOCS)
    assert c.verdict == SupportVerdict.UNSUPPORTED
    [c] = citations.check("The refund deadline is seven business days [1, 2].", DOCS)
    assert c.verdict == SupportVerdict.SUPPORTED, "one cited document that backs it is enough"


def test_the_exact_refusal_is_recognised_in_both_languages():
    for text in ("I couldn't find this in the notes.", '"Não encontrei isso nas notas."'):
        [c] = citations.check(text, DOCS)
        assert c.verdict == SupportVerdict.REFUSAL and citations.is_refusal(text)
    assert not citations.is_refusal("I couldn't find this in the notes, but the deadline is 7 days.")


def test_short_pieces_are_not_claims():
    assert citations.check("Answer:\n\nThe refund deadline is seven business days [1].", DOCS)[0].text.startswith(
        "The refund")


def test_a_forgotten_citation_gets_the_document_that_backs_it_attached():
    answer = ("The refund deadline is seven business days after cancelling. "
              "O voo para Lisboa sai às 07:40 de Guarulhos. "
              "The refund deadline is seven business days [1].")
    checks = citations.check(answer, DOCS)
    assert [(c.verdict, c.citations) for c in checks] == [
        (SupportVerdict.ATTACHED, [1]), (SupportVerdict.ATTACHED, [2]), (SupportVerdict.SUPPORTED, [1])], \
        "attached, not the model's own: the model's citation stays SUPPORTED"
    assert checks[0].support == 1.0
    assert checks[1].support is not None and checks[1].support >= citations.ATTACH_THRESHOLD


def test_a_claim_no_document_backs_stays_uncited():
    checks = citations.check("The refund deadline is 30 business days after cancelling. "
                             "The moon is made of green cheese. Guarulhos it is. "
                             "When is the refund deadline after cancelling?\n"
                             "About the refund deadline after cancelling:", DOCS)
    assert [(c.verdict, c.citations) for c in checks] == [(SupportVerdict.UNCITED, [])] * 5
    assert checks[0].support is not None and checks[0].support < citations.SUPPORT_THRESHOLD, \
        "the right context with a wrong number is not backed"
    [c] = citations.check("The refund deadline is seven days for online purchases [1].", DOCS)
    assert c.verdict == SupportVerdict.SUPPORTED and c.support is not None and c.support < citations.ATTACH_THRESHOLD
    [c] = citations.check("The refund deadline is seven days for online purchases.", DOCS)
    assert c.verdict == SupportVerdict.UNCITED, "enough to back the model's own [1], too little to attach one"
    assert checks[2].support is None, "one content word ('Guarulhos') is too little to pick a document"
    assert checks[3].support is None, "a question (SmolLM2 echoes the user's) claims nothing, whatever its words"
    assert checks[4].support is None, "nor does a lead-in to what follows"


def test_the_best_document_is_attached_and_a_tie_goes_to_the_better_ranked():
    docs = [doc(1, "Cancelling is free."), doc(2, DOCS[0].text), doc(3, DOCS[0].text)]
    [c] = citations.check("The refund deadline is seven business days after cancelling.", docs)
    assert (c.verdict, c.citations) == (SupportVerdict.ATTACHED, [2])
    assert citations.attach("The refund deadline is seven business days.", docs, threshold=1.01) == (None, 1.0)
