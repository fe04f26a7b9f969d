"""First person → facts about the user (``lokulmem.extraction.rewrite``)."""

import pytest

from lokulmem.extraction import (
    to_user_fact,
)


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("I live in Berlin", "User lives in Berlin."),
        ("Well, I really love hiking!", "User really loves hiking."),
        ("my sister is Maya", "User's sister is Maya."),
        ("I'm no longer at Acme Corp", "User is no longer at Acme Corp."),
        ("I no longer work at the clinic", "User no longer works at the clinic."),
        ("I don't like cats", "User doesn't like cats."),
        ("I go to the gym every day", "User goes to the gym every day."),
        ("I've been learning Spanish", "User has been learning Spanish."),
        ("I need to finish the report for Friday", "User needs to finish the report for Friday."),
        ("I could go", "User could go."),
    ],
)
def test_facts_read_as_facts_about_the_user(sentence: str, fact: str) -> None:
    assert to_user_fact(sentence) == fact


def test_lower_case_i_is_the_user() -> None:
    assert to_user_fact("i work out three times a week") == "User works out three times a week."
    assert to_user_fact("I live in Berlin and i love it") == "User lives in Berlin and User loves it."
    # Not a pronoun: an abbreviation, a numeral.
    assert to_user_fact("I swim a lot, i.e. daily") == "User swims a lot, i.e. daily."
    assert to_user_fact("Part i. is done") == "Part i. is done."
    # An adverb ending in -ly is not the verb ("eventuallies").
    assert to_user_fact("I eventually followed them") == "User eventually followed them."


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("Call me Alex.", "User goes by Alex."),
        ("You can call me Sam", "User goes by Sam."),
        ("Maya and I go climbing every Sunday.", "User and Maya go climbing every Sunday."),
        ("My wife and I are moving to Porto.", "User and User's wife are moving to Porto."),
    ],
)
def test_self_introductions_and_compound_subjects(sentence: str, fact: str) -> None:
    assert to_user_fact(sentence) == fact


def test_a_second_verb_of_the_user_agrees() -> None:
    assert to_user_fact("I cancelled Spotify and use Apple Music now.") == (
        "User cancelled Spotify and uses Apple Music now."
    )
    assert to_user_fact("I like cats and hate dogs") == "User likes cats and hates dogs."
    assert to_user_fact("Tom and I love hiking") == "User and Tom love hiking."


def test_are_and_first_are_not_conjugated() -> None:
    assert to_user_fact("leroy and i are playing chess") == "Leroy and User are playing chess."
    assert to_user_fact("I first started cooking at ten") == "User first started cooking at ten."
