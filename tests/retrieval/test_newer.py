"""Newer first (``lokulmem.retrieval.newer``) on hand-built records: no store, no model."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from lokulmem import Config, Memory
from lokulmem.pairhead import HASH_BUCKETS, LEXICAL_FEATURES, PairHead
from lokulmem.records import ScoreBreakdown
from lokulmem.retrieval.newer import inheriting, newer_first
from lokulmem.retrieval.stages import Scored

DAY = 86_400_000
T0 = 1_767_225_600_000
# A margin the scores below sit around; the echo of the best result (which needs
# no words) off, so the word rules are what is tested, except in the echo tests.
CFG = Config(newer_first_similarity=0.5, newer_first_margin=0.2, newer_first_echo_similarity=0.0)
# The mutual band (a told change below the told bars) off: the bars are what is tested.
ECHO = CFG.replace(
    newer_first_echo_similarity=0.5,
    newer_first_echo_told_similarity=0.4,
    newer_first_echo_mutual_similarity=0.0,
)


def vec(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def item(
    mid: str,
    v: np.ndarray,
    score: float,
    *,
    day: float = 0,
    pinned: bool = False,
    content: str = "",
    attribute: str | None = None,
    value: str | None = None,
) -> Scored:
    m = Memory(
        id=mid,
        content=content or f"User has {mid} now.",
        types=("preference",),
        embedding=v,
        created_at=T0 + int(day * DAY),
        pinned=pinned,
        attribute=attribute,
        attribute_value=value,
    )
    return Scored(m, 0.5, ScoreBreakdown(semantic=score, recency=0.0, strength=0.0, continuity=0.0), 0.5)


def ids(ranked: list[Scored]) -> list[str]:
    return [s.memory.id for s in ranked]


def test_a_newer_memory_on_the_same_subject_moves_above_the_older() -> None:
    old = item("old", vec(1, 0.2, 0, 0), 0.60)
    other = item("other", vec(0, 0, 1, 0), 0.55)
    new = item("new", vec(1, 0, 0.3, 0), 0.50, day=20)
    ranked, moved = newer_first([old, other, new], CFG)
    assert ids(ranked) == ["new", "old", "other"]
    assert moved == {"new": "old"}


def test_a_closed_fact_never_moves_above_an_older_memory() -> None:
    # The closed fact is newer than the other memory, but it is history: moved
    # up, it would stand above its own replacement (ranked third here).
    other = item("other", vec(1, 0.2, 0, 0), 0.60, day=-30)
    closed = item("closed", vec(1, 0, 0.3, 0), 0.50)
    closed = Scored(
        replace(closed.memory, valid_to=T0 + 20 * DAY, superseded_by="current"),
        closed.similarity,
        closed.breakdown,
        closed.match,
    )
    current = item("current", vec(0, 0, 1, 0), 0.40, day=20)
    ranked, moved = newer_first([other, closed, current], CFG)
    assert ids(ranked) == ["other", "closed", "current"] and "closed" not in moved
    # The same fact still current moves as before.
    open_fact = item("closed", vec(1, 0, 0.3, 0), 0.50)
    assert ids(newer_first([other, open_fact, current], CFG)[0])[:2] == ["closed", "other"]


def test_nothing_moves_when_any_condition_fails() -> None:
    old = item("old", vec(1, 0.2, 0, 0), 0.60)
    cases = {
        "too different": item("new", vec(0.3, 1, 0, 0), 0.55, day=20),
        "same message": item("new", vec(1, 0, 0.3, 0), 0.55, day=0.01),
        "scores far below": item("new", vec(1, 0, 0.3, 0), 0.30, day=20),
    }
    for why, new in cases.items():
        ranked, moved = newer_first([old, new], CFG)
        assert ids(ranked) == ["old", "new"] and not moved, why
    pinned = item("old", vec(1, 0.2, 0, 0), 0.60, pinned=True)
    assert ids(newer_first([pinned, cases["scores far below"]], CFG.replace(newer_first_margin=1))[0]) == [
        "old",
        "new",
    ]
    off = Config(newer_first_similarity=0)
    new = item("new", vec(1, 0, 0.3, 0), 0.55, day=20)
    assert ids(newer_first([old, new], off)[0]) == ["old", "new"]


def test_only_the_window_is_reordered_and_the_rest_keeps_its_place() -> None:
    cfg = CFG.replace(newer_first_window=2)
    old = item("old", vec(1, 0.2, 0, 0), 0.60)
    mid = item("mid", vec(0, 1, 0, 0), 0.58)
    new = item("new", vec(1, 0, 0.3, 0), 0.55, day=20)
    ranked, moved = newer_first([old, mid, new], cfg)
    assert ids(ranked) == ["old", "mid", "new"] and not moved


def test_three_versions_end_newest_first() -> None:
    v1 = item("v1", vec(1, 0.1, 0, 0), 0.60)
    v2 = item("v2", vec(1, 0.2, 0, 0), 0.58, day=10)
    v3 = item("v3", vec(1, 0.3, 0, 0), 0.56, day=20)
    assert ids(newer_first([v1, v2, v3], CFG)[0]) == ["v3", "v2", "v1"]


def test_a_question_about_the_past_moves_nothing() -> None:
    old = item("old", vec(1, 0.2, 0, 0), 0.60)
    new = item("new", vec(1, 0, 0.3, 0), 0.55, day=20)
    assert ids(newer_first([old, new], CFG, asks_now=False)[0]) == ["old", "new"]
    anyway = CFG.replace(newer_first_needs_now=False)
    assert ids(newer_first([old, new], anyway, asks_now=False)[0]) == ["new", "old"]


def test_only_a_memory_that_tells_a_change_moves() -> None:
    old = item("old", vec(1, 0.2, 0, 0), 0.60)
    plain = item("new", vec(1, 0, 0.3, 0), 0.55, day=20, content="User fact.")
    assert ids(newer_first([old, plain], CFG)[0]) == ["old", "new"]
    unmarked = CFG.replace(newer_first_needs_marker=False)
    assert ids(newer_first([old, plain], unmarked)[0]) == ["new", "old"]


def test_moving_a_thing_to_another_place_or_provider_tells_a_change() -> None:
    old = item("old", vec(1, 0.2, 0, 0), 0.60, content="User writes User's notes in a paper diary.")
    for told in (
        "User migrated all User's notes to a wiki.",
        "User transferred to an evening course.",
        "User relocated to the coast.",
        "User ported User's number to another network.",
        "User swapped the bike for a scooter.",
        "User traded in the hatchback for a van.",
    ):
        new = item("new", vec(1, 0, 0.3, 0), 0.55, day=20, content=told)
        assert ids(newer_first([old, new], CFG)[0]) == ["new", "old"], told
    kept = item("new", vec(1, 0, 0.3, 0), 0.55, day=20, content="User wrote more notes in a wiki.")
    assert ids(newer_first([old, kept], CFG)[0]) == ["old", "new"]


def _constant_head(probability: float) -> PairHead:
    """A head that gives every pair the same probability (its weights are zero)."""
    d = 2 * 384 + len(LEXICAL_FEATURES) + 2 * HASH_BUCKETS
    logit = float(np.log(probability / (1 - probability)))
    zeros = np.zeros(d, np.float32)
    return PairHead(
        mean=zeros,
        scale=np.ones(d, np.float32),
        w1=np.zeros((d, 4), np.float32),
        b1=np.zeros(4, np.float32),
        w2=np.zeros(4, np.float32),
        b2=logit,
        sha256="test",
    )


def test_the_pair_head_can_vouch_for_a_change_told_without_a_marker() -> None:
    def pair() -> list[Scored]:
        old = item("old", vec(1, 0.2, 0, 0, *[0] * 380), 0.60, content="User's manager is Helen.")
        new = item("new", vec(1, 0, 0.3, 0, *[0] * 380), 0.55, day=20, content="User reports to Oscar.")
        return [old, new]

    cfg = CFG.replace(newer_first_pair_threshold=0.7)
    assert ids(newer_first(pair(), cfg)[0]) == ["old", "new"]  # no marker, no head: stays
    assert ids(newer_first(pair(), cfg, head=_constant_head(0.9))[0]) == ["new", "old"]
    assert ids(newer_first(pair(), cfg, head=_constant_head(0.5))[0]) == ["old", "new"]
    # The threshold at 0 leaves the head out, whatever it says.
    off = cfg.replace(newer_first_pair_threshold=0.0)
    assert ids(newer_first(pair(), off, head=_constant_head(0.99))[0]) == ["old", "new"]


def test_with_inheritance_a_marked_newer_memory_moves_from_anywhere_in_the_ranking() -> None:
    cfg = CFG.replace(newer_first_window=2, newer_first_inherits=True)
    old = item("old", vec(1, 0.2, 0, 0), 0.60, attribute="user.job")
    mid = item("mid", vec(0, 1, 0, 0), 0.58)
    far = item("far", vec(0, 0, 1, 0), 0.40)
    new = item("new", vec(1, 0, 0.3, 0), 0.10, day=20)  # far below: no margin with inheritance
    ranked, moved = newer_first([old, mid, far, new], cfg, relevant={"old"})
    assert ids(ranked) == ["new", "old", "mid", "far"]
    assert moved == {"new": "old"} and inheriting(ranked, moved, cfg, {"old"}) == [("old", "new")]
    # Off, the same memory stays where it ranked and inherits nothing.
    off = cfg.replace(newer_first_inherits=False)
    ranked, moved = newer_first([old, mid, far, new], off, relevant={"old"})
    assert ids(ranked) == ["old", "mid", "far", "new"] and inheriting(ranked, moved, off, {"old"}) == []


def test_only_a_relevant_fact_of_a_typed_attribute_lends_its_standing() -> None:
    cfg = CFG.replace(newer_first_window=2, newer_first_inherits=True)
    mid = item("mid", vec(0, 1, 0, 0), 0.58)
    new = item("new", vec(1, 0, 0.3, 0), 0.10, day=20)
    for old, relevant in [
        (item("old", vec(1, 0.2, 0, 0), 0.60, content="User loves old maps."), {"old"}),  # a remark
        (item("old", vec(1, 0.2, 0, 0), 0.60, attribute="user.job"), set()),  # not relevant
    ]:
        ranked, moved = newer_first([old, mid, new], cfg, relevant=relevant)
        assert ids(ranked) == ["old", "mid", "new"] and not moved
        assert inheriting(ranked, moved, cfg, relevant) == []


def test_only_a_change_told_in_words_inherits() -> None:
    cfg = CFG.replace(newer_first_inherits=True, newer_first_pair_threshold=0.7)
    old = item(
        "old",
        vec(1, 0.2, 0, 0, *[0] * 380),
        0.60,
        content="User's manager is Helen.",
        attribute="user.manager",
    )
    new = item("new", vec(1, 0, 0.3, 0, *[0] * 380), 0.55, day=20, content="User reports to Oscar.")
    head = _constant_head(0.9)
    ranked, moved = newer_first([old, new], cfg, head=head, relevant={"old"})
    assert ids(ranked) == ["new", "old"] and moved == {"new": "old"}
    assert inheriting(ranked, moved, cfg, {"old"}) == []  # the head reorders; it lends no standing
    low = item("new", vec(1, 0, 0.3, 0, *[0] * 380), 0.10, day=20, content="User reports to Oscar.")
    assert ids(newer_first([old, low], cfg, head=head, relevant={"old"})[0]) == ["old", "new"]


def test_a_relevant_fact_that_states_how_things_stand_lends_its_standing() -> None:
    cfg = CFG.replace(newer_first_window=2, newer_first_inherits=True)
    mid = item("mid", vec(0, 1, 0, 0), 0.58)
    new = item("new", vec(1, 0, 0.3, 0), 0.10, day=20, content="User moved User's account to Lumen Bank.")
    old = item("old", vec(1, 0.2, 0, 0), 0.60, content="User banks with Northgate.")
    ranked, moved = newer_first([old, mid, new], cfg, relevant={"old"})
    assert ids(ranked) == ["new", "old", "mid"]
    assert inheriting(ranked, moved, cfg, {"old"}) == [("old", "new")]
    off = cfg.replace(newer_first_states_lend=False)
    ranked, moved = newer_first([old, mid, new], off, relevant={"old"})
    assert ids(ranked) == ["old", "mid", "new"] and not moved


def test_an_inheritance_needs_only_the_lower_similarity() -> None:
    cfg = CFG.replace(newer_first_inherits=True, newer_first_inherit_similarity=0.25)
    old = item("old", vec(1, 0, 0, 0), 0.60, content="User's rent is 900 a month.")
    # cosine 0.29: over the inheritance bar, under the 0.5 the other moves need
    new = item("new", vec(0.3, 1, 0, 0), 0.10, day=20, content="User's rent went up to 1,050 a month.")
    ranked, moved = newer_first([old, new], cfg, relevant={"old"})
    assert ids(ranked) == ["new", "old"] and moved == {"new": "old"}
    strict = cfg.replace(newer_first_inherit_similarity=0.5)
    assert ids(newer_first([old, new], strict, relevant={"old"})[0]) == ["old", "new"]


def test_after_a_fact_of_the_asked_slot_an_untyped_change_needs_only_the_asked_bar() -> None:
    """The cue (or route) lifted "User is pescatarian." by its slot; "User started
    eating chicken again." sets no slot and reads less alike (cosine 0.45 here):
    it inherits from ``newer_first_asked_inherit_similarity``, not the usual bar."""
    cfg = CFG.replace(newer_first_inherits=True, newer_first_inherit_similarity=0.5)
    old = item(
        "old",
        vec(1, 0, 0, 0),
        0.60,
        content="User is pescatarian.",
        attribute="user.diet",
        value="pescatarian",
    )
    new = item("new", vec(0.5, 1, 0, 0), 0.10, day=20, content="User started eating chicken again.")
    lifted = replace(old, breakdown=replace(old.breakdown, attribute=0.5))
    for older, bar, moves in [(lifted, 0.4, True), (lifted, 0.5, False), (old, 0.4, False)]:
        ranked, _ = newer_first(
            [older, new], cfg.replace(newer_first_asked_inherit_similarity=bar), relevant={"old"}
        )
        assert (ids(ranked) == ["new", "old"]) is moves, (bar, older.breakdown.attribute)


def test_a_change_of_value_told_without_a_marker_word_inherits() -> None:
    cfg = CFG.replace(newer_first_inherits=True)
    old = item("old", vec(1, 0.2, 0, 0), 0.60, content="User drinks a lot of tea.")
    for content, moves in [
        ("User cut out caffeine completely.", True),
        ("User's salary went up to 48k after the review.", True),
        ("User just finished a jigsaw.", False),  # an event, not a new value
        ("User bought concert tickets.", False),
    ]:
        new = item("new", vec(1, 0, 0.3, 0), 0.10, day=20, content=content)
        ranked, _ = newer_first([old, new], cfg, relevant={"old"})
        assert (ids(ranked) == ["new", "old"]) is moves, content


def test_a_change_of_another_kind_of_attribute_does_not_inherit() -> None:
    cfg = CFG.replace(newer_first_inherits=True, newer_first_inherit_similarity=0.25)
    old = item("old", vec(1, 0, 0, 0), 0.60, content="User lives in Lisbon.", attribute="user.residence")

    def new(attribute: str) -> Scored:  # cosine 0.29 with the old: an inheritance's bar only
        return item("new", vec(0.3, 1, 0, 0), 0.10, day=20, content="User no longer works at Acme.",
                    attribute=attribute)  # fmt: skip

    ranked, moved = newer_first([old, new("user.employer")], cfg, relevant={"old"})
    assert ids(ranked) == ["old", "new"] and not moved
    ranked, moved = newer_first([old, new("user.residence:city")], cfg, relevant={"old"})
    assert ids(ranked) == ["new", "old"] and moved == {"new": "old"}


def _with_bonus(s: Scored, bonus: float) -> Scored:
    b = ScoreBreakdown(
        semantic=s.breakdown.semantic, recency=0.0, strength=0.0, continuity=0.0, attribute=bonus
    )
    return Scored(s.memory, s.similarity, b, s.match)


def test_the_attribute_bonus_never_lifts_an_older_slot_fact_over_a_newer_better_match() -> None:
    """A change of the asked slot no rule recognised: the older fact sets the slot and
    gets the bonus, the newer memory (no marker word, no slot) matched better."""
    cfg = CFG.replace(newer_first_pair_threshold=0.0)
    slot = item("slot", vec(1, 0.2, 0, 0), 0.40, content="User is engaged.", attribute="user.status")
    news = item("news", vec(1, 0, 0.3, 0), 0.45, day=20, content="User got married.")
    lifted = _with_bonus(slot, 0.5)
    ranked, moved = newer_first([lifted, news], cfg)
    assert ids(ranked) == ["news", "slot"] and moved == {"news": "slot"}
    # It matched worse (beyond the bonus): the slot fact keeps its place ...
    weaker = item("news", vec(1, 0, 0.3, 0), 0.30, day=20, content="User got married.")
    assert ids(newer_first([lifted, weaker], cfg)[0]) == ["slot", "news"]
    # ... and so it does when the newer memory is the older one (no change told).
    early = item("news", vec(1, 0, 0.3, 0), 0.45, day=-20, content="User got married.")
    assert ids(newer_first([lifted, early], cfg)[0]) == ["slot", "news"]
    # Both set the slot (both have the bonus): the ordinary rule, which needs a marker.
    assert ids(newer_first([_with_bonus(slot, 0.6), _with_bonus(news, 0.5)], cfg)[0]) == ["slot", "news"]


def test_a_remark_is_never_out_of_date_so_nothing_moves_above_it() -> None:
    """``newer_first_needs_state``: the older memory must state something a change
    replaces; a remark about an occasion keeps its place above a newer remark."""
    old = item("old", vec(1, 0.2, 0, 0), 0.60, content="User is glad the festival went well.")
    new = item("new", vec(1, 0, 0.3, 0), 0.55, day=20, content="User is rehearsing for the festival now.")
    ranked, moved = newer_first([old, new], CFG)
    assert ids(ranked) == ["old", "new"] and not moved
    ranked, moved = newer_first([old, new], CFG.replace(newer_first_needs_state=False))
    assert ids(ranked) == ["new", "old"] and moved == {"new": "old"}
    # A typed attribute or an opinion of something is replaceable: the move is made.
    for older in (
        item("old", vec(1, 0.2, 0, 0), 0.60, content="User is glad about it.", attribute="user.residence"),
        item("old", vec(1, 0.2, 0, 0), 0.60, content="User hates olives."),
    ):
        assert ids(newer_first([older, new], CFG)[0]) == ["new", "old"]


def test_a_change_of_the_same_slot_inherits_however_unlike_the_sentences() -> None:
    """Two facts the attribute rules read as one slot need no cosine to inherit:
    "User works from home." / "User and others are back in the office now." read
    apart (cosine 0.2) though they set the same thing."""
    cfg = CFG.replace(newer_first_inherits=True)
    old = item("old", vec(1, 0, 0, 0), 0.60, content="User works from home.", attribute="user.work_mode")
    back = "User and others are back in the office now."
    new = item("new", vec(0.2, 1, 0, 0), 0.10, day=20, content=back, attribute="user.work_mode")
    ranked, moved = newer_first([old, new], cfg, relevant={"old"})
    assert ids(ranked) == ["new", "old"] and moved == {"new": "old"}
    untyped = item("new", vec(0.2, 1, 0, 0), 0.10, day=20, content=back)
    assert ids(newer_first([old, untyped], cfg, relevant={"old"})[0]) == ["old", "new"]


def test_a_new_value_of_the_same_slot_moves_above_the_old_without_a_marker() -> None:
    """The attribute rules read only single-valued slots: a newer fact setting the
    older one's slot to another value is the current one, told with no change word
    and with sentences far apart ("User and others bought their first home." after
    "User rents User's apartment.", cosine 0.32).  It moves; it lends nothing."""
    cfg = CFG.replace(newer_first_inherits=True)
    rent = "User rents User's apartment."
    old = item("old", vec(1, 0, 0, 0), 0.54, content=rent, attribute="user.tenure", value="rent")
    bought = "User and others bought their first home."
    new = item("new", vec(0.3, 1, 0, 0), 0.46, day=30, content=bought, attribute="user.tenure", value="own")
    ranked, moved = newer_first([old, new], cfg, relevant={"old"})
    assert ids(ranked) == ["new", "old"] and moved == {"new": "old"}
    assert inheriting(ranked, moved, cfg, {"old"}) == []
    same = item("new", vec(0.3, 1, 0, 0), 0.46, day=30, content=bought, attribute="user.tenure", value="rent")
    assert ids(newer_first([old, same], cfg, relevant={"old"})[0]) == ["old", "new"]
    assert ids(newer_first([old, new], cfg.replace(newer_first_inherits=False))[0]) == ["old", "new"]


def session_item(
    mid: str, v: np.ndarray, score: float, session: str, *, day: float = 0, content: str = ""
) -> Scored:
    s = item(mid, v, score, day=day, content=content or "User talked about the plan.")  # no change word
    return Scored(replace(s.memory, source_session=session), s.similarity, s.breakdown, s.match)


def test_a_later_conversations_word_on_the_best_result_moves_above_it_and_inherits() -> None:
    """No marker, no slot, no state: "dropped the violin and picked up the cello"."""
    old = session_item("old", vec(1, 0.2, 0, 0), 0.60, "s1", content="User plays the violin in an orchestra.")
    mid = session_item("mid", vec(0, 1, 0, 0), 0.58, "s1")
    new = session_item(
        "new", vec(1, 0, 0.3, 0), 0.10, "s2", day=20, content="User dropped the violin for the cello."
    )
    ranked, moved = newer_first([old, mid, new], ECHO, relevant={"old"})
    assert ids(ranked) == ["new", "old", "mid"] and moved == {"new": "old"}
    assert inheriting(ranked, moved, ECHO, {"old"}) == [("old", "new")]
    # Off, nothing moves (no word tells a change).
    assert ids(newer_first([old, mid, new], CFG, relevant={"old"})[0]) == ["old", "mid", "new"]


def test_an_echo_needs_a_relevant_best_result_another_conversation_and_the_cosine() -> None:
    old = session_item("old", vec(1, 0.2, 0, 0), 0.60, "s1")
    new = session_item("new", vec(1, 0, 0.3, 0), 0.10, "s2", day=20)
    cases = {
        "older not relevant": ([old, new], frozenset()),
        "same conversation": ([old, session_item("new", vec(1, 0, 0.3, 0), 0.10, "s1", day=20)], {"old"}),
        "too different": ([old, session_item("new", vec(0.3, 1, 0, 0), 0.10, "s2", day=20)], {"old"}),
    }
    for why, (ranked, relevant) in cases.items():
        out, moved = newer_first(ranked, ECHO, relevant=relevant)
        assert ids(out) == ["old", "new"] and not moved, why
        assert inheriting(out, moved, ECHO, relevant) == [], why


def test_only_the_best_result_lends_by_echo() -> None:
    first = session_item("first", vec(0, 1, 0, 0), 0.70, "s1")
    second = session_item("second", vec(1, 0.2, 0, 0), 0.60, "s1")
    new = session_item("new", vec(1, 0, 0.3, 0), 0.10, "s2", day=20)
    relevant = {"first", "second"}
    ranked, moved = newer_first([first, second, new], ECHO, relevant=relevant)
    assert ids(ranked) == ["first", "second", "new"] and not moved
    two = ECHO.replace(newer_first_echo_top=2)
    ranked, moved = newer_first([first, second, new], two, relevant=relevant)
    assert ids(ranked) == ["first", "new", "second"]
    assert inheriting(ranked, moved, two, relevant) == [("second", "new")]


def test_a_later_word_that_tells_a_change_echoes_from_a_lower_cosine() -> None:
    """A change moves a fact away from its old wording ("User switched User's dev
    machine to Windows." after "User does User's coding on Linux."): a newer memory
    whose own words tell a change echoes from ``newer_first_echo_told_similarity``,
    when the best result is the window's memory nearest to it."""
    old = session_item("old", vec(1, 0.2, 0, 0), 0.60, "s1")
    told = "User switched User's dev machine to Windows."
    new = session_item("new", vec(0.3, 1, 0, 0), 0.10, "s2", day=20, content=told)  # cosine 0.47
    ranked, moved = newer_first([old, new], ECHO, relevant={"old"})
    assert ids(ranked) == ["new", "old"] and moved == {"new": "old"}
    assert inheriting(ranked, moved, ECHO, {"old"}) == [("old", "new")]
    # Without a word for the change, or with the told bar at the echo's, it stays.
    plain = session_item("new", vec(0.3, 1, 0, 0), 0.10, "s2", day=20)
    assert ids(newer_first([old, plain], ECHO, relevant={"old"})[0]) == ["old", "new"]
    same = ECHO.replace(newer_first_echo_told_similarity=0.5)
    assert ids(newer_first([old, new], same, relevant={"old"})[0]) == ["old", "new"]


def test_a_told_echo_that_shares_a_word_lends_from_a_lower_cosine_still() -> None:
    """A told change that shares a content word with the best result echoes it from
    ``newer_first_echo_shared_similarity`` (docs/tuning.md entry 84); one that
    shares none needs ``newer_first_echo_told_similarity``."""
    old = session_item(
        "old", vec(1, 0, 0, 0), 0.60, "s1", content="User walks the kids to school every morning."
    )
    told = "The school run is by car now that User and others have moved further out."
    new = session_item("new", vec(0.35, 0.94, 0, 0), 0.10, "s2", day=20, content=told)  # cosine 0.35
    ranked, moved = newer_first([old, new], ECHO, relevant={"old"})
    assert ids(ranked) == ["new", "old"] and moved == {"new": "old"}
    other = "User opened User's own practice in Harrogate now."
    unrelated = session_item("new", vec(0.35, 0.94, 0, 0), 0.10, "s2", day=20, content=other)
    assert ids(newer_first([old, unrelated], ECHO, relevant={"old"})[0]) == ["old", "new"]
    off = ECHO.replace(newer_first_echo_shared_similarity=0.4)
    assert ids(newer_first([old, new], off, relevant={"old"})[0]) == ["old", "new"]


def test_a_told_echo_lends_only_from_the_memory_nearest_to_it() -> None:
    """Below ``newer_first_echo_similarity`` the newer memory must be nearer the best
    result than any other memory of the window: "User switched User's weekday runs
    to cycling." is no later word on "User swims on Sundays." when a memory about
    the runs ranks beside it."""
    old = session_item("old", vec(1, 0.2, 0, 0), 0.60, "s1")
    runs = session_item("runs", vec(0.2, 1, 0.2, 0), 0.55, "s1")
    told = "User switched User's weekday runs to cycling."
    new = session_item("new", vec(0.3, 1, 0, 0), 0.10, "s2", day=20, content=told)
    ranked, moved = newer_first([old, runs, new], ECHO, relevant={"old"})
    assert ids(ranked) == ["old", "runs", "new"] and not moved


def test_an_echo_is_read_below_the_window_up_to_its_reach() -> None:
    """A crowd of older memories on the topic can push the later word just below the
    window: it is read there, up to ``newer_first_echo_reach`` places."""
    old = session_item("old", vec(1, 0.2, 0, 0), 0.60, "s1")
    crowd = [session_item(f"c{i}", vec(0, 1, 0.1 * i, 0), 0.5 - 0.01 * i, f"c{i}", day=-9) for i in range(5)]
    new = session_item("new", vec(1, 0, 0.3, 0), 0.10, "s2", day=20)
    config = ECHO.replace(newer_first_window=5, newer_first_echo_reach=10)
    ranked, moved = newer_first([old, *crowd, new], config, relevant={"old"})
    assert ids(ranked)[:2] == ["new", "old"] and moved == {"new": "old"}
    # Within the window only, it is not read.
    short = config.replace(newer_first_echo_reach=5)
    assert ids(newer_first([old, *crowd, new], short, relevant={"old"})[0])[-1] == "new"


def test_a_result_tied_with_the_best_lends_by_echo_too() -> None:
    """Which of two near-equal results ranks first is noise: within
    ``newer_first_echo_tie`` of the best, the second lends as the best does."""
    first = session_item("first", vec(0, 1, 0, 0), 0.700, "s1")
    second = session_item("second", vec(1, 0.2, 0, 0), 0.695, "s1")
    new = session_item("new", vec(1, 0, 0.3, 0), 0.10, "s2", day=20)
    relevant = {"first", "second"}
    ranked, moved = newer_first(
        [first, second, new], ECHO.replace(newer_first_echo_tie=0.01), relevant=relevant
    )
    assert ids(ranked) == ["first", "new", "second"] and moved == {"new": "second"}
    ranked, moved = newer_first(
        [first, second, new], ECHO.replace(newer_first_echo_tie=0.0), relevant=relevant
    )
    assert ids(ranked) == ["first", "second", "new"] and not moved


def message_item(
    mid: str, v: np.ndarray, score: float, message: str, *, session: str, content: str
) -> Scored:
    s = session_item(mid, v, score, session, day=20, content=content)
    return Scored(replace(s.memory, source_context=message), s.similarity, s.breakdown, s.match)


def one_message(said: str, *memories: tuple[str, np.ndarray, str]) -> list[Scored]:
    """The memories ``(id, vector, content)`` learned from the message ``said`` in a
    later conversation (session "s2"), each with a low score of its own."""
    return [message_item(mid, v, 0.10, said, session="s2", content=content) for mid, v, content in memories]


def test_two_echoes_of_one_message_both_inherit_from_the_best_result() -> None:
    """ "I've gone off parkrun, I do a swim at the lido on Saturdays instead." stores
    two memories, both echoes of "Saturday mornings are parkrun for User.": both
    move above it, which pushes it to third place; it still lends to both, as their
    message is one change.  Echoes from other messages still count: two of them
    push it out of the lenders, as before (docs/tuning.md entry 64)."""
    old = session_item("old", vec(1, 0, 0, 0), 0.60, "s1", content="Saturday mornings are parkrun for User.")
    swim, off = one_message(
        "I've gone off parkrun, I do a swim at the lido on Saturdays instead.",
        ("swim", vec(1, 0.6, 0, 0), "User swims on Saturdays instead."),
        ("off", vec(1, 0, 0.5, 0), "User went off parkrun now."),
    )
    ranked, moved = newer_first([old, swim, off], ECHO, relevant={"old"})
    assert ids(ranked) == ["swim", "off", "old"] and moved == {"swim": "old", "off": "old"}
    assert sorted(inheriting(ranked, moved, ECHO, {"old"})) == [("old", "off"), ("old", "swim")]
    runs = [
        message_item(
            f"m{i}", vec(1, 0, 0.5, 0), 0.10, f"Message {i} now.", session=f"t{i}", content="User ran now."
        )
        for i in range(2)
    ]
    ranked, moved = newer_first([old, swim, *runs], ECHO, relevant={"old"})
    assert ids(ranked)[-1] == "old" and len(moved) == 3
    assert inheriting(ranked, moved, ECHO, {"old"}) == []


def test_a_memory_of_the_message_that_names_no_word_of_the_best_result_does_not_inherit() -> None:
    """ "User's calf is fully healed." and "User no longer works at the sports clinic
    …", said in one message, both echo "User strained User's left calf …" (the
    second at cosine 0.49: a physiotherapist's clinic): only the first names a word
    of it, so only the first inherits its standing once both moved above it."""
    old = session_item("old", vec(1, 0, 0, 0), 0.60, "s1", content="User strained User's left calf on a run.")
    healed, clinic = one_message(
        "My calf is fully healed! Also I no longer work at the clinic, I opened my own practice.",
        ("healed", vec(1, 0.4, 0, 0), "User's calf is healed now."),
        ("clinic", vec(1, 0, 0.9, 0), "User no longer works at the clinic."),
    )
    ranked, moved = newer_first([old, healed, clinic], ECHO, relevant={"old"})
    assert ids(ranked) == ["healed", "clinic", "old"] and len(moved) == 2
    assert inheriting(ranked, moved, ECHO, {"old"}) == [("old", "healed")]


def test_a_told_change_far_from_the_best_result_echoes_it_when_each_is_the_others_nearest() -> None:
    """ "User and others are expecting." after "User is trying to get pregnant."
    (cosine 0.21): below the told bars, from ``newer_first_echo_mutual_similarity``,
    a later memory whose words tell a change echoes the best result when the two
    are each other's nearest among the ranked memories."""
    old = session_item("old", vec(1, 0, 0, 0), 0.60, "s1", content="User is trying to get pregnant.")
    told = "User and others are expecting now."
    new = session_item("new", vec(0.25, 0.97, 0, 0), 0.10, "s2", day=20, content=told)  # cosine 0.25
    other = session_item("other", vec(0, 0, 1, 0), 0.30, "s0", day=-5)
    config = ECHO.replace(newer_first_echo_mutual_similarity=0.2)
    ranked, moved = newer_first([old, other, new], config, relevant={"old"})
    assert ids(ranked) == ["new", "old", "other"] and moved == {"new": "old"}
    assert inheriting(ranked, moved, config, {"old"}) == [("old", "new")]
    cases = {
        "off": ([old, other, new], config.replace(newer_first_echo_mutual_similarity=0.0)),
        "below the bar": ([old, other, new], config.replace(newer_first_echo_mutual_similarity=0.3)),
        "no word for a change": (
            [old, other, session_item("new", vec(0.25, 0.97, 0, 0), 0.10, "s2", day=20)],
            config,
        ),
        # Another memory is nearer to the newer one: it tells of something else.
        "nearer to another": (
            [old, session_item("other", vec(0.2, 1, 0.1, 0), 0.30, "s0", day=-5), new],
            config,
        ),
        # A later memory is nearer to the older one: that one is its later word.
        "another later word": (
            [old, session_item("other", vec(1, 0.3, 0, 0.5), 0.30, "s3", day=10), new],
            config,
        ),
    }
    for why, (items, cfg) in cases.items():
        out, moved = newer_first(items, cfg, relevant={"old"})
        assert "new" not in moved, why
        assert ("old", "new") not in inheriting(out, moved, cfg, {"old"}), why
