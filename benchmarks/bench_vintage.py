"""The vintage Pokémon pool (758 cards, shipped catalog): first-use indexing and cold searches, each
paired with its floor in the same run.

Usage:  python benchmarks/bench_vintage.py [--runs 10]

- first-use ``cardlab index`` (empty cache: every file validated, index built) against the floor of
  the imports it needs (``python -c 'import sqlmodel, jsonschema_rs, jsonschema, yaml'``);
- cold ``cardlab search charizard`` (index built) against ``python -c 'import typer, rich.table, sqlite3'``.
Prints one line per figure (see ``paired.py``). The issue's goals: indexing ≤ 2 s, search ≤ 0.2 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from paired import paired, run  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    exe = shutil.which("cardlab") or "cardlab"
    py = sys.executable
    cache = Path(tempfile.mkdtemp(prefix="bench-vintage-"))
    env = dict(os.environ, CARDLAB_CACHE_DIR=str(cache), NO_COLOR="1")

    def empty_cache() -> None:
        shutil.rmtree(cache, ignore_errors=True)
        cache.mkdir()

    print(f"cardlab = {exe}; {args.runs} pairs per figure, A then B in turn")
    print(
        paired(
            "first-use index (758 cards)",
            [exe, "index"],
            [py, "-c", "import sqlmodel, jsonschema_rs, jsonschema, yaml"],
            args.runs,
            env,
            env,
            before=empty_cache,
        ).line()
    )
    run([exe, "index"], env)
    print(
        paired(
            "cold search charizard", [exe, "search", "charizard"], [py, "-c", "import typer, rich.table, sqlite3"], args.runs, env, env
        ).line()
    )
    shutil.rmtree(cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
