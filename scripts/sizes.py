"""Module and function sizes of the package: the architecture's size budget.

    python scripts/sizes.py [--modules N] [--functions N] [PATH]

Prints every source module over ``--modules`` lines (default 400) and every
function or method over ``--functions`` lines (default 60), longest first,
then the totals.  Lines are physical lines, docstrings and comments included.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src" / "lokulmem"


def functions(tree: ast.AST) -> list[tuple[str, int]]:
    """(qualified name, lines) of every function in ``tree``."""
    out: list[tuple[str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                out.append((name, (child.end_lineno or child.lineno) - child.lineno + 1))
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")

    visit(tree, "")
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", type=Path, default=ROOT)
    parser.add_argument("--modules", type=int, default=400)
    parser.add_argument("--functions", type=int, default=60)
    args = parser.parse_args(argv)
    modules: list[tuple[int, str]] = []
    funcs: list[tuple[int, str]] = []
    for path in sorted(args.root.rglob("*.py")):
        text = path.read_text()
        rel = str(path.relative_to(args.root))
        modules.append((len(text.splitlines()), rel))
        funcs += [(n, f"{rel}:{name}") for name, n in functions(ast.parse(text))]
    big = sorted((m for m in modules if m[0] > args.modules), reverse=True)
    long = sorted((f for f in funcs if f[0] > args.functions), reverse=True)
    print(f"modules over {args.modules} lines: {len(big)} of {len(modules)}")
    for n, rel in big:
        print(f"  {n:5d}  {rel}")
    print(f"functions over {args.functions} lines: {len(long)} of {len(funcs)}")
    for n, name in long:
        print(f"  {n:5d}  {name}")
    print(f"largest module {max(modules)[0]} lines; longest function {max(funcs)[0]} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
