"""Stage 1e: a named thing the user ended closes the fact naming it (lokulmem.endings)."""

from collections.abc import Callable

import pytest

from lokulmem import Config, ConfigError, LokulMem
from lokulmem.endings import Ending, ended, ending_of
from lokulmem.records import Memory

CFG = Config()


def _ended(text: str) -> list[tuple[str, str, bool]]:
    return [(e.name, e.phrase, e.role) for e in ended(text, CFG.ending_phrases, CFG.role_ending_phrases)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Cancelled Riverford, we buy veg at the market now.", [("Riverford", "cancelled Riverford", False)]),
        ("Left Vodafone for giffgaff, half the price.", [("Vodafone", "left Vodafone for", False)]),
        ("We had to say goodbye to Biscuit yesterday.", [("Biscuit", "say goodbye to Biscuit", False)]),
        ("I finally deleted Hinge.", [("Hinge", "deleted Hinge", False)]),
        ("We sold the Fiat last week.", [("Fiat", "sold Fiat", False)]),
        ("Sadly Rex passed away.", [("Rex", "Rex passed away", False)]),
        ("Yesterday Nadia retired.", [("Nadia", "Nadia retired", True)]),
        ("Our landlord Dave has retired.", [("Dave", "Dave retired", True)]),
        ("User cancelled Riverford.", [("Riverford", "cancelled Riverford", False)]),
    ],
)
def test_endings_read(text: str, expected: list[tuple[str, str, bool]]) -> None:
    assert _ended(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "My sister cancelled Riverford.",  # someone else ended it
        "I lost Tom's number.",  # no ending verb, a possessive
        "I left Berlin at six.",  # "left" ends a name only when something replaced it
        "We went to Riverford farm.",
        "I cancelled dinner with Tom.",  # what was cancelled is the dinner
    ],
)
def test_no_ending_read(text: str) -> None:
    assert _ended(text) == []


def _fact(content: str) -> Memory:
    return Memory(id=content[:8], content=content, types=("preference",))


def test_ending_closes_the_users_fact_naming_it() -> None:
    endings = [Ending(name="Riverford", phrase="cancelled Riverford", role=False)]
    facts = [
        (_fact("User's sister works at Riverford."), 0.5),  # not the user's own
        (_fact("User gets a veg box from Riverford."), 0.4),
        (_fact("User likes Riverford Hall concerts."), 0.6),  # a longer name
        (_fact("User drives a Honda Civic."), 0.1),  # below the floor
    ]
    found = ending_of(endings, facts, min_similarity=0.2, roles=CFG.ending_roles)
    assert found is not None and found[0].content == "User gets a veg box from Riverford."
    assert ending_of(endings, facts[1:2], min_similarity=0.5, roles=CFG.ending_roles) is None


def test_role_ending_needs_the_role() -> None:
    endings = [Ending(name="Anita", phrase="Anita retired", role=True)]
    boss = (_fact("User's boss is a woman called Anita."), 0.3)
    sister = (_fact("User's sister Anita lives in Leeds."), 0.5)
    found = ending_of(endings, [sister, boss], min_similarity=0.2, roles=CFG.ending_roles)
    assert found is not None and found[0] is boss[0]
    assert ending_of(endings, [sister], min_similarity=0.2, roles=CFG.ending_roles) is None


def test_origin_is_never_closed() -> None:
    endings = [Ending(name="Sweden", phrase="left Sweden for", role=False)]
    facts = [(_fact("User is originally from Sweden."), 0.6), (_fact("User was born in Sweden."), 0.6)]
    assert ending_of(endings, facts, min_similarity=0.2, roles=CFG.ending_roles) is None


@pytest.mark.parametrize(
    ("before", "after", "marker"),
    [
        ("I'm on Vodafone.", "Left Vodafone for giffgaff, half the price.", "left Vodafone for"),
        ("I have a golden retriever called Biscuit.", "We had to say goodbye to Biscuit, he was old.", None),
        ("My boss is a woman called Anita.", "Anita retired and Paul took over the team.", "Anita retired"),
    ],
)
def test_ending_closes_in_a_store(
    make_mem: Callable[..., LokulMem], before: str, after: str, marker: str | None
) -> None:
    mem = make_mem()
    old = mem.learn(before, "").extracted[0]
    (event,) = mem.learn(after, "").contradictions
    assert event.resolution == "temporal-coexistence" and event.existing.id == old.id
    assert event.signal == "marker" and event.temporal_marker_detected == (marker or "say goodbye to Biscuit")
    kept = mem.manage().get(old.id)
    assert kept.status == "active" and kept.valid_to is not None  # closed, not lost


def test_ending_in_a_crowd_finds_the_fact_by_name(make_mem: Callable[..., LokulMem]) -> None:
    """The fact named is found by its name, not only among the nearest five."""
    mem = make_mem()
    old = mem.learn("We get a veg box from Riverford.", "").extracted[0]
    for text in (
        "I cancelled my gym membership.",
        "I cancelled the newspaper delivery.",
        "I cancelled the magazine subscription.",
        "I cancelled my streaming subscription.",
        "I cancelled the window cleaner.",
        "I cancelled the dentist appointment.",
    ):
        mem.learn(text, "")
    (event,) = mem.learn("Cancelled Riverford, we shop at the Saturday market now.", "").contradictions
    assert event.existing.id == old.id


def test_my_sister_ending_it_closes_nothing(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem()
    mem.learn("We get a veg box from Riverford.", "")
    assert mem.learn("My sister cancelled Riverford last week.", "").contradictions == ()


def test_empty_phrases_turn_the_stage_off(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem(ending_phrases=(), role_ending_phrases=())
    mem.learn("I'm on Vodafone.", "")
    assert mem.learn("Left Vodafone for giffgaff, half the price.", "").contradictions == ()


@pytest.mark.parametrize("phrase", ["cancelled", "{} and {}", " {} ", 3])
def test_phrases_validated(phrase: object) -> None:
    with pytest.raises(ConfigError, match="ending_phrases"):
        Config(ending_phrases=(phrase,))  # type: ignore[arg-type]


def test_a_tie_ended_closes_the_relation() -> None:
    endings = [Ending(name="Tom", phrase="broke up with Tom", role=False)]
    fact = _fact("User's boyfriend Tom is a chef.")
    found = ending_of(endings, [(fact, 0.3)], min_similarity=0.2, roles=CFG.ending_roles)
    assert found is not None and found[0] is fact


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Withdrew from Manchester, physio says my knee needs a rest.",
            ("Manchester", "withdrew from Manchester"),
        ),
        ("User and Kieran called it quits over Christmas.", ("Kieran", "Kieran and I called it quits")),
        ("Maureen sold up and a letting agency runs the place now.", ("Maureen", "Maureen sold up")),
    ],
)
def test_more_endings_read(text: str, expected: tuple[str, str]) -> None:
    assert [(n, p) for n, p, _ in _ended(text)] == [expected]


def test_a_fact_about_the_user_need_not_open_with_the_user() -> None:
    endings = [Ending(name="Manchester", phrase="withdrew from Manchester", role=False)]
    fact = _fact("April is the Manchester marathon, User is four months into training.")
    found = ending_of(endings, [(fact, 0.3)], min_similarity=0.2, roles=CFG.ending_roles)
    assert found is not None and found[0] is fact
    world = _fact("Manchester is rainy in April.")
    assert ending_of(endings, [(world, 0.6)], min_similarity=0.2, roles=CFG.ending_roles) is None


def test_long_hostile_text_is_read_in_linear_time() -> None:
    """Every phrase is tried at every capital of a text: a name that could start
    inside a word or run on without end made that quadratic (a 9,000-character
    "AbcAbc…" took 7.6 s when ``ended`` was called on it directly; ``learn()`` cuts
    sentences to ``max_sentence_chars`` first, so it was never slow there).  With
    60,000 characters each case now takes well under a second; the bound is 30
    times that, to fail only when the growth is back."""
    import time

    for text in ("Ab " * 20_000 + "passed away", "Abc" * 20_000, "Abc Def " * 7_500 + "retired"):
        started = time.perf_counter()
        _ended(text)
        assert time.perf_counter() - started < 10.0
