"""The interface's language costs nothing at start: cold ``cardlab search charizard --lang fr`` paired
with the same search in English (issue 32: at most 1.1x), each run a fresh process, A B A B ...

Usage:
    python benchmarks/bench_lang.py [--exe cardlab] [--runs 15]

Both sides use one cache folder and index (built before timing), so the pair differs only in the
language: French names, the French catalog read (gettext, ``cardlab/locale/fr/LC_MESSAGES/cardlab.mo``)
and every label and type line translated. Piped output (plain text), as scripts see it. Prints the
median wall time of each side, their min-max, and the median of the pairwise ratios fr/en; the
same for CPU time (steadier on a shared machine).
Standard library only.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from paired import paired, run  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", default=shutil.which("cardlab") or "cardlab", help="the cardlab executable")
    parser.add_argument("--runs", type=int, default=15, help="timed pairs (default 15)")
    args = parser.parse_args()
    env = dict(os.environ, CARDLAB_CACHE_DIR=tempfile.mkdtemp(prefix="bench-lang-"), NO_COLOR="1", LANG="C.UTF-8")
    env.pop("CARDLAB_LANG", None)
    env.pop("LC_ALL", None)
    french = [args.exe, "search", "charizard", "--lang", "fr"]
    english = [args.exe, "search", "charizard"]
    run(english, env)  # builds the index
    run(french, env)
    print(f"exe = {args.exe}\n{args.runs} pairs, French then English in turn")
    pair = paired("search charizard --lang fr / English", french, english, args.runs, env, env, usage=True)
    print(pair.line())
    cpu = pair.cpu_ratios
    print(
        f"{'CPU time (user + system)':34s} A {statistics.median(pair.cpu_a):.3f} s  B {statistics.median(pair.cpu_b):.3f} s  "
        f"A/B {statistics.median(cpu):.2f} ({min(cpu):.2f}-{max(cpu):.2f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
