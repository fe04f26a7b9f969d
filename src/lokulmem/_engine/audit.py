"""The audit stage of recall: stage timings, evidence cards and the debug record."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..decay import confidence_label
from ..records import (
    Episode,
    EvidenceCard,
    InjectedMemory,
    LokulMemDebug,
    QueryAnalysis,
    ScoredMemory,
    StageTrace,
    UpcomingMemory,
)
from ..retrieval.stages import Selection

if TYPE_CHECKING:
    from ..config import Config
    from .engine import Engine

__all__ = ["StageClock", "debug_record", "evidence_cards"]


class StageClock:
    """Times the stages of one ``augment()``: each :meth:`done` closes one."""

    def __init__(self) -> None:
        self.stages: list[StageTrace] = []
        self._t = time.perf_counter()

    def done(self, name: str, detail: str = "", **counts: int) -> None:
        now = time.perf_counter()
        self.stages.append(StageTrace(name=name, ms=(now - self._t) * 1000, counts=counts, detail=detail))
        self._t = now

    def ms(self, *names: str) -> float:
        return sum(s.ms for s in self.stages if s.name in names)


def evidence_cards(injected: Sequence[InjectedMemory], config: Config) -> tuple[EvidenceCard, ...]:
    """An evidence card for each injected memory (HOM packaging)."""
    return tuple(
        EvidenceCard(
            memory_id=i.memory.id,
            content=i.memory.content,
            types=i.memory.types,
            status=i.memory.status,
            current=i.memory.valid_to is None,
            valid_from=i.memory.valid_from,
            valid_to=i.memory.valid_to,
            source=i.memory.source,
            session=i.memory.source_session,
            turn=i.memory.source_turn,
            confidence=confidence_label(i.memory, config),
            rank=i.injection_rank,
            score=i.score,
            reason=i.reason,
            evidence=i.evidence,
            quality=i.memory.quality,
        )
        for i in injected
    )


def debug_record(
    engine: Engine,
    *,
    parsed: QueryAnalysis,
    clock: StageClock,
    selection: Selection,
    injected: tuple[InjectedMemory, ...],
    candidates: tuple[ScoredMemory, ...],
    available: int,
    tokens_used: int,
    searched: int,
    proactive: tuple[UpcomingMemory, ...] = (),
    episode: Episode | None = None,
) -> LokulMemDebug:
    """The ``LokulMemDebug`` of one ``augment()`` (closes the audit stage)."""
    excluded = Counter(r for r in selection.reasons.values() if r is not None)
    clock.done("audit", considered=len(selection.reasons), excluded=sum(excluded.values()))
    return LokulMemDebug(
        injected=injected,
        candidates=candidates,
        tokens_used=tokens_used,
        tokens_available=available,
        retrieval_strategy="hnsw" if engine.index.strategy == "hnsw" else "brute-force",
        search_mode=engine.index.search_mode,
        embedding_latency_ms=clock.ms("embed"),
        retrieval_latency_ms=clock.ms("mode-selection", "candidates", "scoring", "ranking", "relevance"),
        searched=searched,
        pipeline=tuple(s.name for s in clock.stages),
        query=parsed,
        stages=tuple(clock.stages),
        evidence=evidence_cards(injected, engine.config),
        excluded=dict(excluded),
        proactive_injected=proactive,
        episode_injected=episode,
    )
