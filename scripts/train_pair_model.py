"""Train the contradiction cross-encoder (``lokulmem/models/contradiction_cross.onnx``).

    # 1. sentence pairs as learn() reads them (the project's venv)
    python scripts/train_pair_model.py prepare ../shared/eval/decode/pairs_train.jsonl --work /tmp/pm
    # 2. fine-tune and export (a venv with torch, onnx, onnxruntime, tokenizers)
    python scripts/train_pair_model.py train --work /tmp/pm              # epochs 0-2
    python scripts/train_pair_model.py train --work /tmp/pm --resume 2   # epoch 3: + additive negatives
    python scripts/train_pair_model.py export --work /tmp/pm --epoch 3

Data: DECODE's development pairs only, lines ``[0, --train-lines)`` to fit and
the rest to choose the epoch and report figures (``eval.contradiction`` starts
at line 24,000 by default, so its DECODE figures are on pairs the model never
saw).  Each utterance is read as ``learn()`` reads it (sentence split, the
third-person rewrite); a contradiction contributes its most similar sentence
pair (MiniLM cosine: multiple-instance learning), an unrelated pair all of its
sentence pairs, and the sentences of one utterance, taken in pairs, are added
as negatives (related elaborations by one speaker, which DECODE's negatives
lack).  Each epoch sees every positive and ``NEG_PER_EPOCH`` negatives drawn
afresh.  A second stage (``--resume``) trains one more epoch at half the rate
with :func:`additive` hard negatives added, each twice ("User loves X." /
"User also loves Y.": related, compatible).

The model: all-MiniLM-L6-v2 initialised from the embedder's own int8 file
(dequantised), ``[CLS] stored [SEP] new [SEP]`` with segment ids, mean-pooled,
one linear output; the word embeddings stay frozen and are looked up outside
the graph (the embedder's own int8 matrix, so a shipped file need not
duplicate its 11.7 MB).  AdamW, learning
rate ``LR`` with 6% warm-up and linear decay, batch ``BATCH``, ``EPOCHS``
epochs, seed 7, 2 CPU threads (~10 minutes an epoch on 2 cores).  ``export``
writes ONNX (opset 17), quantises the weights to int8
(``onnxruntime.quantization.quantize_dynamic``), checks the quantised model
against the float one on the validation pairs, and prints the figures and the
sha256.

**Not shipped** (docs/tuning.md entry 34): the model recognises changes the
rules miss (knowledge-update hold-out 30.0 → 47.5% current-first) but closed
true facts by the thousand in the LoCoMo replay (2,976 conflict events
instead of 5; default-path recall 63.0 → 48.8).  Kept so the experiment can
be re-run and taken further.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

H, HEADS = 384, 12
EPOCHS, NEG_PER_EPOCH, BATCH, LR, SEED = 3, 24000, 32, 4e-5, 7
#: Tokens of a pair in training (no DECODE sentence pair reaches it); the package reads up to 128.
TRAIN_MAX_TOKENS = 96


# -- prepare (project venv) --------------------------------------------------------
def prepare(args: argparse.Namespace) -> None:
    from train_contradiction import contents, embed_all  # same reading as the head's script

    from lokulmem import Config

    config = Config()
    lines = Path(args.path).read_text().splitlines()
    pairs = [json.loads(line) for line in lines if line.strip()]
    texts = [c for p in pairs for t in (p["earlier"], p["later"]) for c in contents(t, config)]
    vec = embed_all(texts, Path(args.work) / "vectors")

    def rows(chunk: list[dict[str, Any]], training: bool) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for g, p in enumerate(chunk):
            old, new = contents(p["earlier"], config), contents(p["later"], config)
            combos = [(o, n) for o in old for n in new]
            if training and p["contradiction"]:
                combos = [max(combos, key=lambda c: float(vec[c[0]] @ vec[c[1]]))]
            out += [{"a": o, "b": n, "y": int(p["contradiction"]), "g": g} for o, n in combos]
            if training:
                for text in (p["earlier"], p["later"]):
                    parts = contents(text, config)
                    out += [
                        {"a": a, "b": b, "y": 0, "g": -1} for i, a in enumerate(parts) for b in parts[i + 1 :]
                    ]
        return out

    work = Path(args.work)
    fit = rows(pairs[: args.train_lines], True)
    extra = additive(sorted({t for r in fit for t in (r["a"], r["b"])}))
    (work / "additive.jsonl").write_text("".join(json.dumps(r) + "\n" for r in extra))
    print(f"additive: {len(extra)} hard negatives")
    for name, chunk, training in (
        ("fit", pairs[: args.train_lines], True),
        ("val", pairs[args.train_lines :], False),
    ):
        data = rows(chunk, training)
        (work / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in data))
        print(f"{name}: {len(data)} sentence pairs, {sum(r['y'] for r in data)} positive")


#: Opening verbs of the additive hard negatives ("User loves X." / "User also loves Y.").
ADDITIVE = (
    "loves",
    "likes",
    "enjoys",
    "has",
    "owns",
    "works",
    "plays",
    "goes",
    "wants",
    "prefers",
    "listens",
    "watches",
    "reads",
    "cooks",
    "eats",
    "drinks",
    "collects",
    "visits",
)


def additive(sentences: list[str]) -> list[dict[str, Any]]:
    """Two development sentences with the same opening verb, the second made additive
    ("also", "too", "as well"): related, compatible, and what DECODE's negatives lack."""
    import re
    from collections import defaultdict

    rng = random.Random(11)
    opening = re.compile(r"^User (" + "|".join(ADDITIVE) + r")\b (.+)$")
    exclusive = re.compile(r"\b(not|never|n.t|no|only|just|also|too|well)\b")
    by_verb: dict[str, list[str]] = defaultdict(list)
    for s in sentences:
        m = opening.match(s)
        if m and 3 <= len(s.split()) <= 14 and not exclusive.search(s):
            by_verb[m.group(1)].append(s)
    out: list[dict[str, Any]] = []
    for group in by_verb.values():
        rng.shuffle(group)
        for a, b in zip(group[0::2], group[1::2], strict=False):
            cue = rng.choice(["also ", "also ", "too", "as well"])
            later = "User also " + b[len("User ") :] if cue == "also " else b.rstrip(".!") + " " + cue + "."
            out.append({"a": a, "b": later, "y": 0, "g": -2})
    return out


# -- the model (torch venv) --------------------------------------------------------
def minilm_weights() -> dict[str, np.ndarray]:
    """The embedder's int8 MiniLM, dequantised (``w = q × scale``), by role."""
    import onnx
    from onnx import numpy_helper

    from lokulmem.embedding.minilm import default_model_path

    graph = onnx.load(str(default_model_path())).graph
    arr = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    out = {
        "words": arr["inner.embeddings.word_embeddings.weight_q"].astype(np.float32)
        * arr["inner.embeddings.word_embeddings.weight_scale"],
        "pos": arr["inner.embeddings.position_embeddings.weight_q"].astype(np.float32)
        * arr["inner.embeddings.position_embeddings.weight_scale"],
        "types": arr["inner.embeddings.token_type_embeddings.weight"],
        "ln.w": arr["inner.embeddings.LayerNorm.weight"],
        "ln.b": arr["inner.embeddings.LayerNorm.bias"],
    }
    # The quantised matrices in graph order: query, key, value, attention output,
    # intermediate, output, per layer (checked: the float model reproduces the
    # embedder's vectors, cosine 1.0000).
    mats: list[str] = []
    for node in graph.node:
        mats += [x for x in node.input if x.startswith("val_") and x.endswith("_q") and x not in mats]
    roles = ("query", "key", "value", "attn", "inter", "out")
    for layer in range(6):
        p = f"inner.encoder.layer.{layer}."
        for j, role in enumerate(roles):
            q = mats[layer * 6 + j]
            out[f"{layer}.{role}.w"] = arr[q].astype(np.float32) * arr[q[:-2] + "_scale"]
        for role, name in (
            ("query", "attention.self.query"),
            ("key", "attention.self.key"),
            ("value", "attention.self.value"),
            ("attn", "attention.output.dense"),
            ("inter", "intermediate.dense"),
            ("out", "output.dense"),
        ):
            out[f"{layer}.{role}.b"] = arr[p + name + ".bias"]
        for ln, name in (("ln1", "attention.output.LayerNorm"), ("ln2", "output.LayerNorm")):
            out[f"{layer}.{ln}.w"], out[f"{layer}.{ln}.b"] = (
                arr[p + name + ".weight"],
                arr[p + name + ".bias"],
            )
    return out


def build_model(weights: dict[str, np.ndarray]) -> Any:
    import torch
    from torch import nn

    def linear(w: np.ndarray, b: np.ndarray) -> nn.Linear:
        lin = nn.Linear(w.shape[0], w.shape[1])
        lin.weight.data, lin.bias.data = torch.tensor(w.T.copy()), torch.tensor(b.copy())
        return lin

    def norm(w: np.ndarray, b: np.ndarray) -> nn.LayerNorm:
        ln = nn.LayerNorm(H, eps=1e-12)
        ln.weight.data, ln.bias.data = torch.tensor(w.copy()), torch.tensor(b.copy())
        return ln

    class Layer(nn.Module):
        def __init__(self, i: int) -> None:
            super().__init__()
            lin = {
                r: linear(weights[f"{i}.{r}.w"], weights[f"{i}.{r}.b"])
                for r in ("query", "key", "value", "attn", "inter", "out")
            }
            self.q, self.k, self.v, self.o = lin["query"], lin["key"], lin["value"], lin["attn"]
            self.inter, self.out = lin["inter"], lin["out"]
            self.ln1 = norm(weights[f"{i}.ln1.w"], weights[f"{i}.ln1.b"])
            self.ln2 = norm(weights[f"{i}.ln2.w"], weights[f"{i}.ln2.b"])

        def forward(self, x: Any, bias: Any) -> Any:
            b, t, _ = x.shape

            def heads(y: Any) -> Any:
                return y.view(b, t, HEADS, H // HEADS).transpose(1, 2)

            att = torch.softmax(
                heads(self.q(x)) @ heads(self.k(x)).transpose(-1, -2) / math.sqrt(H // HEADS) + bias, -1
            )
            x = self.ln1(x + self.o((att @ heads(self.v(x))).transpose(1, 2).reshape(b, t, H)))
            h = self.inter(x)
            return self.ln2(x + self.out(0.5 * h * (1.0 + torch.erf(h / math.sqrt(2.0)))))

    class CrossEncoder(nn.Module):
        """Input: word embeddings (looked up outside), segment ids, attention mask; output: one logit."""

        def __init__(self) -> None:
            super().__init__()
            self.pos = nn.Parameter(torch.tensor(weights["pos"].copy()))
            self.types = nn.Parameter(torch.tensor(weights["types"].copy()))
            self.ln = norm(weights["ln.w"], weights["ln.b"])
            self.layers = nn.ModuleList(Layer(i) for i in range(6))
            self.head = nn.Linear(H, 1)
            nn.init.zeros_(self.head.weight)
            nn.init.zeros_(self.head.bias)

        def forward(self, words: Any, types: Any, mask: Any) -> Any:
            x = self.ln(words + self.pos[: words.shape[1]].unsqueeze(0) + self.types[types])
            bias = (1.0 - mask[:, None, None, :]) * -1e4
            for layer in self.layers:
                x = layer(x, bias)
            m = mask.unsqueeze(-1)
            return self.head((x * m).sum(1) / m.sum(1).clamp(min=1.0)).squeeze(-1)

    return CrossEncoder()


# -- train and export (torch venv) -------------------------------------------------
class Batches:
    """Tokenised sentence pairs, padded per batch; word vectors looked up here."""

    def __init__(self, rows: list[dict[str, Any]], words: np.ndarray, max_tokens: int) -> None:
        from tokenizers import Tokenizer

        from lokulmem.embedding.minilm import default_tokenizer_path

        tok = Tokenizer.from_file(str(default_tokenizer_path()))
        tok.no_padding()
        tok.enable_truncation(max_length=max_tokens)
        self.encoded = [(e.ids, e.type_ids) for e in tok.encode_batch([(r["a"], r["b"]) for r in rows])]
        self.words = words

    def arrays(self, index: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        width = max(len(self.encoded[i][0]) for i in index)
        ids = np.zeros((len(index), width), np.int64)
        types = np.zeros_like(ids)
        mask = np.zeros((len(index), width), np.float32)
        for j, i in enumerate(index):
            a, b = self.encoded[i]
            ids[j, : len(a)], types[j, : len(b)], mask[j, : len(a)] = a, b, 1.0
        return self.words[ids], types, mask


def read_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def figures(scores: np.ndarray, rows: list[dict[str, Any]]) -> dict[str, float]:
    """Pair-level score = the highest over its sentence pairs; recall at fixed FPRs."""
    g = np.array([r["g"] for r in rows])
    y = np.array([r["y"] for r in rows])
    best = np.full(g.max() + 1, -1.0)
    np.maximum.at(best, g, scores)
    label = np.zeros(len(best))
    label[g] = y
    neg = np.sort(best[label == 0])[::-1]
    pos = best[label == 1]
    return {
        f"recall@fpr{f:.2f}": round(float((pos > neg[int(f * len(neg))]).mean()), 4)
        for f in (0.01, 0.02, 0.03, 0.05, 0.10)
    }


def train(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(2)
    torch.manual_seed(SEED)
    random.seed(SEED)
    work = Path(args.work)
    weights = minilm_weights()
    fit, val = read_rows(work / "fit.jsonl"), read_rows(work / "val.jsonl")
    hard = read_rows(work / "additive.jsonl") * 2 if args.resume is not None else []
    fit += hard
    fit_b = Batches(fit, weights["words"], TRAIN_MAX_TOKENS)
    val_b = Batches(val, weights["words"], TRAIN_MAX_TOKENS)
    model = build_model(weights)
    epochs, lr, first = EPOCHS, LR, 0
    if args.resume is not None:  # the second stage: one epoch at half the rate, additive negatives added
        model.load_state_dict(torch.load(work / f"epoch{args.resume}.pt"))
        epochs, lr, first = 1, LR / 2, args.resume + 1
    pos = [i for i, r in enumerate(fit) if r["y"]]
    neg = [i for i, r in enumerate(fit) if not r["y"] and r["g"] != -2]
    extra = [i for i, r in enumerate(fit) if r["g"] == -2]
    total = (len(pos) + NEG_PER_EPOCH + len(extra)) // BATCH * epochs
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, s / (0.06 * total)) * max(0.0, 1 - s / total)
    )
    for epoch in range(first, first + epochs):
        order = pos + random.sample(neg, NEG_PER_EPOCH) + extra
        random.shuffle(order)
        start = time.time()
        for i in range(0, len(order) - BATCH + 1, BATCH):
            index = order[i : i + BATCH]
            x = [torch.tensor(a) for a in fit_b.arrays(index)]
            y = torch.tensor([float(fit[j]["y"]) for j in index])
            loss = torch.nn.functional.binary_cross_entropy_with_logits(model(*x), y)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
        scores = predict(model, val_b)
        print(f"epoch {epoch}: {time.time() - start:.0f} s, validation {figures(scores, val)}", flush=True)
        torch.save(model.state_dict(), work / f"epoch{epoch}.pt")


def predict(model: Any, batches: Batches) -> np.ndarray:
    import torch

    model.eval()
    order = sorted(range(len(batches.encoded)), key=lambda i: len(batches.encoded[i][0]))
    out = np.zeros(len(order))
    with torch.no_grad():
        for i in range(0, len(order), 128):
            index = order[i : i + 128]
            out[index] = torch.sigmoid(model(*[torch.tensor(a) for a in batches.arrays(index)])).numpy()
    model.train()
    return out


def weight_only_int8(plain: Path, out: Path) -> None:
    """Store every matrix (2-D initializer) as int8 with one scale per output column
    and dequantise in the graph (``Cast`` + ``Mul``), as the embedder's own file
    does: a quarter of the size, float arithmetic.  (Dynamic quantisation of the
    activations as well cost 1-5 points of recall at low false-positive rates.)"""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(plain))
    graph = model.graph
    kept, nodes = [], []
    for init in graph.initializer:
        w = numpy_helper.to_array(init)
        if w.ndim != 2 or w.dtype != np.float32:
            kept.append(init)
            continue
        axis = 0 if init.name.endswith(("pos", "types")) else None  # embedding tables: per row
        scale = np.abs(w).max(axis=1 if axis == 0 else 0, keepdims=True) / 127.0
        scale = np.maximum(scale, 1e-12).astype(np.float32)
        q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
        kept += [
            numpy_helper.from_array(q, init.name + "_q"),
            numpy_helper.from_array(scale, init.name + "_scale"),
        ]
        nodes += [
            helper.make_node("Cast", [init.name + "_q"], [init.name + "_f"], to=onnx.TensorProto.FLOAT),
            helper.make_node("Mul", [init.name + "_f", init.name + "_scale"], [init.name]),
        ]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    for node in reversed(nodes):
        graph.node.insert(0, node)
    onnx.checker.check_model(model)
    onnx.save(model, str(out))


def export(args: argparse.Namespace) -> None:
    import onnxruntime as ort
    import torch

    work = Path(args.work)
    weights = minilm_weights()
    model = build_model(weights)
    model.load_state_dict(torch.load(work / f"epoch{args.epoch}.pt"))
    model.eval()
    plain = work / "cross.f32.onnx"
    dims = {0: "pairs", 1: "tokens"}
    torch.onnx.export(
        model,
        (torch.randn(2, 20, H), torch.zeros(2, 20, dtype=torch.long), torch.ones(2, 20)),
        str(plain),
        input_names=["words", "token_type_ids", "attention_mask"],
        output_names=["logit"],
        dynamic_axes={"words": dims, "token_type_ids": dims, "attention_mask": dims, "logit": {0: "pairs"}},
        opset_version=17,
        dynamo=False,
    )
    out = Path(args.out) if args.out else work / "contradiction_cross.onnx"
    out.parent.mkdir(parents=True, exist_ok=True)
    weight_only_int8(plain, out)
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    val = read_rows(work / "val.jsonl")
    batches = Batches(val, weights["words"], TRAIN_MAX_TOKENS)
    # One pair per run, as learn() would run it (no padding).
    scores = np.array(
        [
            session.run(
                ["logit"],
                dict(zip(("words", "token_type_ids", "attention_mask"), batches.arrays([i]), strict=True)),
            )[0][0]
            for i in range(len(val))
        ]
    )
    print(f"float model: {figures(predict(model, batches), val)}")
    print(f"int8 file: {figures(scores, val)}")
    print(f"wrote {out} ({out.stat().st_size} bytes), sha256 {hashlib.sha256(out.read_bytes()).hexdigest()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare", help="sentence pairs as learn() reads them")
    p.add_argument("path")
    p.add_argument("--train-lines", type=int, default=24000)
    for name in ("prepare", "train", "export"):
        q = p if name == "prepare" else sub.add_parser(name)
        q.add_argument("--work", default="/tmp/lokulmem-pairs")
    sub.choices["train"].add_argument("--resume", type=int, help="second stage from this epoch's checkpoint")
    sub.choices["export"].add_argument("--epoch", type=int, default=EPOCHS)
    sub.choices["export"].add_argument("--out", help="default: WORK/contradiction_cross.onnx")
    args = ap.parse_args()
    Path(args.work).mkdir(parents=True, exist_ok=True)
    {"prepare": prepare, "train": train, "export": export}[args.command](args)


if __name__ == "__main__":
    main()
