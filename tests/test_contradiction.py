"""The PRD §6 table, with the real model and a real store."""

from collections.abc import Callable

import pytest

from lokulmem import LokulMem
from lokulmem.contradiction import find_temporal_marker, key_tokens


@pytest.mark.parametrize(
    ("before", "after", "resolution", "marker"),
    [
        ("I live in Berlin.", "I live in London.", "conflict", None),
        ("I live in Berlin.", "I used to live in Berlin, now London.", "temporal-coexistence", "used to"),
        ("I prefer light mode.", "I prefer dark mode.", "conflict", None),
        ("I work at Acme Corp.", "I'm no longer at Acme Corp.", "temporal-coexistence", "no longer"),
    ],
)
def test_prd_scenarios(
    make_mem: Callable[..., LokulMem], before: str, after: str, resolution: str, marker: str | None
) -> None:
    mem = make_mem()
    events = []
    mem.manage().on_contradiction_detected(events.append)
    first = mem.learn(before, "ok")
    assert len(first.extracted) == 1
    old = first.extracted[0]
    second = mem.learn(after, "ok")
    assert len(second.contradictions) == 1 and events == list(second.contradictions)
    ev = second.contradictions[0]
    assert ev.resolution == resolution and ev.temporal_marker_detected == marker
    assert ev.existing.id == old.id
    stored_old = mem.manage().get(old.id)
    new = mem.manage().get(ev.incoming.id)
    assert len(mem.manage().list()) == 2  # nothing deleted
    if resolution == "conflict":
        assert stored_old.status == "superseded" and stored_old.supersession_type == "conflict"
        assert stored_old.superseded_by == new.id
    else:
        assert stored_old.status == "active" and stored_old.valid_to is not None
        assert stored_old.supersession_type == "temporal"
        assert new.temporal_supersedes == old.id and new.valid_from == stored_old.valid_to
    assert new.status == "active" and new.valid_to is None


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I like pizza.", "I like sushi."),
        ("My sister lives in Paris.", "I live in Berlin."),
        ("I live in Berlin.", "I live in Berlin with my wife and two kids."),
    ],
)
def test_compatible_facts_coexist(make_mem: Callable[..., LokulMem], before: str, after: str) -> None:
    mem = make_mem()
    mem.learn(before, "")
    r = mem.learn(after, "")
    assert r.contradictions == ()
    assert len(mem.manage().list(status="active")) == 2


def test_restating_a_fact_reinforces_it(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem()
    m = mem.learn("I live in Berlin.", "", session_id="a").extracted[0]
    r = mem.learn("I live in Berlin.", "", session_id="b")
    assert r.extracted == () and [x.id for x in r.reinforced] == [m.id]
    again = mem.manage().get(m.id)
    assert again.mention_count == 1 and again.source_conversation_ids == ("a", "b")


def test_polarity_flip_is_a_conflict(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem()
    mem.learn("I like cats.", "")
    r = mem.learn("I don't like cats.", "")
    assert [c.resolution for c in r.contradictions] == ["conflict"]


def test_markers_match_words_not_substrings() -> None:
    markers = ("quit", "used to", "before")
    assert find_temporal_marker("I QUIT smoking", markers) == "quit"
    assert find_temporal_marker("a quite nice day", markers) is None


def test_a_new_number_or_name_is_not_a_restatement(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem()
    mem.learn("My neighbour owns 2 kayaks.", "")
    r = mem.learn("My neighbour owns 3 kayaks.", "")
    assert r.reinforced == () and len(r.extracted) == 1
    again = mem.learn("My neighbour owns 3 kayaks.", "")
    assert again.extracted == () and len(again.reinforced) == 1


def test_a_number_with_its_unit_is_a_value() -> None:
    assert key_tokens("User goes to bed at 9pm.") == {"9pm"}
    assert key_tokens("User earns 48k, up from 40.5k at 10:30") == {"48k", "40.5k", "10:30"}


def test_a_new_time_is_not_lost_as_a_restatement(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem()
    mem.learn("I go to bed at 11pm.", "")
    r = mem.learn("I go to bed at 9pm these days, early shifts.", "")
    assert r.reinforced == () and len(r.extracted) == 1 and "9pm" in r.extracted[0].content


@pytest.mark.parametrize(
    ("before", "after", "resolution"),
    [
        # Stage 1d: a change marker alone, no shared word.
        ("I use an iPhone.", "I switched to Android.", "temporal-coexistence"),
        # A weak marker counts beside a contrast, or for the same typed attribute.
        (
            "I drink coffee every morning.",
            "These days I drink tea instead of coffee.",
            "temporal-coexistence",
        ),
        ("I work part-time.", "Now I work full-time.", "temporal-coexistence"),
        # New slots: who one lives with, platform, commute, siblings, pets.
        ("I live with my mum and dad.", "I moved to my own apartment.", "temporal-coexistence"),
        ("I live alone.", "I live with my mum and dad.", "conflict"),
        ("I use Windows at home.", "I use Linux at home.", "conflict"),
        ("I take the bus to work.", "Now I cycle to work.", "temporal-coexistence"),
        ("I have one sister.", "I have no siblings.", "conflict"),
        ("I'm an only child.", "I have two brothers.", "conflict"),
        ("I have a cat named Luna.", "I have a cat named Mochi.", "conflict"),
        # Polarity per clause, and how often is not what.
        ("I drink a lot of milk.", "I'm lactose intolerant and never drink milk.", "conflict"),
        ("I go to the gym every day.", "I never go to the gym.", "conflict"),
        ("I've never been to Japan.", "I've been to Japan twice.", "conflict"),
    ],
)
def test_changes_without_a_shared_word(
    make_mem: Callable[..., LokulMem], before: str, after: str, resolution: str
) -> None:
    mem = make_mem()
    old = mem.learn(before, "").extracted[0]
    r = mem.learn(after, "")
    assert [(c.resolution, c.existing.id) for c in r.contradictions] == [(resolution, old.id)]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I live in Canada.", "I live in Toronto, Canada."),  # more detail, not a change
        ("I have two brothers.", "I have one sister."),
        ("I use an iPhone.", "I use Linux at work."),  # a phone and a computer
        ("I have a son named Leo.", "I have a daughter named Mia."),
        ("I'm a teacher at a primary school.", "I teach third grade."),  # one job, more detail
        ("I teach chemistry at a secondary school.", "I'm a teacher."),  # the same, less
    ],
)
def test_related_slots_that_do_not_conflict(
    make_mem: Callable[..., LokulMem], before: str, after: str
) -> None:
    mem = make_mem()
    mem.learn(before, "")
    assert mem.learn(after, "").contradictions == ()


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # A weak marker tells of a state, not a change ("lately", "now I", "these days").
        ("I'm keen on working in nutrition.", "Lately, I've been looking into dietetics as a profession."),
        ("I want to help other people.", "Now I want to help other people like me too."),
        # A denied change verb is persistence.
        ("I won't give up on my plans.", "I won't quit, however hard it gets."),
        # "joined a gym" is not an employer.
        ("I joined a coding club last weekend.", "I joined a gym last week."),
    ],
)
def test_states_and_persistence_are_not_changes(
    make_mem: Callable[..., LokulMem], before: str, after: str
) -> None:
    mem = make_mem()
    mem.learn(before, "")
    assert mem.learn(after, "").contradictions == ()


def test_restating_the_current_value_after_a_change_is_no_conflict(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem()
    mem.learn("I used to live in London, now I live in Madrid.", session_id="a")
    assert mem.learn("I live in Madrid.", session_id="b").contradictions == ()


def test_opposed_reads_negation_numbers_and_one_slot() -> None:
    from lokulmem.contradiction import opposed
    from lokulmem.extraction.attributes import extract_attribute
    from lokulmem.records import Memory

    def fact(content: str, sentence: str) -> Memory:
        a = extract_attribute(sentence)
        return Memory(
            id="m",
            content=content,
            types=("identity",),
            attribute=a.key if a else None,
            attribute_value=a.value if a else None,
        )

    spaniel = fact("User has got a spaniel called Fig.", "I've got a spaniel called Fig.")
    assert opposed("User hasn't got any pets these days.", None, spaniel)  # one side negated
    kids = fact("User and others have 2 kids at school.", "We have 2 kids at school.")
    assert opposed("User and others have 3 kids at school.", None, kids)  # other numbers
    assert not opposed("User's kids at school are 7 and 9.", None, kids)  # numbers of other things
    canada = fact("User is living in Canada these days.", "I'm living in Canada these days.")
    assert opposed("User lives in Oslo.", extract_attribute("I'm living in Oslo."), canada)  # one slot
    toronto = extract_attribute("I'm living in Toronto, Canada these days.")
    assert not opposed("User is living in Toronto, Canada these days.", toronto, canada)  # detail
    assert not opposed("User likes green tea.", None, fact("User likes oolong tea.", "I like oolong tea."))
