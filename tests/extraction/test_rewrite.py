"""First person → facts about the user (``lokulmem.extraction.rewrite``)."""

from collections.abc import Callable

import numpy as np
import pytest

from lokulmem import LokulMem, MiniLMEmbedder
from lokulmem.extraction import (
    to_user_fact,
)
from lokulmem.extraction.rewrite import plural_to_user


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("I live in Berlin", "User lives in Berlin."),
        ("I hurt my knee last week.", "User hurt User's knee last week."),
        ("Well, I really love hiking!", "User really loves hiking."),
        ("my sister is Maya", "User's sister is Maya."),
        ("I'm no longer at Acme Corp", "User is no longer at Acme Corp."),
        ("I no longer work at the clinic", "User no longer works at the clinic."),
        ("I don't like cats", "User doesn't like cats."),
        ("I go to the gym every day", "User goes to the gym every day."),
        ("I've been learning Spanish", "User has been learning Spanish."),
        ("I need to finish the report for Friday", "User needs to finish the report for Friday."),
        ("I could go", "User could go."),
        ("My name's Priyanka", "User's name is Priyanka."),
        # A label announcing news is not part of the fact.
        ("Big news: Ola got a day job!", "Ola got a day job."),
        ("Bad news, I strained my calf.", "User strained User's calf."),
        ("News, weather and sport are all I watch.", "News, weather and sport are all User watches."),
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


def test_words_cut_off_and_stammers_in_chat() -> None:
    assert to_user_fact("Yup, I do- Biscuit, my rabbit.") == "Yup, User does- Biscuit, User's rabbit."
    assert to_user_fact("I-I think so") == "User thinks so."
    assert to_user_fact("I re-enter the data weekly") == "User re-enters the data weekly."
    assert to_user_fact("It keeps telling me I'm on track.") == "It keeps telling User, User is on track."


def test_are_and_first_are_not_conjugated() -> None:
    assert to_user_fact("leroy and i are playing chess") == "Leroy and User are playing chess."
    assert to_user_fact("I first started cooking at ten") == "User first started cooking at ten."


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("We bought our first home.", "User and others bought their first home."),
        (
            "We're back in the office five days a week now.",
            "User and others are back in the office five days a week now.",
        ),
        ("we've been married ten years.", "User and others have been married ten years."),
        ("Our landlord raised the rent.", "User's landlord raised the rent."),
        ("Tomas invited us to his wedding.", "Tomas invited User and others to his wedding."),
        ("User thinks we should sell ours.", "User thinks User and others should sell theirs."),
        # Left as said: an idiom, a country, nothing plural.
        ("Let us know how it went.", "Let us know how it went."),
        ("User moved to the US in 2019.", "User moved to the US in 2019."),
        ("User lives in Leith.", "User lives in Leith."),
    ],
)
def test_the_first_person_plural_is_the_user_and_others(text: str, fact: str) -> None:
    assert plural_to_user(text) == fact
    if "User" not in text:  # the label an app gives is the one written
        assert plural_to_user(text, "Ines") == fact.replace("User", "Ines")


def test_plural_facts_are_stored_about_the_user_and_keep_the_vector_of_what_was_said(
    make_mem: Callable[..., LokulMem], embedder: MiniLMEmbedder
) -> None:
    for rewrite in (True, False):
        mem = make_mem(rewrite_plural_first_person=rewrite)
        (m,) = mem.learn("We adopted a rescue cat called Miso.").extracted
        said = "We adopted a rescue cat called Miso."
        assert m.content == ("User and others adopted a rescue cat called Miso." if rewrite else said)
        (want,) = embedder.embed([said])
        assert m.embedding is not None and np.allclose(m.embedding, want, atol=1e-3)


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        (
            "No caffeine for me anymore, it's peppermint tea now.",
            "No caffeine for User anymore, it's peppermint tea now.",
        ),
        ("No, I live in Leeds.", "User lives in Leeds."),
        ("I withdrew from the race.", "User withdrew from the race."),
        ("I drank too much coffee.", "User drank too much coffee."),
    ],
)
def test_no_as_a_word_and_irregular_pasts_are_kept(said: str, fact: str) -> None:
    """ "No" is a filler only as an answer; an irregular past takes no "-s"."""
    assert to_user_fact(said) == fact
