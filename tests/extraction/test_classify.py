"""Typing by rules and the substance beside a transient cue (``lokulmem.extraction.classify``)."""

import pytest

from lokulmem import Config
from lokulmem.extraction import (
    analyze_text,
    substance,
)


@pytest.mark.parametrize(
    "sentence",
    ["I'm just watching The Office again.", "I am a big Doctor Who fan.", "My fave show is Friends."],
)
def test_what_one_watches_is_a_preference(sentence: str) -> None:
    assert "preference" in analyze_text(sentence, Config()).rule_types


@pytest.mark.parametrize(
    ("sentence", "temporal"),
    [
        ("I have a job interview on Friday", True),
        ("I'm going on a trip next month", True),
        ("My flight leaves tomorrow", True),
        ("Last Tuesday I went to a school board meeting", False),
        ("I took a short trip to Rome last week", False),
        ("I had my driving exam two weeks ago", False),
    ],
)
def test_past_events_are_not_temporal_context(sentence: str, temporal: bool) -> None:
    # PRD §7 temporal = time-sensitive context ("this week", deadlines); an
    # event told in the past is history, not an upcoming appointment.
    assert ("temporal" in analyze_text(sentence, Config()).rule_types) is temporal


def test_substance_counts_content_beside_the_transient_cue() -> None:
    assert substance("I'm so excited too", ["emotional"]) == 0
    assert substance("Maya is excited and kinda nervous", ["emotional"]) == 0
    n = substance("I felt great presenting my design at the school board", ["emotional"])
    assert n >= 4  # presenting, design, school, board
    # Capitalised words inside the sentence are names and do not count.
    assert substance("I'm happy for Priya and Omar", ["emotional"]) == 0


@pytest.mark.parametrize(
    "sentence",
    [
        "i work out three times a week",
        "I go hiking every Sunday",
        "I knit hats for fun",
        "Singing is my favourite way to relax",
        "I spend my spare time painting",
    ],
)
def test_pastimes_are_preferences(sentence: str) -> None:
    from lokulmem import Config
    from lokulmem.extraction import analyze_text

    types = analyze_text(sentence, Config()).rule_types
    assert "preference" in types and "profession" not in types


def test_work_is_still_a_job() -> None:
    from lokulmem import Config
    from lokulmem.extraction import analyze_text

    assert "profession" in analyze_text("I work at a bank downtown.", Config()).rule_types


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("i suffer from chronic migraines", "identity"),
        ("I broke my arm twice skiing", "identity"),
        ("I am single and play far too much chess online", "preference"),
        ("I love reading", "preference"),
    ],
)
def test_health_and_pastime_cues(sentence: str, expected: str) -> None:
    from lokulmem.extraction import analyze_text

    assert expected in analyze_text(sentence, Config()).rule_types


def test_tells_replacement_leaves_out_the_words_chat_says_of_everything() -> None:
    from lokulmem.extraction.lexicon import tells_change, tells_replacement

    for text in (
        "User let the gym membership lapse and joined the climbing wall instead.",  # replaced
        "User has stopped the sessions with the trainer.",  # ended
        "User had to step back from the helpline for a while.",  # a new value
    ):
        assert tells_replacement(text) and tells_change(text), text
    chat = ("User bought some new gaming equipment.", "User is off to see them now.", "User started a blog.")
    for text in chat:
        assert tells_change(text) and not tells_replacement(text), text


def test_tells_change_reads_each_kind_of_change_word() -> None:
    from lokulmem.extraction.lexicon import tells_change

    assert tells_change("User switched to Android.")  # a change marker
    assert tells_change("User has no more football.")  # a replacement
    assert tells_change("User cut right down, one coffee a day.")  # a new value
    assert tells_change("User had to say goodbye to Biscuit yesterday.")  # a loss
    assert tells_change("User had to step back from the helpline for a while.")  # a role ended
    assert tells_change("User rehomed the rabbit with a neighbour.")
    assert tells_change("User has ditched the gym membership.")
    assert tells_change("User binned the vape in January.")
    assert tells_change("User finally got an allotment plot, number 14.")  # what was waited for
    assert tells_change("User's son Arlo was born on the 3rd.")
    assert tells_change("Saving days are over.")
    assert tells_change("User hasn't spoken to Dev in a year.")  # a tie not kept
    assert tells_change("Jamie has retrained as a paramedic.")
    # A thing traded in with its name between, a provider gone over to; not a walk
    # across a room or stories traded.
    assert tells_change("User traded the old Golf in for a Kia.")
    assert tells_change("User and others have gone over to Octopus for the energy.")
    assert not tells_change("User went over to the bar to say hello.")
    assert not tells_change("User traded stories in the pub.")
    assert tells_change("We're expecting twins!")
    assert tells_change("User passed User's test this morning.")
    assert not tells_change("User is expecting a call.")
    assert not tells_change("The shop is over the road.")
    assert not tells_change("The milk has gone off.")  # "gone off" is food gone bad too
    assert not tells_change("User plays football on Wednesdays.")
