"""Retrieval on LoCoMo: evidence recall@k of what lokulmem injects, against raw turns.

    python -m eval.locomo PATH [PATH ...] [--limit N] [--questions N] [--k 1 5 10 25] [--set k=v] [--prd]

**Replay protocol.**  One fresh store per conversation.  Sessions are played
in order with the clock set to each session's date (plus 30 s per turn), so
decay, recency and temporal coexistence act as in real life.  Each turn goes
through the product's loop: ``augment(turn)`` (as an app does before its LLM
call: the memories it injects are reinforced) then ``learn(turn)``;
``--learn-only`` skips the augment.  LoCoMo is a
dialogue between two people and both are remembered: each turn is learned
as a *user* message of its speaker, through a client whose ``user_label`` is
that speaker's name (two clients on the same store file), so "I went to a
pottery class" said by Dana becomes "Dana went to a pottery class."; the session id
is ``<sample>-session<N>``.  The other speaker's next turn in the session
is passed as ``assistant_response`` (from the speaker's client, the other
person is the one who answers), so the speaker's following message carries
it as ``reply_context``: what that message answered.  Each stored or
reinforced memory remembers the ``dia_id`` of every turn that produced it (its provenance).  Questions are
asked after the last session, in the state the replay left.

**Metrics.**  For each question with evidence, retrieve k memories and map
them to their dia_ids; recall = |evidence ∩ retrieved| / |evidence|,
averaged over questions (evidence ids that are not turns of the
conversation are dropped; a question left with none is skipped), per
category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5
adversarial) and overall, at each k.  Session recall: the same over the
sessions of the evidence.  Three retrievers:

* ``augment``: the ranking ``augment()`` injects from
  (``get_injection_preview`` with ``max_memories=k`` and
  ``require_evidence=False``: composite score, floor, pinned first, token
  budget), i.e. the product's ranking with the count fixed at k;
* ``semantic``: ``manage().semantic_search(question, k)``;
* ``raw-turns``: the plain baseline, every turn embedded as ``"speaker:
  text"`` with the same model, exact cosine (same names, same questions).

**What a user receives** (default options, nothing ranked to a fixed k; a
question is a turn in the middle of a conversation, so no proactive push:
``include_proactive=False``):

* ``default_path``: what ``augment()`` injects for the conversation's own
  questions with default options: evidence recall of everything injected,
  the mean number injected, and the share of questions with nothing injected;
* ``silence``: each conversation's questions asked against the *next*
  conversation's store (people and events it never heard of), with default
  options: the mean number of memories injected and the share of questions
  with nothing injected.  A memory layer that knows when to stay silent
  injects nothing here.

Also: memories stored per turn, tokens injected per question (top 10 and
top ``max(k)``), and replay/query time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lokulmem import LokulMem, ManualClock, MiniLMEmbedder

from .common import add_config_args, config_label, config_options, emit, model, pct, progress, table

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
RETRIEVERS = ("augment", "semantic", "raw-turns")
_SESSION = re.compile(r"^session_(\d+)$")


def session_time(text: str) -> int:
    """ "4:05 pm on 2 March, 2024" → Unix ms (UTC)."""
    when = dt.datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=dt.UTC)
    return int(when.timestamp() * 1000)


def sessions(conv: dict[str, Any]) -> list[tuple[int, int, list[dict[str, Any]]]]:
    """(number, time ms, turns) in order."""
    out = []
    for key, turns in conv.items():
        m = _SESSION.match(key)
        if m and isinstance(turns, list) and turns:
            out.append((int(m.group(1)), session_time(conv[f"{key}_date_time"]), turns))
    return sorted(out)


def session_of(dia_id: str) -> str:
    return dia_id.split(":")[0]


def recall(evidence: set[str], retrieved: Sequence[set[str]], k: int) -> float:
    got: set[str] = set()
    for ids in retrieved[:k]:
        got |= ids
    return len(evidence & got) / len(evidence)


class Replay:
    """One conversation replayed into a fresh store, with provenance."""

    def __init__(
        self,
        sample: dict[str, Any],
        embedder: MiniLMEmbedder,
        tmp: Path,
        *,
        augment_turns: bool = True,
        **options: Any,
    ) -> None:
        self.augment_turns = augment_turns
        conv = sample["conversation"]
        self.sample_id = sample["sample_id"]
        self.clock = ManualClock()
        self.turns: dict[str, str] = {}
        self.provenance: dict[str, set[str]] = defaultdict(set)
        path = tmp / f"{self.sample_id}.sqlite"
        self.clients = {
            name: LokulMem(
                path=path, embedder=embedder, clock=self.clock, executor="inline", user_label=name, **options
            )
            for name in (conv["speaker_a"], conv["speaker_b"])
        }
        self.sessions = sessions(conv)
        self.n_turns = 0
        #: dia_id → whether learn() stored or reinforced something for that turn.
        self.kept: dict[str, bool] = {}
        #: Contradiction events fired during the replay, by resolution.
        self.contradictions: Counter[str] = Counter()

    def play(self) -> None:
        for number, when, turns in self.sessions:
            self.clock.set(when)
            sid = f"{self.sample_id}-session{number}"
            for j, turn in enumerate(turns):
                text = str(turn.get("text", "")).strip()
                nxt = turns[j + 1] if j + 1 < len(turns) else None
                answer = ""
                if nxt is not None and nxt["speaker"] != turn["speaker"]:
                    answer = str(nxt.get("text", "")).strip()
                speaker, dia = turn["speaker"], turn["dia_id"]
                self.turns[dia] = f"{speaker}: {text}"
                self.n_turns += 1
                kept = False
                if text:
                    client = self.clients[speaker]
                    if self.augment_turns:
                        # As an app does: augment() before the LLM call (which reinforces
                        # the memories it injects), learn() after it.
                        client.augment(text)
                    result = client.learn(text, answer, session_id=sid)
                    # A turn's background work (its context vector) lands before the
                    # other speaker's client reads the file, as the seconds between
                    # two turns of a conversation let it: the replay stays deterministic.
                    client.wait_for_maintenance()
                    self.contradictions.update(c.resolution for c in result.contradictions)
                    for m in (*result.extracted, *result.reinforced):
                        self.provenance[m.id].add(dia)
                        kept = True
                self.kept[dia] = kept
                self.clock.advance(seconds=30)
        self.clock.advance(hours=1)

    @property
    def asker(self) -> LokulMem:
        return next(iter(self.clients.values()))

    def close(self) -> None:
        for c in self.clients.values():
            c.close()


def evaluate(
    paths: Sequence[str],
    *,
    limit: int | None,
    questions: int | None,
    ks: Sequence[int],
    options: dict[str, Any] | None = None,
    augment_turns: bool = True,
) -> dict[str, Any]:
    embedder = model()
    data: list[dict[str, Any]] = []
    for p in paths:
        data.extend(json.loads(Path(p).read_text()))
    if limit is not None:
        data = data[:limit]
    kmax = max(ks)
    # scores[retriever][category][k] -> list of recalls; session recall likewise.
    scores: dict[str, dict[str, dict[int, list[float]]]] = {
        r: defaultdict(lambda: defaultdict(list)) for r in RETRIEVERS
    }
    sess: dict[str, dict[int, list[float]]] = {r: defaultdict(list) for r in RETRIEVERS}
    tokens10: list[int] = []
    tokens_max: list[int] = []
    stored = turns = asked = 0
    fired: Counter[str] = Counter()
    covered: list[float] = []
    default_recall: list[float] = []
    default_count: list[int] = []
    silent_count: list[int] = []
    replay_s = query_s = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for n, sample in enumerate(progress(data, "replaying conversations")):
            t0 = time.perf_counter()
            rp = Replay(sample, embedder, Path(tmp), augment_turns=augment_turns, **(options or {}))
            rp.play()
            replay_s += time.perf_counter() - t0
            turns += rp.n_turns
            fired += rp.contradictions
            stored += rp.asker.manage().stats().total
            dia_ids = list(rp.turns)
            raw = np.stack(embedder.embed([rp.turns[d] for d in dia_ids]))
            t1 = time.perf_counter()
            qas = [q for q in sample["qa"] if q.get("evidence")]
            if questions is not None:
                qas = qas[:questions]
            panel = rp.asker.manage()
            for qa in qas:
                evidence = {e for e in qa["evidence"] if e in rp.turns}
                if not evidence:
                    continue
                asked += 1
                kept_ids = set().union(*rp.provenance.values()) if rp.provenance else set()
                covered.append(len(evidence & kept_ids) / len(evidence))
                question = str(qa["question"])
                preview = panel.get_injection_preview(
                    question, max_memories=kmax, require_evidence=False, include_proactive=False
                )
                ranked = {
                    "augment": [rp.provenance.get(i.memory.id, set()) for i in preview.would_inject],
                    "semantic": [
                        rp.provenance.get(m.id, set()) for m in panel.semantic_search(question, kmax)
                    ],
                }
                q = embedder.embed([question])[0]
                top = np.argsort(-(raw @ q))[:kmax]
                ranked["raw-turns"] = [{dia_ids[i]} for i in top]
                default = panel.get_injection_preview(question, include_proactive=False).would_inject
                default_count.append(len(default))
                default_ids = [rp.provenance.get(i.memory.id, set()) for i in default]
                default_recall.append(recall(evidence, default_ids, len(default)) if default else 0.0)
                tokens10.append(sum(i.tokens for i in preview.would_inject[:10]))
                tokens_max.append(preview.estimated_tokens)
                cat = CATEGORIES.get(int(qa.get("category", 0)), "other")
                ev_sessions = {session_of(e) for e in evidence}
                for r, lists in ranked.items():
                    for k in ks:
                        value = recall(evidence, lists, k)
                        scores[r][cat][k].append(value)
                        scores[r]["overall"][k].append(value)
                        sess_lists = [{session_of(d) for d in ids} for ids in lists]
                        sess[r][k].append(recall(ev_sessions, sess_lists, k))
            if len(data) > 1:
                foreign = [q for q in data[(n + 1) % len(data)]["qa"] if q.get("evidence")]
                for qa in foreign[:questions] if questions is not None else foreign:
                    silent_count.append(
                        len(
                            panel.get_injection_preview(
                                str(qa["question"]), include_proactive=False
                            ).would_inject
                        )
                    )
            query_s += time.perf_counter() - t1
            rp.close()
    cats = [*CATEGORIES.values(), "overall"]
    figures: dict[str, Any] = {
        "conversations": len(data),
        "questions": asked,
        "turns": turns,
        "memories": stored,
        "memories_per_turn": stored / turns if turns else 0.0,
        # Real dialogue holds few true changes of fact: many events here are false alarms.
        "contradictions": dict(fired),
        # Upper bound of any memory-based recall: evidence turns that left a memory.
        "evidence_coverage": statistics.fmean(covered) if covered else 0.0,
        "tokens_injected_top10_mean": statistics.fmean(tokens10) if tokens10 else 0.0,
        f"tokens_injected_top{kmax}_mean": statistics.fmean(tokens_max) if tokens_max else 0.0,
        "replay_seconds": round(replay_s, 1),
        "query_ms_per_question": round(1000 * query_s / asked, 1) if asked else 0.0,
        "recall": {
            r: {c: {str(k): statistics.fmean(v[k]) for k in ks} for c, v in scores[r].items()}
            for r in RETRIEVERS
        },
        "count": {c: len(scores["augment"][c][ks[0]]) for c in cats if c in scores["augment"]},
        "default_path": _injected_figures(default_count, default_recall),
        "silence": _injected_figures(silent_count),
        "session_recall": {
            r: {str(k): statistics.fmean(sess[r][k]) for k in ks if sess[r][k]} for r in RETRIEVERS
        },
    }
    return figures


def _injected_figures(counts: Sequence[int], recalls: Sequence[float] = ()) -> dict[str, Any]:
    """Mean injected, share with nothing injected (and evidence recall) over questions."""
    out: dict[str, Any] = {
        "questions": len(counts),
        "mean_injected": statistics.fmean(counts) if counts else 0.0,
        "empty_share": sum(1 for c in counts if c == 0) / len(counts) if counts else 0.0,
    }
    if recalls:
        out["recall"] = statistics.fmean(recalls)
    return out


def report(f: dict[str, Any], ks: Sequence[int]) -> None:
    print(
        f"LoCoMo: {f['conversations']} conversations, {f['turns']} turns, "
        f"{f['questions']} questions with evidence; "
        f"{f['memories']} memories stored ({f['memories_per_turn']:.2f} per turn); "
        f"tokens injected per question: {f['tokens_injected_top10_mean']:.0f} (top 10); "
        f"evidence turns that left a memory: {pct(f['evidence_coverage'])}%; "
        f"contradiction events: {f['contradictions'] or 'none'}"
    )
    for r in RETRIEVERS:
        rows = []
        for c, by_k in f["recall"][r].items():
            rows.append([c, f["count"].get(c, 0), *[pct(by_k[str(k)]) for k in ks]])
        rows.sort(key=lambda row: (row[0] == "overall", row[0]))
        srow = ["session recall", "", *[pct(f["session_recall"][r].get(str(k), 0.0)) for k in ks]]
        table(["category", "n", *[f"R@{k}" for k in ks]], [*rows, srow], title=f"[{r}] evidence recall (%)")
    d, q = f["default_path"], f["silence"]
    table(
        ["", "questions", "recall (%)", "mean injected", "nothing injected (%)"],
        [
            [
                "own questions",
                d["questions"],
                pct(d.get("recall", 0.0)),
                f"{d['mean_injected']:.2f}",
                pct(d["empty_share"]),
            ],
            ["other conversation's", q["questions"], "", f"{q['mean_injected']:.2f}", pct(q["empty_share"])],
        ],
        title="[default options] what augment() injects",
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m eval.locomo", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="LoCoMo JSON file(s) (a list of conversations)")
    parser.add_argument("--limit", type=int, help="first N conversations only")
    parser.add_argument("--questions", type=int, help="first N questions per conversation only")
    parser.add_argument("--k", type=int, nargs="+", default=[1, 5, 10, 25])
    add_config_args(parser)
    parser.add_argument(
        "--learn-only",
        action="store_true",
        help="replay through learn() alone (no augment() before each turn)",
    )
    args = parser.parse_args(argv)
    ks = sorted(set(args.k))
    options = config_options(args)
    figures = evaluate(
        args.paths,
        limit=args.limit,
        questions=args.questions,
        ks=ks,
        options=options,
        augment_turns=not args.learn_only,
    )
    figures["replay"] = "learn-only" if args.learn_only else "augment+learn"
    figures["config_overrides"] = config_label(args)
    report(figures, ks)
    emit({"eval": "locomo", "k": ks, **figures})


if __name__ == "__main__":
    main()
