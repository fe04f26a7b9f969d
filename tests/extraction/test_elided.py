"""The dropped "I" of chat (``lokulmem.extraction.elided``): pure, no model."""

from __future__ import annotations

import pytest

from lokulmem import Config
from lokulmem.extraction import analyze_text
from lokulmem.extraction.elided import is_past_tense, own_kin, restore_subject

CFG = Config()


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("Went hiking with my dog yesterday.", "I went hiking with my dog yesterday."),
        ("Got a new job at the bakery!", "I got a new job at the bakery!"),
        ("Just booked a salsa class.", "I just booked a salsa class."),
        ("Finally finished the quilt.", "I finally finished the quilt."),
        ("Went hiking and had a blast.", "I went hiking and had a blast."),
        ("Been busy with the move.", "I've been busy with the move."),
        ("Heading to the coast next weekend.", "I'm heading to the coast next weekend."),
        ("Working on a painting, it's coming along.", "I'm working on a painting, it's coming along."),
        ("Feeling excited about the trip.", "I'm feeling excited about the trip."),
        ("Love baking sourdough on Sundays.", "I love baking sourdough on Sundays."),
        ("Excited to try the new recipe.", "I'm excited to try the new recipe."),
        ("Need to get groceries.", "I need to get groceries."),
        # Chat written in lower case drops it too.
        ("started swimming instead to stay fit", "I started swimming instead to stay fit"),
        ("also trying to learn Welsh", "I'm also trying to learn Welsh"),
        # Past tenses spelt like their present, before the words that make them past.
        ("Quit my job on Friday!", "I quit my job on Friday!"),
        ("Cut right down, one coffee a day max now.", "I cut right down, one coffee a day max now."),
        ("Hurt my back lifting boxes.", "I hurt my back lifting boxes."),
        # A first or last stretch somewhere, said as a noun phrase.
        (
            "First week back at work after leave, it's been a lot.",
            "My first week back at work after leave, it's been a lot.",
        ),
        ("Last day at Deloitte today!", "My last day at Deloitte today!"),
        ("Still at Stripe, busy as ever.", "I'm still at Stripe, busy as ever."),
        ("Long day at the depot, but we got it done.", "I had a long day at the depot, but we got it done."),
        ("Another busy week on the ward.", "I had another busy week on the ward."),
        ("Still in Leipzig and not planning to leave.", "I'm still in Leipzig and not planning to leave."),
    ],
)
def test_a_dropped_i_is_put_back(said: str, read: str) -> None:
    assert restore_subject(said) == read


@pytest.mark.parametrize(
    "said",
    [
        "Swimming is fun.",  # the "-ing" word is the subject of its own verb
        "Watching that film last night made me cry.",
        "Settling into the new office was harder than expected.",
        "Love is blind.",
        "Happy birthday!",  # an adjective before a noun, not a feeling
        "Amazing view!",
        "Enjoy your trip!",  # an imperative
        "Like I said, it was fine.",
        "Love it!",  # nothing a memory could hold
        "Loved it!",
        "Keen to try that.",
        "Enjoyed reading that.",  # a reaction to what the listener said
        "Hope you're doing well.",  # well-wishing, about the listener
        "Morning!",
        "Sounds great!",
        "Nothing much.",
        "and then went home",  # a fragment that opens with a connective is left alone
        "swimming is fun.",
        "I went hiking.",  # the subject is there
        "My sister lives in Rome.",
        "",
        # ... and not before anything else: a request to the assistant.
        "Cut the intro please.",
        "Split this into two parts.",
        # ... nor a time ("last week" is the one before), nor a stretch with a verb of its own.
        "Last week at work was hard.",
        "Last day of school!",
        "First night in the new flat and the heating broke.",
        "Still in the box is the old lamp.",  # a verb of its own
        "In Leeds now.",  # no "still": where, but said of anyone
        "Long day at the office was what he said.",  # a verb of its own
        "Long days in summer.",  # no place after the day
    ],
)
def test_what_a_dropped_i_does_not_explain_is_left_alone(said: str) -> None:
    assert restore_subject(said) == said


def test_the_analysis_reads_the_restored_sentence_and_keeps_the_one_said() -> None:
    said = "Went hiking with my dog yesterday."
    a = analyze_text(said, CFG)
    assert a.sentence == said
    assert a.content == "User went hiking with User's dog yesterday."
    assert not a.impersonal
    off = CFG.replace(restore_elided_subject=False)
    assert analyze_text(said, off).content == "Went hiking with User's dog yesterday."
    # With nothing else of the speaker in it, the sentence read as said names no one.
    assert not analyze_text("Got a new job at the bakery!", CFG).impersonal
    assert analyze_text("Got a new job at the bakery!", off).impersonal


def test_is_past_tense_reads_regular_and_irregular_past_forms() -> None:
    assert is_past_tense("User shipped the onboarding redesign.")
    assert is_past_tense("User got the job.")
    assert not is_past_tense("User needs to finish the redesign.")
    assert not is_past_tense("User sees the speed of the bed.")  # "-ed" words that are no past tense


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("Mum moved to Spain.", "My mum moved to Spain."),
        ("Gran is in a care home now.", "My gran is in a care home now."),
        ("I visited Nan in Leeds.", "I visited my nan in Leeds."),
        ("Dad's car broke down.", "My dad's car broke down."),
        ("So Grandad retired.", "So my grandad retired."),
        # Left alone: already someone's, spoken to (or opening a list: "Mum, Dad and I").
        ("My mum moved to Spain.", "My mum moved to Spain."),
        ("Her Dad is a pilot.", "Her Dad is a pilot."),
        ("Thanks, Mum!", "Thanks, Mum!"),
        ("Mum, Dad and I went to Rome.", "Mum, my dad and I went to Rome."),
        ("Mum!", "Mum!"),
        ("The Mum-to-be group meets on Fridays.", "The Mum-to-be group meets on Fridays."),
    ],
)
def test_a_relative_called_by_name_is_the_users(said: str, read: str) -> None:
    assert own_kin(said) == read


def test_a_relative_called_by_name_is_a_fact_about_the_user() -> None:
    a = analyze_text("Mum moved to Spain.", CFG)
    assert a.content == "User's mum moved to Spain." and not a.impersonal
    assert a.attribute is not None and a.attribute.key == "mum.residence"
