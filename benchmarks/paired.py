"""Paired timing of whole processes, for the benchmark scripts: two commands run in turn, A B A B ...,
each a fresh process, so a drifting machine affects both alike; the ratio is taken pair by pair.
Standard library only (``time.perf_counter`` around ``subprocess.run``)."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass
class Pair:
    """The wall times (seconds) of A and of B, run by run, and their ratios A/B."""

    label: str
    a: list[float]
    b: list[float]

    @property
    def ratios(self) -> list[float]:
        return [x / y for x, y in zip(self.a, self.b, strict=True)]

    def line(self) -> str:
        """One line: medians (min-max) of A and B and the median ratio A/B (min-max)."""
        a, b, r = self.a, self.b, self.ratios
        return (
            f"{self.label:34s} A {statistics.median(a):.3f} s ({min(a):.3f}-{max(a):.3f})  "
            f"B {statistics.median(b):.3f} s ({min(b):.3f}-{max(b):.3f})  "
            f"A/B {statistics.median(r):.2f} ({min(r):.2f}-{max(r):.2f})"
        )


def run(cmd: Sequence[str], env: dict[str, str] | None = None) -> float:
    """Run ``cmd`` once (output thrown away); return its wall time in seconds."""
    start = time.perf_counter()
    subprocess.run(list(cmd), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def paired(
    label: str,
    a: Sequence[str],
    b: Sequence[str],
    runs: int,
    env_a: dict[str, str] | None = None,
    env_b: dict[str, str] | None = None,
    before: Callable[[], None] | None = None,
) -> Pair:
    """Time ``a`` and ``b`` in turn ``runs`` times each; ``before`` (if given) runs before every A
    (e.g. to empty a cache for a first-use figure) and is not timed."""
    pair = Pair(label, [], [])
    for _ in range(runs):
        if before is not None:
            before()
        pair.a.append(run(a, env_a))
        pair.b.append(run(b, env_b))
    return pair
