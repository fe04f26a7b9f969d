"""Maintenance sweep (fade, purge), clustering and the lease, with an injectable clock."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from helpers import searchable_ids
from lokulmem import Cluster, Edge, LokulMem, ManualClock, Memory, MiniLMEmbedder
from lokulmem.clock import MS_PER_DAY, MS_PER_HOUR
from lokulmem.clustering import choose_k
from lokulmem.config import Config
from lokulmem.decay import memory_lambda
from lokulmem.lifecycle import plan_sweep
from lokulmem.maintenance import LEASE, SWEEP_COUNT
from lokulmem.records import SCORE_PARTS

PREF_LAMBDA = Config().type_lambdas["preference"]
#: Hours until an unreinforced preference (base 1.0) drops below the 0.1 fade threshold.
FADE_HOURS = math.log(1.0 / 0.1) / PREF_LAMBDA


def _row(**kw: Any) -> dict[str, Any]:
    base = dict(
        id="m",
        types=("preference",),
        base_strength=1.0,
        confidence="medium",
        mention_count=0,
        pinned=False,
        created_at=0,
        updated_at=0,
        last_reinforced=0,
        status="active",
        faded_at=None,
    )
    base.update(kw)
    return base


def test_plan_sweep_is_pure_and_follows_lambda() -> None:
    cfg = Config()
    just_before = int((FADE_HOURS - 1) * MS_PER_HOUR)
    just_after = int((FADE_HOURS + 1) * MS_PER_HOUR)
    assert plan_sweep([_row()], cfg, just_before).fade == ()
    assert plan_sweep([_row()], cfg, just_after).fade == ("m",)
    assert plan_sweep([_row(pinned=True)], cfg, 10 * just_after).fade == ()
    assert plan_sweep([_row(status="superseded")], cfg, just_after).fade == ()
    assert plan_sweep([_row(types=("identity",))], cfg, just_after).fade == ()  # λ 0.0001: years
    faded = _row(status="faded", faded_at=1000)
    assert plan_sweep([faded], cfg, 1000 + 30 * MS_PER_DAY - 1).purge == ()
    assert plan_sweep([faded], cfg, 1000 + 30 * MS_PER_DAY).purge == ("m",)
    legacy = _row(status="faded", faded_at=None, updated_at=5)
    assert plan_sweep([legacy], cfg, 5 + 30 * MS_PER_DAY).purge == ("m",)


def test_memory_fades_when_lambda_predicts_then_is_purged(mem: LokulMem, clock: ManualClock) -> None:
    mg = mem.manage()
    faded_events: list[Memory] = []
    deleted: list[str] = []
    mg.on_memory_faded(faded_events.append)
    mg.on_memory_deleted(deleted.append)
    (coffee,) = mem.learn("I prefer oat milk lattes.").extracted
    (name,) = mem.learn("My name is Priya.").extracted
    assert coffee.types == ("preference",) and "identity" in name.types
    (pinned,) = mem.learn("I enjoy jazz records.").extracted
    mg.pin(pinned.id)
    other = mem.learn("I like green tea.").extracted[0]
    storage = mem.storage
    storage.put_edge(Edge(id="e", from_id=coffee.id, to_id=name.id, weight=1.0))
    storage.put_cluster(Cluster(id="c", member_ids=(coffee.id, name.id), label="x"))
    start = clock.now_ms()

    clock.set(start + int((FADE_HOURS - 2) * MS_PER_HOUR))
    report = mem.maintenance()
    assert report.ran and report.faded == () and mg.get(coffee.id).status == "active"

    clock.set(start + int((FADE_HOURS + 2) * MS_PER_HOUR))
    # learn() runs the due sweep (inline executor) and reports what faded in it.
    result = mem.learn("I bought a new bicycle helmet for commuting.")
    assert {m.id for m in result.faded} == {coffee.id, other.id}
    assert {m.id for m in faded_events} == {coffee.id, other.id}
    gone = mg.get(coffee.id)
    assert gone.status == "faded" and gone.faded_at == clock.now_ms()
    assert mg.get(pinned.id).status == "active" and mg.get(name.id).status == "active"
    assert coffee.id not in searchable_ids(mem)
    assert "oat milk" not in mem.augment("What coffee do I like?").context
    assert mem.learn("I have a cat.").faded == ()  # reported once

    faded_at = gone.faded_at
    assert faded_at is not None
    clock.set(faded_at + 30 * MS_PER_DAY - MS_PER_HOUR)
    assert mem.maintenance().purged == ()
    clock.set(faded_at + 30 * MS_PER_DAY)
    report = mem.maintenance()
    assert set(report.purged) == {coffee.id, other.id} and set(deleted) == {coffee.id, other.id}
    assert storage.get_memory(coffee.id) is None
    assert storage.all_edges() == []
    assert storage.all_clusters()[0].member_ids == (name.id,)
    # Pinned memories never fade, whatever the time.
    clock.advance(days=3650)
    mem.maintenance()
    assert mg.get(pinned.id).status == "active"


def test_a_plan_ahead_does_not_fade_before_it_happens(mem: LokulMem, clock: ManualClock) -> None:
    import datetime as dt

    clock.set(int(dt.datetime(2026, 1, 19, 12, tzinfo=dt.UTC).timestamp() * 1000))
    (trip,) = mem.learn("We're going to Valencia in October for Jordan's birthday.").extracted
    (habit,) = mem.learn("I'm planning my weekly training sessions.").extracted
    october_end = int(dt.datetime(2026, 10, 31, 23, 59, 59, tzinfo=dt.UTC).timestamp() * 1000)
    assert trip.event_at == october_end and habit.event_at is None
    mg = mem.manage()
    clock.set(int(dt.datetime(2026, 8, 1, tzinfo=dt.UTC).timestamp() * 1000))
    mem.maintenance()
    assert mg.get(trip.id).status == "active"  # six months on, the trip is still ahead
    assert mg.get(habit.id).status == "faded"  # same fast type, no event: faded as λ says
    assert "Valencia" in mem.augment("Where am I going on holiday?").context
    hold = int(mem.config.event_hold_days * MS_PER_DAY)
    clock.set(october_end + hold - MS_PER_HOUR)
    mem.maintenance()
    assert mg.get(trip.id).status == "active"
    # Once it has happened, it decays as usual: it fades when λ says (the augment
    # above reinforced it, so that is after the hold ends).
    m = mg.get(trip.id)
    hours = math.log(m.base_strength / mem.config.fade_threshold) / memory_lambda(m.types, mem.config)
    gone = (m.last_reinforced or m.created_at) + int(hours * MS_PER_HOUR)
    clock.set(max(october_end + hold, gone) - MS_PER_HOUR)
    mem.maintenance()
    assert mg.get(trip.id).status == "active"
    clock.set(max(october_end + hold, gone) + MS_PER_HOUR)
    mem.maintenance()
    assert mg.get(trip.id).status == "faded"


def test_sweep_rechecks_rows_changed_after_planning(
    mem: LokulMem, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lokulmem.maintenance as maint

    (m,) = mem.learn("I prefer oat milk lattes.").extracted
    clock.advance(hours=FADE_HOURS + 5)
    real = maint.plan_sweep

    def plan_then_reinforce(rows: Any, cfg: Config, now: int) -> Any:
        plan = real(rows, cfg, now)
        mem.manage().pin(m.id)  # another call wins the race
        return plan

    monkeypatch.setattr(maint, "plan_sweep", plan_then_reinforce)
    assert mem.maintenance().faded == ()
    assert mem.manage().get(m.id).status == "active"


def test_clustering_assigns_members_and_bonus_shows_in_debug(mem: LokulMem, clock: ManualClock) -> None:
    facts = [
        "I love hiking in the Alps.",
        "I go trail running every weekend.",
        "I climb at the bouldering gym.",
        "I cycle to work every day.",
        "I swim laps on Tuesdays.",
        "I bake sourdough bread.",
        "I love Thai green curry.",
        "I cook ramen from scratch.",
        "I make fresh pasta on Sundays.",
        "I grow basil for pesto.",
        "I work as a data engineer.",
        "I write Python at my job.",
        "I maintain Kafka pipelines at work.",
        "I lead a team of four engineers.",
        "I review pull requests every morning.",
    ]
    for f in facts:
        mem.learn(f, session_id="s1")
    report = mem.maintenance(cluster=True)
    assert report.clustered and report.clusters == choose_k(15) == 3
    clusters = mem.storage.all_clusters()
    members = [i for c in clusters for i in c.member_ids]
    assert sorted(members) == sorted(m.id for m in mem.manage().list(status="active"))
    assert all(c.label and c.last_recomputed == clock.now_ms() for c in clusters)
    for c in clusters:
        for m in mem.storage.get_memories(list(c.member_ids)):
            assert m.cluster_id == c.id
    result = mem.augment("What should I cook for dinner?", debug=True)
    assert result.debug is not None
    bonus = [s for s in result.debug.candidates if s.breakdown.cluster > 0]
    assert bonus and all(s.breakdown.cluster == pytest.approx(mem.config.cluster_bonus) for s in bonus)
    topic = {s.memory.cluster_id for s in bonus}
    assert len(topic) == 1
    for s in result.debug.candidates:
        assert s.score == pytest.approx(sum(getattr(s.breakdown, part) for part in SCORE_PARTS))
    assert any("topic cluster" in i.reason for i in result.debug.injected if i.score_breakdown.cluster)


def test_clustering_runs_at_session_start_after_ten_new(mem: LokulMem) -> None:
    for i in range(12):
        mem.learn(f"My friend number {i} is called Name{i}x and lives in town {i}.", session_id="a")
    assert mem.storage.all_clusters() == []  # session "a" started with an empty store
    mem.learn("I like board games.", session_id="b")  # a new session: more than 10 new → cluster
    clusters = mem.storage.all_clusters()
    assert sum(c.member_count for c in clusters) == 13
    before = {c.id for c in mem.storage.all_clusters()}
    mem.learn("I like card games too.", session_id="c")  # only 1 new since: no re-run
    assert {c.id for c in mem.storage.all_clusters()} == before


def test_clustering_waits_for_a_share_of_a_large_store(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem(cluster_min_new=2, cluster_renew_share=0.25)
    for i in range(12):
        mem.learn(f"My friend number {i} is called Name{i}x and lives in town {i}.", session_id="a")
    assert mem.maintenance(cluster=True).clusters > 0  # 12 memories clustered
    for i in range(3):
        mem.learn(f"I bought {i} new houseplants.", session_id="a")
    assert not mem.maintenance(sweep=False).clustered  # 3 new ≤ max(2, 0.25 × 12)
    mem.learn("I started learning the violin.", session_id="a")
    assert mem.maintenance(sweep=False).clustered  # 4 new > 3


def test_clustering_a_store_larger_than_the_sample(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem(cluster_sample_size=8)
    for i in range(20):
        mem.learn(f"My friend number {i} is called Name{i}x and lives in town {i}.")
    report = mem.maintenance(cluster=True)
    clusters = mem.storage.all_clusters()
    assert report.clusters == len(clusters) > 0
    members = sorted(i for c in clusters for i in c.member_ids)
    assert members == sorted(m.id for m in mem.manage().list(status="active"))


def test_clustering_fewer_memories_than_k(mem: LokulMem) -> None:
    mem.learn("I live in Oslo.")
    mem.learn("I play the cello.")
    assert mem.maintenance(cluster=True).clusters == 2
    mem.manage().clear()
    assert mem.maintenance(cluster=True).clusters == 0


def test_lease_blocks_a_second_holder_until_it_expires(
    make_mem: Callable[..., LokulMem], tmp_path: Path
) -> None:
    a = make_mem(path=tmp_path / "lease.sqlite", lease_ttl_seconds=0.5)
    storage = a.storage
    now = time.time()
    assert storage.acquire_lease(LEASE, "someone-else", ttl_s=0.5, now_s=now)
    report = a.maintenance()
    assert not report.ran and report.skipped_reason == "lease held by another process"
    assert storage.acquire_lease(LEASE, "someone-else", ttl_s=0.5, now_s=now)  # renewal by the holder
    time.sleep(0.6)
    assert a.maintenance().ran  # expired: taken over
    assert storage.get_meta(f"lease:{LEASE}") is None  # released after the run


def test_thread_executor_runs_maintenance_in_background(
    embedder: MiniLMEmbedder, clock: ManualClock, tmp_path: Path
) -> None:
    path = tmp_path / "t.sqlite"
    with LokulMem(path=path, embedder=embedder, clock=clock, executor="inline") as seed:
        for f in ("I prefer oat milk lattes.", "I like green tea.", "My name is Priya."):
            seed.learn(f)
    clock.advance(hours=FADE_HOURS + 5)
    faded: list[Memory] = []
    with LokulMem(path=path, embedder=embedder, clock=clock, on_memory_faded=faded.append) as mem:
        mem.wait_for_maintenance(30)
        assert len(faded) == 2
        assert mem.storage.get_meta(SWEEP_COUNT) == "2"
        # The next learn() reports what the background sweep faded.
        assert {m.id for m in mem.learn("I have a bicycle.").faded} == {m.id for m in faded}


# -- retention policy (PRD v0.2) -------------------------------------------------


def test_plan_retention_limits_are_pure() -> None:
    from lokulmem import RetentionPolicy
    from lokulmem.lifecycle import plan_retention

    cfg = Config()
    day = MS_PER_DAY
    rows = [
        _row(id="old", created_at=0, last_reinforced=0),
        _row(id="new", created_at=9 * day, last_reinforced=9 * day),
        _row(id="pinned-old", created_at=0, pinned=True),
        _row(id="low", created_at=9 * day, last_reinforced=9 * day, confidence="low"),
        _row(id="gone", created_at=0, status="superseded"),
        _row(id="plan", created_at=0, event_at=20 * day),
    ]
    now = 10 * day
    assert plan_retention(rows, None, cfg, now) == ()
    assert plan_retention(rows, RetentionPolicy(max_age_days=5), cfg, now) == ("old",)
    assert plan_retention(rows, RetentionPolicy(min_confidence=0.5), cfg, now) == ("low",)
    # 5 active (pinned counted); at most 3: the two weakest unpinned go, oldest first on a tie.
    assert plan_retention(rows, RetentionPolicy(max_facts=3), cfg, now) == ("old", "new")
    assert plan_retention(rows, RetentionPolicy(max_facts=10), cfg, now) == ()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("max_age_days", -1),
        ("max_facts", 2.5),
        ("max_facts", "10"),
        ("min_confidence", 1.5),
        ("min_confidence", float("nan")),
        ("max_age_days", True),
        ("action", "shred"),
    ],
)
def test_retention_policy_rejects_bad_values(mem: LokulMem, field: str, value: Any) -> None:
    from lokulmem import ConfigError

    mem.set_retention_policy(max_facts=100)
    with pytest.raises(ConfigError) as err:
        mem.set_retention_policy(**{field: value})
    assert err.value.field == field
    assert mem.get_retention_policy() is not None and mem.get_retention_policy().max_facts == 100  # type: ignore[union-attr]


def test_retention_policy_archives_in_the_sweep_and_survives_reopen(
    make_mem: Callable[..., LokulMem], clock: ManualClock, store_path: Path
) -> None:
    mem = make_mem(path=store_path)
    old = mem.learn("I live in Lisbon with my partner.", session_id="s1").extracted[0]
    pinned = mem.learn("My sister Ana is a nurse in Porto.", session_id="s1").extracted[0]
    mem.manage().pin(pinned.id)
    clock.advance(days=40)
    fresh = mem.learn("I started learning the cello this month.", session_id="s2").extracted[0]
    seen: list[Memory] = []
    mem.manage().on_memory_updated(seen.append)
    policy = mem.set_retention_policy(max_age_days=30)
    assert policy.action == "archive"
    mem.close()
    mem = make_mem(path=store_path)
    assert mem.get_retention_policy() == policy
    report = mem.maintenance(sweep=True, cluster=False)
    assert report.retired == (old.id,) and report.retention_action == "archive"
    archived = mem.manage().get(old.id)
    assert archived.status == "archived" and archived.metadata["archived_by"] == "retention"
    assert mem.manage().get(pinned.id).status == "active"
    assert mem.manage().get(fresh.id).status == "active"
    assert old.id not in searchable_ids(mem)
    # Nothing is lost: unarchive restores it.
    assert mem.manage().unarchive(old.id).status == "active"
    mem.set_retention_policy()  # all None: cleared
    assert mem.get_retention_policy() is None


def test_retention_policy_can_delete(mem: LokulMem, clock: ManualClock) -> None:
    kept = mem.learn("I work as a pharmacist in Leeds.", session_id="s1").extracted[0]
    clock.advance(days=1)
    newer = mem.learn("I play the violin in a community orchestra.", session_id="s1").extracted[0]
    deleted: list[str] = []
    mem.manage().on_memory_deleted(deleted.append)
    mem.set_retention_policy(max_facts=1, action="delete")
    report = mem.maintenance(sweep=True, cluster=False)
    assert len(report.retired) == 1 and report.retention_action == "delete"
    assert deleted == list(report.retired)
    survivors = {m.id for m in mem.manage().list()}
    assert len(survivors & {kept.id, newer.id}) == 1
