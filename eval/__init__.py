"""Quality evaluations on real data (issue 5).  Run from the repository root:

    python -m eval.locomo ../shared/eval/locomo/locomo7.json
    python -m eval.contradiction ../shared/eval/decode/pairs_train.jsonl --limit 2000
    python -m eval.extraction --locomo ../shared/eval/locomo/locomo7.json \\
        --personaext ../shared/eval/personaext/dev.jsonl

Each prints a readable table and, as its last line, one JSON object with
every figure.  Datasets are read from the paths given, never copied here.
"""
