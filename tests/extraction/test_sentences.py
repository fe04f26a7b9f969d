"""Sentence splitting (``lokulmem.extraction.sentences``)."""

from lokulmem.extraction import (
    split_sentences,
)


def test_sentences_and_first_person_clauses() -> None:
    assert split_sentences(
        "Hi! I live in Berlin and I work at Acme. Dr. Smith is my GP.\n- I have a cat"
    ) == [
        "Hi!",
        "I live in Berlin",
        "I work at Acme.",
        "Dr. Smith is my GP.",
        "I have a cat",
    ]
    assert split_sentences("   \n ") == []
