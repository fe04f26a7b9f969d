"""Which stored facts state how things stand (``lokulmem.retrieval.states``)."""

from __future__ import annotations

import pytest

from lokulmem.retrieval.states import replaceable, states_now

#: Present states: :func:`states_now` reads each, and so :func:`replaceable` does.
PRESENT_STATES = [
    "User banks with Northgate.",
    "User works nights at the clinic.",
    "User's broadband provider is Skylink.",
    "User's salary is 40k.",
    "User is training for a half marathon.",
    "User is in a choir on Tuesdays.",
    "User is a nurse.",
    "User's son goes to nursery.",
    "User's grandson Alfie stays with User and others on Wednesdays.",  # a relation named
    "These days User writes almost everything in Go.",
    "User's train to Leeds is at 9 on Friday.",  # a capitalised name inside the possession
]


@pytest.mark.parametrize("content", PRESENT_STATES)
def test_present_states(content: str) -> None:
    assert states_now(content)


@pytest.mark.parametrize(
    "content",
    [
        "User loves painting.",  # a feeling
        "User thinks the plan is good.",  # an opinion
        "User is excited about the trip.",  # a feeling with "is"
        "User went to Paris.",  # an event
        "User was happy.",
        "User misses Rome.",
        "User is thinking of learning Italian.",  # a frame of mind
        "User's grandson Alfie loves football.",  # a feeling, named or not
        "Our office moved to the docks.",  # not about the user by name
    ],
)
def test_not_states(content: str) -> None:
    assert not states_now(content)


def test_the_user_label_is_read() -> None:
    assert states_now("Sam banks with Northgate.", "Sam")
    assert not states_now("User banks with Northgate.", "Sam")


@pytest.mark.parametrize(
    "content",
    [
        *PRESENT_STATES,
        "User hates olives.",  # an opinion of something, which a change of mind replaces
        "User really prefers tea.",
        "User's phone number ends in 441.",  # a property of something of the user's
        "User's flat costs 900 a month.",
        "User doesn't eat meat.",  # a state said in the negative
        "User never drinks coffee.",
        "User has been vegan for years.",  # ... or as lasting
        "User is into climbing.",  # what the user is, not a feeling
        "User is 34.",
        "User is the team lead.",
        "Pizza is User's favourite food.",  # what is the user's
    ],
)
def test_replaceable(content: str) -> None:
    assert replaceable(content)


@pytest.mark.parametrize(
    "content",
    [
        "User entered a chess match on Sunday.",  # an event
        "User is glad the evening went well.",  # a feeling about an occasion
        "User is so excited about Friday.",
        "User is thrilled.",
        "User is thinking of moving.",  # a frame of mind
        "Baking makes User calm.",  # not said of the user
        "User's boss says hi.",  # a saying
        "User's class was fun.",
        "Sam hates olives.",  # another person (the label is "User")
    ],
)
def test_not_replaceable(content: str) -> None:
    assert not replaceable(content)


def test_replaceable_reads_the_user_label() -> None:
    assert replaceable("Sam hates olives.", "Sam")
    assert replaceable("Sam's phone number ends in 441.", "Sam")
