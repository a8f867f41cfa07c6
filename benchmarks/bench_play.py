#!/usr/bin/env python3
"""Mini-game benchmarks and the 100,000-game odds cross-check (issue 13). Prints numbers and
PASS/FAIL against the issue's goals; each time is paired with a floor measured in the same run.

    python benchmarks/bench_play.py [--games 100000] [--runs 5]

1. Ranking: 100,000 Los Lobos hands (drawn beforehand from the fictional test set's 25 Commons with
   the HMAC-SHA256 stream) ranked in-process by ``cardlab.play.hands.rank``. Goal: <= 1 s.
   Floor: the same loop doing only ``tuple(sorted(hand))`` (the least work a ranker does per hand).
2. Simulation: 100,000 hands drawn and ranked (500,000 draws from the stream, four draws a block).
   Floor: the 125,000 HMAC-SHA256 blocks those draws need, computed bare (keyed once, copied per block).
3. Odds cross-check, >= 100,000 seeded games each: the frequency of every Los Lobos class, of a
   Zangetsu tie after 3 cards and of a Doll House on the first 4 rolls must lie within 3 standard
   errors of the exact fractions of ``cardlab.play.odds``.

Times are the median of ``--runs`` runs (``time.perf_counter``); the machine's load average is printed.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

VALUES = [v for v in range(1, 6) for _ in range(5)]  # tests/fixtures/forumtcg: 25 Commons, Values 1-5
FACTIONS = ["gotei-13", "acuerdo", "ultima-necat", "neutral"] * 2 + ["independent", "neutral"]


def _median(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _within(count: int, n: int, p: float) -> tuple[bool, float]:
    se = (p * (1 - p) / n) ** 0.5
    z = abs(count / n - p) / se if se else (0.0 if count / n == p else float("inf"))
    return z <= 3, z


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    from cardlab.play import odds
    from cardlab.play.hands import _CACHE, CLASS_NAMES, rank
    from cardlab.play.rng import Stream

    n = args.games
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs; Python {sys.version.split()[0]}")
    s = Stream(b"bench-play" * 4)
    hands = [[VALUES[s.below(25)] for _ in range(5)] for _ in range(n)]

    def rank_all() -> None:
        _CACHE.clear()  # cold cache each run: the table is built inside the timing
        for h in hands:
            rank(h)

    def floor_sort() -> None:
        for h in hands:
            tuple(sorted(h))

    t_rank, t_floor = _median(rank_all, args.runs), _median(floor_sort, args.runs)
    ok = t_rank <= 1.0
    print(
        f"1. rank {n:,} Los Lobos hands:        {t_rank:.3f} s  (floor, sort each hand: {t_floor:.3f} s; "
        f"x{t_rank / t_floor:.1f})  goal <= 1 s: {'PASS' if ok else 'FAIL'}"
    )

    def simulate() -> None:
        st = Stream(b"bench-sim" * 4)
        for _ in range(n):
            rank([VALUES[st.below(25)] for _ in range(5)])

    keyed = hmac.new(b"k" * 32, b"cardlab-play-v1", hashlib.sha256)

    def floor_hmac() -> None:
        for i in range(5 * n // 4):
            mac = keyed.copy()
            mac.update(i.to_bytes(8, "big"))
            mac.digest()

    t_sim, t_hmac = _median(simulate, max(1, args.runs // 2)), _median(floor_hmac, max(1, args.runs // 2))
    ok_sim = t_sim <= 1.0
    ok &= ok_sim
    print(
        f"2. draw and rank {n:,} hands:         {t_sim:.3f} s  (floor, {5 * n // 4:,} bare HMAC-SHA256 blocks: {t_hmac:.3f} s; "
        f"x{t_sim / t_hmac:.1f})  goal <= 1 s: {'PASS' if ok_sim else 'FAIL'}"
    )

    all_ok = ok
    table = odds.los_lobos(VALUES)
    seen: dict[str, int] = {}
    for h in hands:
        label = CLASS_NAMES[rank(h).hand_class][0]
        seen[label] = seen.get(label, 0) + 1
    print(f"3. odds cross-check, {n:,} seeded games each (|z| <= 3):")
    for label, p in table.rows:
        good, z = _within(seen.get(label, 0), n, float(p))
        all_ok &= good
        print(
            f"   Los Lobos {label:<16} exact {str(p):>10} = {float(p):.5f}  simulated {seen.get(label, 0) / n:.5f}  "
            f"z {z:5.2f}  {'PASS' if good else 'FAIL'}"
        )
    z_table = odds.zangetsu(VALUES)
    p_tie = float(dict(z_table.extras)["P(2 players tie after 3 cards)"])
    st = Stream(b"bench-zangetsu" * 3)
    ties = sum(sum(VALUES[st.below(25)] for _ in range(3)) == sum(VALUES[st.below(25)] for _ in range(3)) for _ in range(n))
    good, z = _within(ties, n, p_tie)
    all_ok &= good
    print(f"   Zangetsu tie after 3 cards  exact {p_tie:.5f}  simulated {ties / n:.5f}  z {z:5.2f}  {'PASS' if good else 'FAIL'}")
    d_table = odds.doll_house(FACTIONS)
    p_dh = float(d_table.get("Doll House on the first 4 rolls"))
    st = Stream(b"bench-doll-house" * 2)
    hits = sum(len({FACTIONS[st.die(10) - 1] for _ in range(4)} - {"independent"}) == 4 for _ in range(n))
    good, z = _within(hits, n, p_dh)
    all_ok &= good
    print(f"   Doll House on first 4 rolls exact {p_dh:.5f}  simulated {hits / n:.5f}  z {z:5.2f}  {'PASS' if good else 'FAIL'}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
