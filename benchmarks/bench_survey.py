#!/usr/bin/env python3
"""No-format survey of a deck list vs checking it under one format (issue 27). Prints numbers; asserts
nothing.

    python benchmarks/bench_survey.py [--rounds 30] [--process-runs 10]

1. The library's door, as every command calls it (:func:`cardlab.decks.check.check_deck_file`: the
   catalog opened from its fresh index, the list read and checked): the Berkeley Haymaker pasted
   bare, with no format (A) and with ``pokemon-base-fossil`` (B), in turn, ``--rounds`` pairs.
   Goal: A/B <= 2.
2. In one process, as a server checks lists (catalog, formats and card indexes loaded once): the 29
   vintage lists of ``examples/decks/vintage/`` pasted bare (no ``#`` line, no card id), each checked
   by :func:`cardlab.decks.check.check_list` with no format (A: every format of every game, the list
   looked up once per game and built once per format) and under its own format (B), in turn, A B A
   B ..., ``--rounds`` times over all lists; the ratio A/B pair by pair (a pair is one round): the
   survey's own cost (seven builds and checks against one).
3. Whole processes: ``cardlab deck validate LIST`` (A, no format) and ``cardlab deck validate LIST -f
   pokemon-base-fossil`` (B) on the Berkeley Haymaker pasted bare, in turn, ``--process-runs`` pairs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from paired import paired, paired_calls  # noqa: E402

sys.path.insert(0, str(REPO))
from tests.data.test_bare_lists import bare, format_of  # noqa: E402  (a list as a player pastes it; its format)


def in_process(rounds: int) -> None:
    from cardlab.catalog.validate import load_formats, validate
    from cardlab.core.paths import shipped_catalog
    from cardlab.decks.check import check_list, header_words
    from cardlab.decks.read import parse_deck_text

    catalog = validate([shipped_catalog()], cache_path=None).catalog
    formats = load_formats([shipped_catalog()])
    words = header_words(formats)
    lists = []
    for path in sorted((REPO / "examples" / "decks" / "vintage").glob("*.txt")):
        lists.append((parse_deck_text(bare(path), path.name, words), format_of(path.name)))
    indexes: dict = {}

    def survey() -> None:
        for deck_list, _fmt in lists:
            check_list(deck_list, catalog, formats, None, (), indexes)

    def one() -> None:
        for deck_list, fmt in lists:
            check_list(deck_list, catalog, formats, fmt, (), indexes)

    survey(), one()  # warm the card indexes, as a server's
    pair = paired_calls("survey / one format (29 lists)", survey, one, rounds)
    per_a = [len(lists) / t for t in pair.a]
    per_b = [len(lists) / t for t in pair.b]
    print(pair.line())
    print(
        f"  lists per second: survey {statistics.median(per_a):,.0f}, one format {statistics.median(per_b):,.0f}; "
        f"{len(formats)} formats in the catalog (7 of the list's game built)"
    )


def door(rounds: int) -> None:
    """The library's door (:func:`cardlab.decks.check.check_deck_file`): the catalog opened from its
    fresh index, the file read, checked; no format (A) vs ``-f`` (B), in turn."""
    from cardlab.core.paths import shipped_catalog
    from cardlab.decks.check import check_deck_file

    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "haymaker.txt"
        deck.write_text(bare(REPO / "examples" / "decks" / "vintage" / "1999-10-berkeley-the-better-haymaker.txt"), encoding="utf-8")
        roots = [shipped_catalog()]
        check_deck_file(deck, roots)  # the index built and fresh
        pair = paired_calls(
            "check_deck_file: survey / -f",
            lambda: check_deck_file(deck, roots),
            lambda: check_deck_file(deck, roots, "pokemon-base-fossil"),
            rounds,
        )
        print(pair.line())
        print(f"  goal A/B <= 2: {'PASS' if statistics.median(pair.ratios) <= 2 else 'FAIL'}")


def processes(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "haymaker.txt"
        deck.write_text(bare(REPO / "examples" / "decks" / "vintage" / "1999-10-berkeley-the-better-haymaker.txt"), encoding="utf-8")
        base = [sys.executable, "-m", "cardlab", "deck", "validate", str(deck)]
        subprocess_env = dict(os.environ)
        pair = paired(
            "cold deck validate: survey / -f", base, [*base, "-f", "pokemon-base-fossil"], runs, env_a=subprocess_env, env_b=subprocess_env
        )
        print(pair.line())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--process-runs", type=int, default=10)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} (2-core machine)")
    door(args.rounds)
    in_process(args.rounds)
    processes(args.process_runs)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
