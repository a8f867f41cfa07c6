"""Cold ``cardlab --help`` in French against the same in English, paired (issue 32): the help path
loads the help catalog (``cardlab-help.mo``) and says every help text through it; this is what it costs.

Usage:
    python benchmarks/bench_help.py [--exe PATH/TO/cardlab] [--runs 10]

Runs ``cardlab --help --lang fr`` (A) and ``cardlab --help`` (B) in turn, each a fresh process,
and ``cardlab deck validate --help --lang fr`` against ``cardlab deck validate --help``; prints the
median wall time of each, their min-max and the median of the pairwise ratios A/B, and the CPU
medians (user + system). Standard library only (:mod:`paired`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from paired import paired  # noqa: E402

COMMANDS = {"cardlab --help": ["--help"], "cardlab deck validate --help": ["deck", "validate", "--help"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", default=shutil.which("cardlab") or "cardlab", help="the cardlab executable (default: on PATH)")
    parser.add_argument("--runs", type=int, default=10, help="timed pairs per command (default 10)")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARDLAB_LANG", "LC_"))}
    env.update(LANG="C.UTF-8", NO_COLOR="1")
    print(f"exe = {args.exe}\n{args.runs} pairs per command: A = in French (--lang fr), B = in English")
    for label, cmd in COMMANDS.items():
        pair = paired(label, [args.exe, *cmd, "--lang", "fr"], [args.exe, *cmd], args.runs, env, env, usage=True)
        print(
            pair.line()
            + f"  CPU A {statistics.median(pair.cpu_a):.3f} s B {statistics.median(pair.cpu_b):.3f} s A/B {statistics.median(pair.cpu_ratios):.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
