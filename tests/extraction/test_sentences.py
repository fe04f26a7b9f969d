"""Sentence splitting (``lokulmem.extraction.sentences``)."""

import pytest

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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A compound subject is one fact.
        ("My wife and I are moving to Porto in June.", ["My wife and I are moving to Porto in June."]),
        ("Maya and I go climbing every Sunday.", ["Maya and I go climbing every Sunday."]),
        # A second verb of the same "I" is a second fact.
        ("I live in Berlin and work at Acme.", ["I live in Berlin", "I work at Acme."]),
        # A comma splice of two first-person facts ...
        (
            "I prefer dark mode now, my eyes hurt at night.",
            ["I prefer dark mode now", "my eyes hurt at night."],
        ),
        # Chat in lower case ends a sentence after a word, not after what may abbreviate.
        (
            "about two years. also trying to learn Welsh",
            ["about two years.", "also trying to learn Welsh"],
        ),
        ("It costs approx. three euros, see fig. two.", ["It costs approx. three euros, see fig. two."]),
        ("Meet at 5 p.m. tomorrow.", ["Meet at 5 p.m. tomorrow."]),
        # ... after a contracted "I" too.
        (
            "I'm Tomasz, I teach chemistry in Gdansk.",
            ["I'm Tomasz", "I teach chemistry in Gdansk."],
        ),
        # A name told with "name's" is a clause, not a compound subject.
        ("My name's Priyanka and I'm a designer.", ["My name's Priyanka", "I'm a designer."]),
        # ... unless the second refers back, or the first is a change (old and new together).
        ("I hate treadmills, I find them boring.", ["I hate treadmills, I find them boring."]),
        ("I'm moving to Leeds, I got a job there.", ["I'm moving to Leeds, I got a job there."]),
        (
            "I no longer work at the clinic, I opened my own practice.",
            ["I no longer work at the clinic, I opened my own practice."],
        ),
    ],
)
def test_one_fact_per_unit(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected
