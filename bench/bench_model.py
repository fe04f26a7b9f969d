"""Where the embedding model's time goes, and what int8 activations would buy
(docs/tuning.md entry 72).

    python bench/bench_model.py [--runs 300] [--int8-activations]

1. **Operators.**  ONNX Runtime's own profiler over ``--runs`` calls of one
   short sentence on the shipped model (one intra-op thread): time per
   operator type.  The model's weights are int8 with a per-column scale
   (``Cast`` → ``Mul``); Runtime folds that into float32 weights when the
   session loads, so every projection is a float32 ``MatMul``.
2. **Session settings.**  Graph optimisation levels and intra-op threads,
   medians of one sentence.
3. **``--int8-activations``** (needs ``pip install onnx``): the same weights
   run as ``DynamicQuantizeLinear`` → ``MatMulInteger`` (int8 activations,
   one scale per call), written to a temporary file; medians against the
   shipped model, and how far its vectors move: cosine of each text's two
   vectors, the change of pair similarities, and the cosine of one text
   embedded alone and in a batch (the scale is computed over the batch).

Prints JSON lines.  Nothing here is used by the package.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from side_by_side import facts

from lokulmem import MiniLMEmbedder
from lokulmem.embedding.minilm import default_model_path

SHORT = "User lives in Lisbon with User's partner and two cats."


def median_ms(call: Callable[[], object], runs: int) -> float:
    for _ in range(20):
        call()
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        call()
        out.append((time.perf_counter() - t0) * 1000)
    return round(statistics.median(out), 3)


def _feeds(emb: MiniLMEmbedder, texts: list[str]) -> dict[str, Any]:
    emb.load()
    enc = emb._tokenizer.encode_batch(texts)
    ids = np.array([e.ids for e in enc], dtype=np.int64)
    mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}


def _session(path: Path, *, threads: int, level: Any = None, profile: str | None = None) -> Any:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.log_severity_level = 3
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    if level is not None:
        opts.graph_optimization_level = level
    if profile:
        opts.enable_profiling = True
        opts.profile_file_prefix = profile
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])


def operators(runs: int) -> dict[str, Any]:
    feeds = _feeds(MiniLMEmbedder(), [SHORT])
    with tempfile.TemporaryDirectory() as tmp:
        sess = _session(default_model_path(), threads=1, profile=str(Path(tmp) / "prof"))
        for _ in range(runs):
            sess.run(None, feeds)
        events = json.loads(Path(sess.end_profiling()).read_text())
    per_op: collections.Counter[str] = collections.Counter()
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            per_op[e["args"]["op_name"]] += e["dur"]
    total = sum(per_op.values())
    top = {op: round(us / runs / 1000, 3) for op, us in per_op.most_common(6)}
    tokens = int(feeds["input_ids"].shape[1])
    return {"tokens": tokens, "ms_per_run": round(total / runs / 1000, 3), "top_ms": top}


def settings(runs: int) -> dict[str, float]:
    import onnxruntime as ort

    feeds = _feeds(MiniLMEmbedder(), [SHORT])
    out = {}
    for name in ("ORT_ENABLE_BASIC", "ORT_ENABLE_EXTENDED", "ORT_ENABLE_ALL"):
        for threads in (1, 2):
            level = getattr(ort.GraphOptimizationLevel, name)
            sess = _session(default_model_path(), threads=threads, level=level)
            out[f"{name} threads={threads}"] = median_ms(lambda s=sess: s.run(None, feeds), runs)
    return out


def int8_activations(src: Path, dst: Path) -> int:
    """Rewrite each ``MatMul(A, Mul(Cast(W_int8), scale))`` of ``src`` as dynamic
    int8: ``DynamicQuantizeLinear(A)`` → ``MatMulInteger`` → ``Cast`` → ``Mul``."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(src))
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    producer = {o: n for n in graph.node for o in n.output}
    nodes: list[Any] = []
    count = 0
    for node in graph.node:
        mul = producer.get(node.input[1]) if node.op_type == "MatMul" else None
        cast = producer.get(mul.input[0]) if mul is not None and mul.op_type == "Mul" else None
        if cast is None or cast.op_type != "Cast" or cast.input[0] not in inits or mul.input[1] not in inits:
            nodes.append(node)
            continue
        p = f"dq{count}_"
        count += 1
        scale = numpy_helper.to_array(inits[mul.input[1]]).reshape(-1).astype(np.float32)
        graph.initializer.append(numpy_helper.from_array(scale, p + "w_scale"))
        nodes += [
            helper.make_node(
                "DynamicQuantizeLinear", [node.input[0]], [p + "a", p + "a_scale", p + "a_zero"]
            ),
            helper.make_node("MatMulInteger", [p + "a", cast.input[0], p + "a_zero"], [p + "int"]),
            helper.make_node("Cast", [p + "int"], [p + "float"], to=TensorProto.FLOAT),
            helper.make_node("Mul", [p + "a_scale", p + "w_scale"], [p + "scale"]),
            helper.make_node("Mul", [p + "float", p + "scale"], list(node.output)),
        ]
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.save(model, str(dst))
    return count


def compare(runs: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "int8.onnx"
        replaced = int8_activations(default_model_path(), path)
        base, fast = MiniLMEmbedder(), MiniLMEmbedder(model_path=path, verify=False)
        texts = facts(2000, seed=7)
        long = " ".join(texts[:4])
        speed = {
            name: {
                "one": median_ms(lambda e=e: e.embed([SHORT]), runs),
                "long": median_ms(lambda e=e: e.embed([long]), runs),
                "batch32": median_ms(lambda e=e: e.embed(texts[:32]), max(10, runs // 10)),
            }
            for name, e in (("shipped", base), ("int8_activations", fast))
        }
        a, b = base.embed(texts), fast.embed(texts)
        same = (a * b).sum(axis=1)
        rng = np.random.default_rng(0)
        i, j = rng.integers(0, len(texts), 20000), rng.integers(0, len(texts), 20000)
        pair_change = np.abs((a[i] * a[j]).sum(1) - (b[i] * b[j]).sum(1))
        alone, batched = fast.embed([SHORT])[0], fast.embed([SHORT, long])[0]
    return {
        "matmuls_rewritten": replaced,
        "median_ms": speed,
        "cosine_same_text": {"min": round(float(same.min()), 4), "median": round(float(np.median(same)), 4)},
        "pair_similarity_change": {
            "median": round(float(np.median(pair_change)), 4),
            "p99": round(float(np.percentile(pair_change, 99)), 4),
        },
        "cosine_alone_vs_in_batch": round(float(alone @ batched), 4),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--int8-activations", action="store_true", help="also build and compare the int8 variant")
    args = ap.parse_args()
    print(json.dumps({"bench": "model_operators", **operators(args.runs)}))
    print(json.dumps({"bench": "model_settings", "median_ms": settings(args.runs)}))
    if args.int8_activations:
        print(json.dumps({"bench": "model_int8_activations", **compare(args.runs)}))


if __name__ == "__main__":
    main()
