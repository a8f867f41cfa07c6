#!/usr/bin/env python3
"""Deck validation benchmarks (issue 3, section 6). Prints numbers; asserts nothing.

    python benchmarks/bench_decks.py [--catalog benchmarks/out/catalog30k] [--decks 1000]

1. Throughput: 1,000 generated 60-card deck lists (text, ``4 Name SET NUMBER`` lines as Pokémon
   TCG Live prints them) checked in one process against the synthetic 30,000-card catalog of
   ``benchmarks/gen_catalog.py`` under ``pokemon-unlimited``; the catalog, the formats and the name
   index are loaded once, each deck is read, matched and checked. Goal: >= 500 decks/s.
2. Cold process: ``cardlab deck validate examples/decks/zap-theme-deck.txt -f pokemon-base`` on the
   shipped catalog, median of 10 runs (validation cache warm). Goal: <= 0.3 s median.

The synthetic catalog is made first when missing (about a minute).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _generate_decks(catalog, out: Path, n: int, seed: int = 7) -> list[Path]:
    """Write ``n`` legal-looking 60-card deck lists drawing on the catalog's Pokémon sets."""
    rng = random.Random(seed)
    by_set: dict[str, list[str]] = {}
    for card_id, card in catalog.cards.items():
        if catalog.game_of(card_id) == "pokemon" and card.get("energy_type") != "basic":
            by_set.setdefault(catalog.card_set[card_id], []).append(card_id)
    basics = [cid for cid, c in catalog.cards.items() if c.get("stage") == "Basic"]
    energy = next(cid for cid, c in catalog.cards.items() if c.get("energy_type") == "basic")
    codes = sorted(by_set)
    paths = []
    for i in range(n):
        picks = [rng.choice(basics)] + rng.sample(by_set[rng.choice(codes)], 11)
        lines, total = [], 0
        for cid in dict.fromkeys(picks):
            card = catalog.cards[cid]
            count = rng.randint(1, 4)
            lines.append(f"{count} {card['name']['en']} {catalog.card_set[cid]} {card['number']}")
            total += count
        e = catalog.cards[energy]
        lines.append(f"{60 - total} {e['name']['en']} {catalog.card_set[energy]} {e['number']}")
        path = out / f"deck-{i:04d}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def throughput(catalog_root: Path, n: int) -> None:
    from cardlab.catalog.validate import validate
    from cardlab.decks.read import read_deck
    from cardlab.decks.resolve import CardIndex, build_deck
    from cardlab.decks.rules import check_deck

    roots = [catalog_root, REPO / "cards"]
    t0 = time.perf_counter()
    result = validate(roots)
    load_s = time.perf_counter() - t0
    if result.problems:
        sys.exit(f"catalog has {len(result.problems)} problems; first: {result.problems[0]}")
    catalog, fmt = result.catalog, result.formats["pokemon-unlimited"]
    t0 = time.perf_counter()
    index = CardIndex(catalog, "pokemon")
    index_s = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as tmp:
        paths = _generate_decks(catalog, Path(tmp), n)
        words = fmt.header_words()
        legal = 0
        t0 = time.perf_counter()
        for path in paths:
            deck = build_deck(read_deck(path, words), catalog, fmt, index)
            problems = deck.problems + check_deck(deck)
            legal += not problems
        elapsed = time.perf_counter() - t0
    print(f"catalog: {len(catalog.cards):,} cards loaded and validated (warm cache) in {load_s:.2f} s; name index in {index_s:.2f} s")
    print(
        f"decks: {n} checked in {elapsed:.2f} s = {n / elapsed:,.0f} decks/s ({legal} legal)"
        f"  goal >= 500/s: {'PASS' if n / elapsed >= 500 else 'FAIL'}"
    )


def cold_process(runs: int = 10) -> None:
    deck = REPO / "examples" / "decks" / "zap-theme-deck.txt"
    cmd = [sys.executable, "-m", "cardlab", "deck", "validate", str(deck), "-f", "pokemon-base"]
    subprocess.run(cmd, capture_output=True, check=False)  # warm the validation cache
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=False)
        times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    print(
        f"cold process `cardlab deck validate` (Zap!): median {med:.3f} s, min {min(times):.3f} s"
        f" over {runs} runs  goal <= 0.3 s: {'PASS' if med <= 0.3 else 'FAIL'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", type=Path, default=REPO / "benchmarks" / "out" / "catalog30k")
    parser.add_argument("--decks", type=int, default=1000)
    args = parser.parse_args()
    if not args.catalog.is_dir():
        subprocess.run([sys.executable, str(REPO / "benchmarks" / "gen_catalog.py"), str(args.catalog), "--cards", "30000"], check=True)
    os.environ.setdefault("CARDLAB_CACHE_DIR", str(REPO / "benchmarks" / "out" / "cache"))
    print(f"load average before: {os.getloadavg()[0]:.2f} (2-core machine)")
    throughput(args.catalog, args.decks)
    cold_process()


if __name__ == "__main__":
    main()
