"""Train the contradiction pair head (``lokulmem/models/contradiction_head.npz``).

    python scripts/harvest_pairs.py scripts/data/consistent_conversations.jsonl \
        /tmp/lokulmem-train/consistent.npz
    python scripts/train_contradiction.py ../shared/eval/decode/pairs_train.jsonl \
        --negatives /tmp/lokulmem-train/consistent.npz [--negative-repeat 10] [--additive 2] \
        [--train-lines 24000] [--cache /tmp/lokulmem-train] [--out src/lokulmem/models/contradiction_head.npz]

Data: DECODE's development pairs (``{earlier, later, contradiction}``), lines
``[0, --train-lines)`` to fit and the rest to choose the epoch and to report
figures; and two sets of negatives the team wrote or derived: the pairs a
replay of the team's consistent conversations puts before stage 3b
(``--negatives``, each ``--negative-repeat`` times: related, compatible facts
by one person, what a real store holds by the thousand), and the additive
pairs of ``train_pair_model.py`` ("User likes X." / "User also likes Y.",
``--additive`` times).  Nothing else: no LoCoMo, no PersonaExt, no team
evaluation set.  ``eval.contradiction`` measures on DECODE lines from
``--train-lines`` on by default, so its DECODE figures are on pairs the head
never saw.

Each utterance goes through ``learn()``'s own reading (sentence split, the
third-person rewrite) and the shipped MiniLM, so the head sees what it will see
in ``learn()``.  A pair of utterances becomes sentence pairs: a contradiction
contributes its most similar sentence pair (the one most likely to carry the
contradiction: multiple-instance learning), an unrelated pair all of its
sentence pairs (none may fire).  The sentences of one utterance, taken in
pairs, are added as negatives: related elaborations by the same speaker
(``elaborations``), which DECODE's negatives lack.  The network is one hidden ReLU layer trained
with Adam on binary cross-entropy, numpy only (no training dependency).

Prints the validation ROC AUC and recall at fixed false-positive rates, then
the sha256 to paste into ``lokulmem.pairhead.DEFAULT_HEAD_SHA256``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from lokulmem import Config  # noqa: E402  (after the path is set)
from lokulmem.client import shared_minilm  # noqa: E402
from lokulmem.extraction import analyze_text, split_sentences  # noqa: E402
from lokulmem.pairhead import pair_features  # noqa: E402

HIDDEN = 32
EPOCHS = 12
BATCH = 256
LEARNING_RATE = 3e-4
WEIGHT_DECAY = 1e-2
SEED = 7


def contents(text: str, config: Config) -> list[str]:
    sentences = [s[: config.max_sentence_chars] for s in split_sentences(text)]
    return [analyze_text(s, config).content for s in sentences[: config.max_sentences_per_message]] or [text]


def embed_all(texts: list[str], cache: Path) -> dict[str, np.ndarray]:
    cache.mkdir(parents=True, exist_ok=True)
    store = cache / "vectors.npz"
    known: dict[str, np.ndarray] = {}
    if store.exists():
        with np.load(store, allow_pickle=False) as z:
            known = dict(zip(z["texts"].tolist(), z["vectors"], strict=True))
    todo = sorted({t for t in texts if t not in known}, key=len)  # similar lengths batch well
    if todo:
        model = shared_minilm()
        model.load()
        for i in range(0, len(todo), 512):
            batch = todo[i : i + 512]
            known.update(zip(batch, model.embed(batch), strict=True))
            print(f"  embedded {min(i + 512, len(todo))}/{len(todo)}", file=sys.stderr)
        keys = list(known)
        np.savez(store, texts=np.array(keys), vectors=np.stack([known[k] for k in keys]))
    return known


def pair_rows(
    pair: dict[str, Any], config: Config, vec: dict[str, np.ndarray], *, training: bool
) -> list[np.ndarray]:
    old, new = contents(pair["earlier"], config), contents(pair["later"], config)
    combos = [(o, n) for o in old for n in new]
    if training and pair["contradiction"]:
        combos = [max(combos, key=lambda c: float(vec[c[0]] @ vec[c[1]]))]
    return [pair_features(vec[o], vec[n], o, n) for o, n in combos]


def elaborations(pairs: list[dict[str, Any]], config: Config, vec: dict[str, np.ndarray]) -> list[np.ndarray]:
    """Hard negatives: the sentences of one utterance, in order ("I have two kids.
    They are 5 and 8.").  Related, by the same speaker, and almost never a
    contradiction: what DECODE's mostly unrelated negatives lack."""
    rows: list[np.ndarray] = []
    for p in pairs:
        for text in (p["earlier"], p["later"]):
            parts = contents(text, config)
            rows.extend(
                pair_features(vec[a], vec[b], a, b) for i, a in enumerate(parts) for b in parts[i + 1 :]
            )
    return rows


def harvested(path: str) -> list[np.ndarray]:
    """Hard negatives from a replay of consistent conversations (``scripts/harvest_pairs.py``):
    every pair of a stored fact and a new one that stage 3b would have scored."""
    with np.load(path) as z:
        data = {k: z[k] for k in z.files}  # one read per array (an NpzFile reads on every index)
    return [
        pair_features(data["uo"][i], data["un"][i], str(data["old"][i]), str(data["new"][i]))
        for i in range(len(data["old"]))
    ]


def build(pairs: list[dict[str, Any]], config: Config, vec: dict[str, np.ndarray], *, training: bool):
    rows: list[np.ndarray] = []
    labels: list[float] = []
    groups: list[int] = []
    for g, p in enumerate(pairs):
        for r in pair_rows(p, config, vec, training=training):
            rows.append(r)
            labels.append(float(p["contradiction"]))
            groups.append(g)
    if training:
        extra = elaborations(pairs, config, vec)
        rows.extend(extra)
        labels.extend([0.0] * len(extra))
        groups.extend([-1] * len(extra))
    return np.stack(rows), np.array(labels, dtype=np.float32), np.array(groups)


def forward(params: dict[str, np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    hidden = np.maximum(x @ params["w1"] + params["b1"], 0.0)
    logits = hidden @ params["w2"] + params["b2"]
    return hidden, 1.0 / (1.0 + np.exp(-logits))


def train(x: np.ndarray, y: np.ndarray, xv: np.ndarray, yv: np.ndarray, gv: np.ndarray):
    rng = np.random.default_rng(SEED)
    d = x.shape[1]
    params = {
        "w1": rng.normal(0, np.sqrt(2.0 / d), (d, HIDDEN)).astype(np.float32),
        "b1": np.zeros(HIDDEN, np.float32),
        "w2": rng.normal(0, np.sqrt(1.0 / HIDDEN), HIDDEN).astype(np.float32),
        "b2": np.zeros((), np.float32),
    }
    m = {k: np.zeros_like(v) for k, v in params.items()}
    s = {k: np.zeros_like(v) for k, v in params.items()}
    best: tuple[float, dict[str, np.ndarray]] = (-1.0, params)
    step = 0
    for epoch in range(EPOCHS):
        order = rng.permutation(len(x))
        for i in range(0, len(x), BATCH):
            idx = order[i : i + BATCH]
            xb, yb = x[idx], y[idx]
            hidden, p = forward(params, xb)
            dlogit = (p - yb) / len(idx)
            grads = {
                "w2": hidden.T @ dlogit + WEIGHT_DECAY * params["w2"],
                "b2": np.asarray(dlogit.sum(), np.float32),
            }
            dh = np.outer(dlogit, params["w2"]) * (hidden > 0)
            grads["w1"] = xb.T @ dh + WEIGHT_DECAY * params["w1"]
            grads["b1"] = dh.sum(axis=0)
            step += 1
            for k in params:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                s[k] = 0.999 * s[k] + 0.001 * grads[k] ** 2
                mh = m[k] / (1 - 0.9**step)
                sh = s[k] / (1 - 0.999**step)
                params[k] = (params[k] - LEARNING_RATE * mh / (np.sqrt(sh) + 1e-8)).astype(np.float32)
        score = auc(*grouped(forward(params, xv)[1], yv, gv))
        print(f"  epoch {epoch + 1:2d}: validation AUC {score:.4f}", file=sys.stderr)
        if score > best[0]:
            best = (score, {k: v.copy() for k, v in params.items()})
    return best


def grouped(p: np.ndarray, y: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pair-level score: the highest over a pair's sentence pairs (as ``learn()`` decides)."""
    n = int(g.max()) + 1
    best = np.full(n, -1.0)
    np.maximum.at(best, g, p)
    label = np.zeros(n)
    label[g] = y
    return best, label


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return float((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def report(scores: np.ndarray, labels: np.ndarray) -> None:
    neg = np.sort(scores[labels == 0])[::-1]
    pos = scores[labels == 1]
    for fpr in (0.01, 0.02, 0.03, 0.05, 0.10):
        t = neg[int(fpr * len(neg))]
        print(f"  FPR {fpr:.2f}: threshold {t:.3f}, recall {(pos > t).mean():.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path")
    ap.add_argument("--train-lines", type=int, default=24000)
    ap.add_argument("--cache", default="/tmp/lokulmem-train")
    ap.add_argument("--out", default=str(ROOT / "src/lokulmem/models/contradiction_head.npz"))
    ap.add_argument(
        "--negatives", help="harvested pairs (.npz, scripts/harvest_pairs.py) to add as negatives"
    )
    ap.add_argument("--negative-repeat", type=int, default=10, help="each harvested pair this many times")
    ap.add_argument(
        "--additive",
        type=int,
        default=2,
        help="add the additive hard negatives of train_pair_model.py, N times",
    )
    args = ap.parse_args()
    config = Config()
    pairs = [json.loads(line) for line in Path(args.path).read_text().splitlines() if line.strip()]
    fit, held = pairs[: args.train_lines], pairs[args.train_lines :]
    texts = [c for p in pairs for t in (p["earlier"], p["later"]) for c in contents(t, config)]
    vec = embed_all(texts, Path(args.cache))
    x, y, _ = build(fit, config, vec, training=True)
    if args.additive:
        from train_pair_model import additive  # a sibling script, read only for this option

        extra_pairs = additive(
            sorted({c for p in fit for t in (p["earlier"], p["later"]) for c in contents(t, config)})
        )
        vec.update(embed_all([r["b"] for r in extra_pairs], Path(args.cache)))
        rows = [pair_features(vec[r["a"]], vec[r["b"]], r["a"], r["b"]) for r in extra_pairs] * args.additive
        x = np.concatenate([x, np.stack(rows)])
        y = np.concatenate([y, np.zeros(len(rows), np.float32)])
        print(f"additive negatives: {len(extra_pairs)} x {args.additive}", file=sys.stderr)
    if args.negatives:
        extra = harvested(args.negatives) * args.negative_repeat
        x = np.concatenate([x, np.stack(extra)])
        y = np.concatenate([y, np.zeros(len(extra), np.float32)])
    xv, yv, gv = build(held, config, vec, training=False)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    print(f"fit rows {len(x)} ({int(y.sum())} positive), validation pairs {len(held)}", file=sys.stderr)
    score, params = train((x - mean) / scale, y, (xv - mean) / scale, yv, gv)
    p, labels = grouped(forward(params, (xv - mean) / scale)[1], yv, gv)
    print(f"validation AUC {score:.4f} ({len(held)} pairs)")
    report(p, labels)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as fh:
        np.savez_compressed(fh, mean=mean.astype(np.float32), scale=scale.astype(np.float32), **params)
    print(f"wrote {out} ({out.stat().st_size} bytes), sha256 {hashlib.sha256(out.read_bytes()).hexdigest()}")


if __name__ == "__main__":
    main()
