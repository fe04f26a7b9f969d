"""The knowledge graph: pure edge rules, then edges through learn(), manage(),
maintenance and augment() on real text."""

import numpy as np
import pytest

from lokulmem import Config, LokulMem, ManualClock
from lokulmem.graph import edge_id, neighbours, plan_edges, refresh_edges, shared_entities
from lokulmem.records import Edge, Memory


def _mem(mid: str, entities: tuple[str, ...] = (), vec: list[float] | None = None, **kw: object) -> Memory:
    v = np.array(vec or [1.0, 0.0], dtype=np.float32)
    return Memory(
        id=mid, content=mid, types=("identity",), entities=entities, embedding=v / np.linalg.norm(v), **kw
    )  # type: ignore[arg-type]


def test_edges_link_shared_entities_and_close_vectors_only() -> None:
    cfg = Config()
    new = _mem("new", ("Maya",), [1.0, 0.0])
    close, named, far = (
        _mem("close", (), [1.0, 0.1]),
        _mem("named", ("maya",), [0.0, 1.0]),
        _mem("far", (), [0.0, 1.0]),
    )
    gone = _mem("gone", ("Maya",), [1.0, 0.0], status="archived")
    edges = plan_edges(new, [(far, 0.0), (named, 0.0), (close, 0.99), (gone, 1.0), (new, 1.0)], 5, cfg)
    assert [(e.to_id, e.weight, e.shared_entities) for e in edges] == [
        ("close", 0.99, ()),
        ("named", cfg.edge_entity_weight, ("Maya",)),
    ]
    assert all(e.id == edge_id(e.to_id, "new") and e.created_at == 5 for e in edges)
    assert shared_entities(new, named) == ("Maya",)
    capped = plan_edges(new, [(_mem(f"m{i}", ("Maya",)), 0.0) for i in range(20)], 5, cfg)
    assert len(capped) == cfg.max_edges_per_memory


def test_refresh_reweighs_and_drops() -> None:
    cfg = Config()
    a, b, c = _mem("a", ("Maya",)), _mem("b", ("Maya",)), _mem("c", (), [0.0, 1.0])
    edges = [
        Edge(id="ab", from_id="a", to_id="b", weight=0.5, created_at=1, last_updated=1),
        Edge(id="ac", from_id="a", to_id="c", weight=0.9, created_at=1, last_updated=1),
        Edge(id="ax", from_id="a", to_id="x", weight=0.9, created_at=1, last_updated=1),
    ]
    kept, dropped = refresh_edges(edges, {"a": a, "b": b, "c": c}, 9, cfg)
    assert [(e.id, e.weight, e.last_updated) for e in kept] == [("ab", 1.0, 9)]
    assert sorted(dropped) == ["ac", "ax"]  # c is no longer close; x is gone


def test_neighbours_keep_the_strongest_link() -> None:
    edges = [
        Edge(id="1", from_id="s1", to_id="n", weight=0.7),
        Edge(id="2", from_id="n", to_id="s2", weight=0.9),
        Edge(id="3", from_id="s1", to_id="s2", weight=1.0),
    ]
    assert neighbours(["s1", "s2"], edges) == {"n": ("s2", 0.9)}
    assert neighbours([], edges) == {}


def _learn(mem: LokulMem) -> dict[str, str]:
    for text in [
        "My sister Maya is a doctor in Hamburg.",
        "I live in Berlin.",
        "I love hiking in the Alps.",
        "Maya has two kids, Leo and Ben.",
        "I am allergic to peanuts.",
    ]:
        mem.learn(text)
    return {m.content: m.id for m in mem.manage().list()}


def test_learning_links_memories_naming_the_same_person(mem: LokulMem) -> None:
    ids = _learn(mem)
    sister, kids = ids["User's sister Maya is a doctor in Hamburg."], ids["Maya has two kids, Leo and Ben."]
    related = mem.manage().get_related(sister)
    assert [m.id for m in related] == [kids]
    assert [m.id for m in mem.manage().get_related(ids["User lives in Berlin."])] == []
    edge = mem.storage.edges_of(kids)[0]
    assert edge.shared_entities == ("Maya",) and edge.weight == pytest.approx(mem.config.edge_entity_weight)


def test_the_second_pass_is_off_by_default(mem: LokulMem) -> None:
    _learn(mem)
    r = mem.augment("What does my sister do?", debug=True)
    assert r.debug is not None and "graph" not in r.debug.pipeline
    assert all(c.breakdown.graph == 0.0 for c in r.debug.candidates)


def test_the_second_pass_gives_neighbours_the_bonus(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem = make_mem(graph_bonus=0.08)
    ids = _learn(mem)
    kids = ids["Maya has two kids, Leo and Ben."]
    r = mem.augment("What does my sister do?", debug=True)
    d = r.debug
    assert d is not None
    assert [i.memory.content for i in d.injected] == ["User's sister Maya is a doctor in Hamburg."]
    # The neighbour is re-ranked with the bonus (visible in debug) but, with no
    # evidence of its own, not injected: the PRD's re-ranking, by default.
    cand = next(c for c in d.candidates if c.memory.id == kids)
    assert cand.breakdown.graph == pytest.approx(mem.config.graph_bonus)
    assert cand.excluded_reason == "no semantic or key-word evidence"
    assert {s.name: s for s in d.stages}["graph"].counts["linked"] == 1


def test_the_bonus_counts_in_the_score_and_the_order(make_mem) -> None:  # type: ignore[no-untyped-def]
    """The bonus is part of the total the ranking sorts by, not a label: the
    neighbour's score rises by exactly the bonus over the same run without it."""
    plain, linked = make_mem(), make_mem(graph_bonus=0.5)
    ranks: list[dict[str, tuple[int, float]]] = []
    for mem in (plain, linked):
        _learn(mem)
        d = mem.augment("Is my sister a doctor in Berlin?", debug=True).debug
        assert d is not None
        ranks.append({c.memory.content: (n, c.score) for n, c in enumerate(d.candidates)})
    kids = "Maya has two kids, Leo and Ben."
    assert ranks[1][kids][1] == pytest.approx(ranks[0][kids][1] + 0.5, abs=1e-6)
    assert ranks[1][kids][0] < ranks[0][kids][0]  # it moved up past another memory


def test_an_edge_lifts_a_related_memory_into_the_injection(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem = make_mem(graph_bonus=0.08, graph_evidence_share=1.0)
    ids = _learn(mem)
    r = mem.augment("What does my sister do?", debug=True)
    d = r.debug
    assert d is not None
    assert d.injected[0].memory.content == "User's sister Maya is a doctor in Hamburg."
    lifted = next(i for i in d.injected if i.memory.id == ids["Maya has two kids, Leo and Ben."])
    assert lifted.score_breakdown.graph == pytest.approx(mem.config.graph_bonus)
    assert "linked to a top result" in lifted.reason
    assert lifted.evidence is not None and lifted.evidence >= mem.config.relevance_threshold


def test_no_graph_bonus_no_second_pass(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem = make_mem(graph_bonus=0.0)
    _learn(mem)
    r = mem.augment("What does my sister do?", debug=True)
    assert r.debug is not None and "graph" not in r.debug.pipeline
    assert [i.memory.content for i in r.debug.injected] == ["User's sister Maya is a doctor in Hamburg."]


def test_build_edges_off_makes_none(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem = make_mem(build_edges=False)
    _learn(mem)
    assert mem.storage.all_edges() == []


def test_deleting_or_archiving_a_memory_removes_its_edges(mem: LokulMem, clock: ManualClock) -> None:
    ids = _learn(mem)
    kids = ids["Maya has two kids, Leo and Ben."]
    mg = mem.manage()
    mg.archive(kids)
    assert mem.storage.edges_of(kids)  # still there until the clustering pass
    mem.maintenance(cluster=True)
    assert mem.storage.edges_of(kids) == []
    sister = ids["User's sister Maya is a doctor in Hamburg."]
    mem.learn("Maya is visiting us next week.")
    assert mg.get_related(sister)
    mg.delete(sister)
    assert mem.storage.edges_of(sister) == []
