"""Paired timing of whole processes, for the benchmark scripts: two commands run in turn, A B A B ...,
each a fresh process, so a drifting machine affects both alike; the ratio is taken pair by pair.
With ``usage=True`` each run also gives its CPU time and peak memory (``os.wait4``: the process and the
children it waited for). :func:`paired_calls` does the same for two functions in one process.
Standard library only (``time.perf_counter`` around ``subprocess.run``)."""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Pair:
    """The wall times (seconds) of A and of B, run by run, and their ratios A/B; with ``usage``,
    also CPU seconds (user + system), peak memory (KiB, ``ru_maxrss``) and exit codes, run by run."""

    label: str
    a: list[float]
    b: list[float]
    cpu_a: list[float] = field(default_factory=list)
    cpu_b: list[float] = field(default_factory=list)
    rss_a: list[int] = field(default_factory=list)
    rss_b: list[int] = field(default_factory=list)
    rc_a: list[int] = field(default_factory=list)
    rc_b: list[int] = field(default_factory=list)

    @property
    def cpu_ratios(self) -> list[float]:
        """CPU time of A over CPU time of B, pair by pair (empty without ``usage``)."""
        return [x / y for x, y in zip(self.cpu_a, self.cpu_b, strict=True) if y > 0]

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


@dataclass
class Usage:
    """One run of a command: wall and CPU seconds (user + system, with the children it waited
    for), peak resident memory in KiB (the largest of the process and those children) and exit code."""

    wall: float
    cpu: float
    maxrss_kib: int
    rc: int


GNU_TIME = "/usr/bin/time"


def measure(cmd: Sequence[str], env: dict[str, str] | None = None, cwd: str | None = None) -> Usage:
    """Run ``cmd`` once (output thrown away) and return its :class:`Usage`: wall time around the
    run, CPU from ``os.wait4`` (POSIX), peak memory from GNU time's ``%M`` when ``/usr/bin/time``
    exists. (``ru_maxrss`` of a child started by a big Python process counts that process's own
    peak, which the child's address space had until ``exec``; GNU time is a small process, so its
    ``%M`` is the command's own.) Without GNU time, ``ru_maxrss`` is given, an upper bound."""
    import tempfile

    with tempfile.NamedTemporaryFile("r", suffix=".rss") as out:
        wrapped = [GNU_TIME, "-f", "%M", "-o", out.name, *cmd] if os.path.exists(GNU_TIME) else list(cmd)
        start = time.perf_counter()
        proc = subprocess.Popen(wrapped, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        lines = out.read().split()
    rss = int(lines[-1]) if wrapped[0] == GNU_TIME and lines and lines[-1].isdigit() else ru.ru_maxrss
    return Usage(wall, ru.ru_utime + ru.ru_stime, rss, proc.returncode)


def paired(
    label: str,
    a: Sequence[str],
    b: Sequence[str],
    runs: int,
    env_a: dict[str, str] | None = None,
    env_b: dict[str, str] | None = None,
    before: Callable[[], None] | None = None,
    usage: bool = False,
    cwd_b: str | None = None,
) -> Pair:
    """Time ``a`` and ``b`` in turn ``runs`` times each; ``before`` (if given) runs before every A
    (e.g. to empty a cache for a first-use figure) and is not timed. With ``usage`` each run is
    :func:`measure`d (CPU, memory, exit code too); ``cwd_b`` is B's working folder (with ``usage``)."""
    pair = Pair(label, [], [])
    for _ in range(runs):
        if before is not None:
            before()
        if not usage:
            pair.a.append(run(a, env_a))
            pair.b.append(run(b, env_b))
            continue
        for side, cmd, env, cwd in (("a", a, env_a, None), ("b", b, env_b, cwd_b)):
            got = measure(cmd, env, cwd)
            getattr(pair, side).append(got.wall)
            getattr(pair, f"cpu_{side}").append(got.cpu)
            getattr(pair, f"rss_{side}").append(got.maxrss_kib)
            getattr(pair, f"rc_{side}").append(got.rc)
    return pair


def paired_calls(label: str, a: Callable[[], Any], b: Callable[[], Any], runs: int) -> Pair:
    """Time the calls ``a()`` and ``b()`` in turn ``runs`` times each, in this process."""
    pair = Pair(label, [], [])
    for _ in range(runs):
        for fn, times in ((a, pair.a), (b, pair.b)):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return pair


def report(lines: list[str], out: str | None) -> int:
    """Print ``lines`` and a last line with the time and load average (one text), and write it to
    the file ``out`` too when given; return 0 (a script's exit status)."""
    import datetime
    from pathlib import Path

    text = "\n".join([*lines, f"\nend: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M UTC}, load average {os.getloadavg()[0]:.2f}"])
    print(text)
    if out:
        Path(out).write_text(text + "\n", encoding="utf-8")
    return 0
