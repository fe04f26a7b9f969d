"""Which stored facts state how things stand (``lokulmem.retrieval.states``)."""

from __future__ import annotations

import pytest

from lokulmem.retrieval.states import states_now


@pytest.mark.parametrize(
    "content",
    [
        "User banks with Northgate.",
        "User works nights at the clinic.",
        "User's broadband provider is Skylink.",
        "User's salary is 40k.",
        "User is training for a half marathon.",
        "User is in a choir on Tuesdays.",
        "User is a nurse.",
        "User's son goes to nursery.",
        "These days User writes almost everything in Go.",
    ],
)
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
        "Our office moved to the docks.",  # not about the user by name
    ],
)
def test_not_states(content: str) -> None:
    assert not states_now(content)


def test_the_user_label_is_read() -> None:
    assert states_now("Sam banks with Northgate.", "Sam")
    assert not states_now("User banks with Northgate.", "Sam")
