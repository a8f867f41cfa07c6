#!/usr/bin/env python3
"""PostgreSQL index benchmark (issue 15): SQLite and PostgreSQL side by side in one run.

    python benchmarks/bench_pg.py [--catalog benchmarks/out/catalog30k] [--runs 200] [--cold-runs 20] [--url URL]

Setup: the synthetic 30,000-card catalog of ``benchmarks/gen_catalog.py`` (made first when missing),
and a throwaway PostgreSQL server (initdb in a temporary folder, Unix socket only, fsync off, as the
tests do: ``tests/conftest.py``), unless ``--url`` names one. Timed:

- index build: ``build_index`` (SQLite file) and ``postgres.build`` (which validates, builds the same
  SQLite index in a temporary file, then copies it to the server with its full-text columns and
  indexes, and swaps it in): one run each, in-process, validation cache warm for both.
- web API throughput: ``uvicorn`` with 2 workers (``cardlab serve --workers 2``) on each index in
  turn, 50 keep-alive clients sending the five shapes to ``/api/cards/search`` (the load generator
  of ``benchmarks/bench_web.py``), ``--web-requests`` per backend or ``--web-duration`` seconds.
  With ``--split`` (a server this script starts), once more with the web tier (both uvicorn workers
  and the load generator) on CPU 0 and the PostgreSQL server on CPU 1, as a database on its own
  host: SQLite, inside the workers, has CPU 0 only (one web host either way).
- search latency of five query shapes, ``search_page(con, q, limit=50)`` (what the web page and the
  API run): *warm*, the same open connection, A and B alternated run by run (p50, p95); *cold*, a new
  connection (SQLite: open the file; PostgreSQL: a new session over the socket) and its first search.

Your own cache and index are not touched (temporary folders).
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.paired import paired_calls  # noqa: E402

SHAPES = {
    "bare word (name prefix + text)": "{word}",
    "facets: type:fire hp>=80": "type:fire hp>=80",
    "phrase in rules text": '"{phrase}"',
    "OR, negation, parentheses": "(type:water or type:grass) -stage:basic hp<=90",
    "Japanese fragment (trigram)": "{kana}",
}
"""The five query shapes; ``{word}``, ``{phrase}`` and ``{kana}`` are filled from the catalog."""


def start_server(tmp: str) -> tuple[str, list[str], str]:
    """initdb + start a PostgreSQL server in ``tmp`` (socket only); return (URL, stop command, data dir)."""
    pgbin = next((f for f in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True) if os.path.exists(f"{f}/initdb")), None)
    if pgbin is None:
        sys.exit("no PostgreSQL binaries (/usr/lib/postgresql/*/bin); give --url")
    as_pg = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if os.geteuid() == 0:
        shutil.chown(tmp, "postgres", "postgres")
    data = f"{tmp}/data"
    subprocess.run([*as_pg, f"{pgbin}/initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"],
                   check=True, capture_output=True, cwd="/")  # fmt: skip
    opts = f"-c listen_addresses='' -k {tmp} -c fsync=off -c synchronous_commit=off"
    subprocess.run(
        [*as_pg, f"{pgbin}/pg_ctl", "-D", data, "-l", f"{tmp}/log", "-w", "-o", opts, "start"], check=True, capture_output=True, cwd="/"
    )
    import psycopg

    with psycopg.connect(host=tmp, user="postgres", dbname="postgres", autocommit=True) as admin:
        admin.execute("CREATE DATABASE bench")
    return f"postgresql+psycopg://postgres@/bench?host={tmp}", [*as_pg, f"{pgbin}/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"], data


def fill(con) -> dict[str, str]:  # noqa: ANN001
    """Words of the catalog for the query shapes: a name's first word's first 4 letters, two words of
    rules text side by side, two kana of a Japanese name."""
    from cardlab.index.sqlite import _texts, data_decoder

    name = con.execute("SELECT folded FROM card_name WHERE lang = 'en' ORDER BY rowid LIMIT 1 OFFSET 500").fetchone()[0]
    kana = con.execute("SELECT name FROM card_name WHERE lang = 'ja' ORDER BY rowid LIMIT 1 OFFSET 500").fetchone()
    decode = data_decoder(con)
    words: list[str] = []
    for (data,) in con.execute("SELECT data FROM card WHERE rowid >= 700 ORDER BY rowid"):  # the first card with rules text
        words = [w.strip(".,;:()") for w in _texts(decode(data))[1].split("\n")[0].split()]
        if len(words) >= 3 and all(words[1:3]):
            break
    return {"word": name.split()[0][:4], "phrase": " ".join(words[1:3]), "kana": kana[0][1:3] if kana else "カ"}


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--catalog", type=Path, default=REPO / "benchmarks" / "out" / "catalog30k")
    ap.add_argument("--runs", type=int, default=200, help="warm searches per shape and backend")
    ap.add_argument("--cold-runs", type=int, default=20, help="new connections per shape and backend")
    ap.add_argument("--web-requests", type=int, default=3000, help="API requests per backend (0: no web run)")
    ap.add_argument("--web-duration", type=float, default=30.0, help="seconds at most per backend's web run")
    ap.add_argument("--url", help="a PostgreSQL database to use (its cardlab_index schema is replaced)")
    ap.add_argument("--split", action="store_true", help="also run the web test with the database server on a CPU of its own")
    args = ap.parse_args()
    if not args.catalog.exists():
        subprocess.run(
            [sys.executable, str(REPO / "benchmarks" / "gen_catalog.py"), str(args.catalog), "--cards", "30000", "--seed", "1"], check=True
        )
    roots = [args.catalog.resolve()]
    with tempfile.TemporaryDirectory(prefix="cardlab-bench-pg-") as tmp:
        os.environ["CARDLAB_CACHE_DIR"] = f"{tmp}/cache"
        stop: list[str] = []
        url = args.url
        server = None
        data = None
        if url is None:
            server = tempfile.mkdtemp(prefix="cardlab-bench-pg-server.")  # its own folder: the postgres user must enter it
            url, stop, data = start_server(server)
        elif args.split:
            sys.exit("--split needs the server this script starts (no --url)")
        try:
            return run(roots, url, Path(tmp), args, data)
        finally:
            if stop:
                subprocess.run(stop, check=False, capture_output=True, cwd="/")
            if server:
                shutil.rmtree(server, ignore_errors=True)


def postgres_pids(data: str) -> list[int]:
    """The postmaster of the server in ``data`` and every process it started (the backends)."""
    with open(f"{data}/postmaster.pid") as fh:
        root = int(fh.readline())
    pids = [root]
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat) as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == root:
            pids.append(int(stat.split("/")[2]))
    return pids


def pin(pids: list[int], cpus: set[int]) -> None:
    """Give ``pids`` (0: this process; children started later inherit it) the CPUs ``cpus``."""
    for pid in pids:
        try:
            os.sched_setaffinity(pid, cpus)
        except OSError:
            pass


def run(roots: list[Path], url: str, tmp: Path, args: argparse.Namespace, data: str | None = None) -> int:
    from cardlab.catalog.validate import validate
    from cardlab.index import postgres, sqlite
    from cardlab.search import engine

    t = time.perf_counter()
    validate(roots)  # warms the validation cache for both builds alike
    print(f"setup: catalog validated in {time.perf_counter() - t:.1f} s (cache warmed)")
    db = tmp / "index.sqlite"
    t = time.perf_counter()
    report = sqlite.build_index(roots, db)
    sqlite_build = time.perf_counter() - t
    t = time.perf_counter()
    pg_report = postgres.build(roots, url, force=True)
    pg_build = time.perf_counter() - t
    assert pg_report is not None and pg_report.cards == report.cards
    print(f"index build, {report.cards:,} cards: SQLite {sqlite_build:.1f} s, PostgreSQL {pg_build:.1f} s ({pg_build / sqlite_build:.2f}x)")

    lite = sqlite.connect(db)
    pg = postgres.connect(url)
    words = fill(lite)
    queries = {label: shape.format(**words) for label, shape in SHAPES.items()}
    print(f"\n{'query':44s} {'hits':>6s} | warm p50 SQLite  PG  ratio | warm p95 SQLite  PG | cold p50 SQLite  PG  ratio")
    ratios = []
    for label, q in queries.items():
        total_a, hits_a = engine.search_page(lite, q, limit=50)
        total_b, hits_b = engine.search_page(pg, q, limit=50)
        assert (total_a, [h.id for h in hits_a]) == (total_b, [h.id for h in hits_b]), q
        warm = paired_calls(
            q, lambda q=q: engine.search_page(lite, q, limit=50), lambda q=q: engine.search_page(pg, q, limit=50), args.runs
        )

        def cold_sqlite(q: str = q) -> None:
            con = sqlite.connect(db)
            engine.search_page(con, q, limit=50)
            con.close()

        def cold_pg(q: str = q) -> None:
            con = postgres.connect(url)
            engine.search_page(con, q, limit=50)
            con.close()

        cold = paired_calls(q, cold_sqlite, cold_pg, args.cold_runs)
        wa, wb = statistics.median(warm.a) * 1000, statistics.median(warm.b) * 1000
        ca, cb = statistics.median(cold.a) * 1000, statistics.median(cold.b) * 1000
        ratios.append(wb / wa)
        print(
            f"{label + ': ' + q:44.44s} {total_a:6d} | {wa:8.2f} ms {wb:6.2f} ms {wb / wa:5.2f} | {pct(warm.a, 0.95) * 1000:8.2f} ms"
            f" {pct(warm.b, 0.95) * 1000:6.2f} ms | {ca:8.2f} ms {cb:6.2f} ms {cb / ca:5.2f}"
        )
    print(f"\nwarm p50 ratio PostgreSQL/SQLite, median of the five shapes: {statistics.median(ratios):.2f} (goal <= 2)")
    if args.web_requests:
        web(roots, {"SQLite": str(db), "PostgreSQL": url}, list(queries.values()), tmp, args)
        if args.split and data is not None and len(os.sched_getaffinity(0)) >= 2:
            every = os.sched_getaffinity(0)
            print("\nthe same, web tier (workers and clients) on CPU 0, the PostgreSQL server on CPU 1 (a database host of its own):")
            pin([0], {0})
            pin(postgres_pids(data), {1})
            try:
                web(roots, {"SQLite": str(db), "PostgreSQL": url}, list(queries.values()), tmp, args)
            finally:
                pin([0], every)
                pin(postgres_pids(data), every)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    lite.close()
    pg.close()
    return 0


def web(roots: list[Path], indexes: dict[str, str], queries: list[str], tmp: Path, args: argparse.Namespace) -> None:
    """The search API under 50 clients, uvicorn with 2 workers, on each index in turn."""
    import asyncio
    import socket
    from urllib.parse import urlencode

    from benchmarks.bench_web import _get, load, start_server

    print(f"\nweb API, 2 uvicorn workers, 50 clients, {args.web_requests} requests or {args.web_duration:g} s (the five shapes in turn):")
    for label, where in indexes.items():
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        proc = start_server(roots, where, tmp / "cache", port, workers=2)  # type: ignore[arg-type]
        try:
            requests = [_get("/api/cards/search?" + urlencode({"q": q}), port) for q in queries]
            asyncio.run(load(port, requests, 50, 200, 10))  # warm-up: both workers' connections and caches
            row = asyncio.run(load(port, requests, 50, args.web_requests, args.web_duration))
        finally:
            proc.terminate()
            proc.wait(30)
        print(
            f"  {label:10s} {row['per_s']:7.1f} requests/s  p50 {row['p50_ms']:7.1f} ms  p99 {row['p99_ms']:7.1f} ms"
            f"  ({row['sent']} sent, {row['errors']} errors)"
        )


if __name__ == "__main__":
    raise SystemExit(main())
