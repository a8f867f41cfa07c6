#!/usr/bin/env python3
"""Benchmark ``cardlab serve`` (issue 14): search API throughput and latency at 1, 10 and 50 clients,
closed-loop and paced (open-loop), deck validation per second, page weight; each figure beside a
floor or peer measured in the same run.

    python benchmarks/bench_web.py                                   # the shipped catalog, 1 worker
    python benchmarks/bench_web.py --workers 1,2 --rate 200          # 1 then 2 workers; + 50 clients paced at 200/s
    python benchmarks/bench_web.py --synthetic 2000                  # + a 2,000-card fictional catalog
    python benchmarks/bench_web.py --requests 3000 --duration 30 --json out.json
    python benchmarks/bench_web.py --datasette --scale /work/scale/c30000,/work/scale/c100000  # vs Datasette only

uvicorn runs the app (``cardlab.web.app:create_app``) in its own process on 127.0.0.1, one worker as
``cardlab serve`` does (``--workers 1,2``: one server per count, one after the other). The load
generator is this process: asyncio, one keep-alive HTTP/1.1 connection per client, to 127.0.0.1
only. Each level sends a fixed number of requests (``--requests``) and stops early at ``--duration``
seconds, whichever comes first; every answer must be 200 (errors are counted and printed).

Two ways to load:
- closed-loop (every level of ``--clients``): each client sends its next request as soon as the
  previous answer arrives; latency from writing the request to reading the whole answer. The server
  sets the pace, so throughput and latency are tied (Little's law: clients = rate x mean latency).
- paced, open-loop (``--rate R``, at ``--paced-clients`` connections, default 50): request i is due
  at ``start + i / R`` whatever the server does; a free connection takes the next request and waits
  until it is due. Latency runs from the request's *scheduled* time, not from when it could be
  sent, so a server that falls behind shows it in the latency (no coordinated omission: the queue
  the server causes is counted, as a user would feel it). ``late`` counts requests sent more than
  10 ms after they were due (every connection was busy: the server, or the generator, fell behind).

Peers and floors, in the same run:
- search: the same searches in-process, one after the other: ``engine.search_page`` with the page's
  limit alone, and the endpoint's whole work without HTTP (plus each hit's data decoded from the
  index and the answer's JSON text);
- HTTP floor: ``GET /static/style.css`` at the same concurrency (the cheapest answer the server gives);
- deck validation: the same check in-process (``parse_deck_text`` + ``choose_format``, card index cached).

Against Datasette (``--datasette``, issue 29; ``pip install -e .[bench]``): for the shipped catalog and
each ``--scale`` catalog (indexed once into ``--index-dir``, or this run's temporary directory),
cardlab's server and Datasette (``datasette serve -i``, the same SQLite index file, immutable, its
default settings) run side by side; both get the same one-word full-text searches from the same
load generator: cardlab ``/api/cards/search?q=WORD`` (a page of 50, its total, each card's data),
Datasette a SQL query over the same full-text index (:data:`DATASETTE_SQL`: the first 51 matches
in catalog order, the card's columns but not its compressed data). At each level of ``--clients``
the two are run in turn ``--pairs`` times (cardlab, Datasette, cardlab, ...), so the machine's
load falls on both; the ratio is of the pairs' medians. Nothing else runs in this mode.

The machine has 2 cores shared by the server and the load generator; the numbers describe the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
HOST = "127.0.0.1"
"""The only address the load generator talks to."""

QUERIES = [
    "type:fire hp>=80",
    "hp>=100",
    "type:water retreat<=1",
    "supertype:trainer",
    "rarity:rare",
    "supertype:pokemon -type:fire retreat<=1",
    "stage:basic hp<=50",
    "damage>=50",
    "weakness:water",
    "cost<=2",
]
"""Search queries cycled through (field queries: they match in the shipped and the synthetic catalog)."""

ZAP = REPO / "examples" / "decks" / "zap-theme-deck.txt"

WORDS = ["damage", "energy", "attack", "fire", "water", "coin", "heads", "basic", "flip", "trainer"]
"""One-word full-text searches of the Datasette comparison (they match in the shipped and the synthetic catalogs)."""

DATASETTE_SQL = (
    "select c.id, c.name, c.set_code, c.number, c.type_line, c.stats, c.rarity from card_fts f"
    " join card c on c.rowid = f.rowid where card_fts match :q order by c.pos limit 51"
)
"""Datasette's side of a one-word search: the matches of the same full-text index, in catalog order, a page of 50 (+1)."""


# --- load generator ---------------------------------------------------------------------------


async def _request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, raw: bytes) -> tuple[int, int]:
    """Send one HTTP/1.1 request on a keep-alive connection; return ``(status, body bytes)``."""
    writer.write(raw)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = next((int(line.split(":", 1)[1]) for line in lines[1:] if line.lower().startswith("content-length:")), None)
    if length is not None:
        return status, len(await reader.readexactly(length))
    size = 0  # Transfer-Encoding: chunked (Datasette's JSON)
    while True:
        chunk = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        size += len(await reader.readexactly(chunk + 2)) - 2  # the chunk and its CRLF (the last: no trailers)
        if chunk == 0:
            return status, size


def _get(path: str, port: int) -> bytes:
    """Return the bytes of a keep-alive ``GET path`` to 127.0.0.1:``port``."""
    return f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: keep-alive\r\n\r\n".encode()


def _post(path: str, port: int, body: bytes, ctype: str = "text/plain; charset=utf-8") -> bytes:
    """Return the bytes of a keep-alive ``POST path`` with ``body`` to 127.0.0.1:``port``."""
    return (
        f"POST {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: keep-alive\r\nContent-Type: {ctype}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body


LATE = 0.010
"""A paced request sent more than this many seconds after it was due counts as ``late``."""


async def load(port: int, requests: list[bytes], clients: int, count: int, duration: float, rate: float | None = None) -> dict:
    """Send ``count`` requests (cycling through ``requests``) over ``clients`` keep-alive connections to
    127.0.0.1:``port``, stopping early after ``duration`` seconds.

    Args:
        rate: None for closed-loop (each connection sends as soon as its previous answer is read;
            latency from sending); requests per second for paced open-loop (request i is due at
            ``start + i / rate``; latency from that due time, so queueing is counted).

    Returns:
        ``{"mode", "clients", "rate", "scheduled", "sent", "ok", "errors", "late", "seconds", "per_s",
        "p50_ms", "p99_ms", "max_ms"}`` (``late``: paced requests sent over 10 ms after they were due;
        ``scheduled``: requests a paced level scheduled, ``sent`` falls short of it only past the bound).
    """
    next_i = 0
    latencies: list[float] = []
    errors = late = 0
    if rate is not None:
        count = min(count, int(rate * duration))
    start = time.perf_counter()
    # closed-loop stops at ``duration``; a paced level sends every request it scheduled (stopping
    # at the schedule's end would drop the slowest, most delayed ones), within a bound
    stop_at = start + (duration if rate is None else 2 * duration + 10)

    async def client() -> None:
        """One connection: send requests until the count is reached or the time is up."""
        nonlocal next_i, errors, late
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            while next_i < count and time.perf_counter() < stop_at:
                i = next_i
                raw = requests[i % len(requests)]
                next_i += 1
                if rate is None:
                    t0 = time.perf_counter()
                else:
                    t0 = start + i / rate  # the scheduled time: latency counts any wait for a free connection
                    wait = t0 - time.perf_counter()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    elif -wait > LATE:
                        late += 1
                status, _size = await _request(reader, writer, raw)
                latencies.append(time.perf_counter() - t0)
                if status != 200:
                    errors += 1
        finally:
            writer.close()

    await asyncio.gather(*(client() for _ in range(clients)))
    seconds = time.perf_counter() - start
    lat = sorted(latencies)

    def pct(p: float) -> float:
        """The ``p`` quantile of the latencies, in ms."""
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    return {
        "mode": "closed" if rate is None else "paced",
        "clients": clients,
        "rate": rate,
        "scheduled": count if rate is not None else None,
        "sent": len(lat),
        "ok": len(lat) - errors,
        "errors": errors,
        "late": late,
        "seconds": round(seconds, 2),
        "per_s": round(len(lat) / seconds, 1),
        "p50_ms": round(pct(0.50), 1),
        "p99_ms": round(pct(0.99), 1),
        "max_ms": round(lat[-1] * 1000, 1) if lat else None,
    }


# --- in-process peers -------------------------------------------------------------------------


def inprocess_search(roots: list[Path], db: Path, n: int) -> dict:
    """Run ``n`` searches in this process, one at a time, twice: ``search_page`` alone (one page of 50),
    then the endpoint's whole work without HTTP (``search_page``, each hit's ``to_json`` (its data
    decoded from the index), the JSON text of the answer).

    Returns:
        ``{"runs", "per_s", "p50_ms", "full_per_s", "full_p50_ms"}``.
    """
    from cardlab.index.sqlite import connect
    from cardlab.search import engine

    con = connect(db)
    times, full = [], []
    for i in range(n):
        q = QUERIES[i % len(QUERIES)]
        t0 = time.perf_counter()
        engine.search_page(con, q, limit=50, offset=0, timeout=2.0)
        times.append(time.perf_counter() - t0)
    for i in range(n):
        q = QUERIES[i % len(QUERIES)]
        t0 = time.perf_counter()
        total, hits = engine.search_page(con, q, limit=50, offset=0, timeout=2.0)
        body = {
            "object": "list",
            "total_cards": total,
            "data": [{"object": "card", **h.to_json(), "name": h.name, "names": h.names} for h in hits],
        }
        json.dumps(body, ensure_ascii=False).encode()
        full.append(time.perf_counter() - t0)
    return {
        "runs": n,
        "per_s": round(n / sum(times), 1),
        "p50_ms": round(statistics.median(times) * 1000, 2),
        "full_per_s": round(n / sum(full), 1),
        "full_p50_ms": round(statistics.median(full) * 1000, 2),
    }


def inprocess_decks(roots: list[Path], n: int) -> dict:
    """Check the Zap! deck ``n`` times in this process (``parse_deck_text`` + ``choose_format`` with a card-index
    cache, as the endpoint does)."""
    from cardlab.catalog.validate import validate
    from cardlab.decks.check import choose_format, header_words
    from cardlab.decks.read import parse_deck_text

    result = validate(roots)
    formats = dict(sorted(result.formats.items()))
    words = header_words(formats)
    text = ZAP.read_text(encoding="utf-8")
    indexes: dict = {}  # the card index is built once, as the server does
    t0 = time.perf_counter()
    for _ in range(n):
        choose_format(parse_deck_text(text, "deck.txt", words), result.catalog, formats, "pokemon-base", indexes=indexes)
    seconds = time.perf_counter() - t0
    return {"runs": n, "per_s": round(n / seconds, 1), "ms_each": round(seconds / n * 1000, 2)}


# --- the run ----------------------------------------------------------------------------------


def start_server(roots: list[Path], db: Path, cache: Path, port: int, workers: int = 1) -> subprocess.Popen:
    """Start uvicorn (``workers`` processes) on 127.0.0.1:``port`` in a child process and wait until it answers."""
    env = {**os.environ, "CARDLAB_CATALOG": os.pathsep.join(map(str, roots)), "CARDLAB_DB": str(db), "CARDLAB_CACHE_DIR": str(cache)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "cardlab.web.app:create_app",
            "--host",
            HOST,
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--no-access-log",
            "--workers",
            str(workers),
        ],
        env=env,
    )
    # a stale index is built at start: minutes for 100,000 cards on a loaded machine
    return _answering(proc, f"http://{HOST}:{port}/api/sets", "uvicorn", 900)


def start_datasette(db: Path, port: int) -> subprocess.Popen:
    """Start ``datasette serve -i db`` (immutable, default settings) on 127.0.0.1:``port`` and wait until it answers."""

    proc = subprocess.Popen(
        [sys.executable, "-m", "datasette", "serve", "-i", str(db), "--host", HOST, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return _answering(proc, f"http://{HOST}:{port}/-/versions.json", "datasette")


def _answering(proc: subprocess.Popen, url: str, what: str, seconds: float = 120) -> subprocess.Popen:
    """Wait until ``url`` answers 200 and return ``proc``; exit the benchmark if ``proc`` ends or
    ``seconds`` pass first (then ``proc`` is stopped)."""
    import urllib.request

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as resp:
                if resp.status == 200:
                    return proc
        except OSError:
            time.sleep(0.2)
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited with {proc.returncode}")
    proc.terminate()
    raise SystemExit(f"{what} did not start")


def _free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def versus_datasette(label: str, roots: list[Path], args: argparse.Namespace, work: Path) -> dict:
    """cardlab's search API and Datasette (and with ``--minimal`` the bare app of
    ``benchmarks/minimal_app.py``: the same library call and SQL without cardlab's web tier) on the
    same index file, the same words, paired at each level: the servers take turns, pair by pair.

    Returns:
        ``{"catalog", "cards", "load_before", "load_after", "bytes", "levels": [{"clients", "rate"?,
        "cardlab": [...], "datasette": [...], "minimal"?: [...]} ...]}``, each list one :func:`load`
        result per pair.
    """
    from contextlib import ExitStack

    from cardlab.index.sqlite import connect, ensure_index

    where = args.index_dir or work
    cache, db = where / f"cache-{label}", where / f"index-{label}.sqlite"
    cache.mkdir(parents=True, exist_ok=True)
    os.environ["CARDLAB_CACHE_DIR"] = str(cache)
    ensure_index(roots, db)
    out: dict = {"catalog": label, "load_before": os.getloadavg()[0], "levels": []}
    out["cards"] = connect(db).execute("SELECT COUNT(*) FROM card").fetchone()[0]
    with ExitStack() as stack:

        def started(proc: subprocess.Popen) -> None:
            def stop() -> None:
                proc.terminate()
                proc.wait(timeout=10)

            stack.callback(stop)

        sides: dict[str, tuple[int, list[bytes]]] = {}
        port = _free_port()
        started(start_server(roots, db, cache, port))
        sides["cardlab"] = (port, [_get("/api/cards/search?" + urlencode({"q": w}), port) for w in WORDS])
        if args.minimal:
            port = _free_port()
            started(start_minimal(db, port))
            sides["minimal"] = (port, [_get("/api/cards/search?" + urlencode({"q": w}), port) for w in WORDS])
        port = _free_port()
        started(start_datasette(db, port))
        sql = [_get(f"/{db.stem}.json?" + urlencode({"sql": DATASETTE_SQL, "q": w, "_shape": "objects"}), port) for w in WORDS]
        sides["datasette"] = (port, sql)
        for port, reqs in sides.values():
            asyncio.run(load(port, reqs, 4, 200, 30))  # warm-up: threads, connections, caches
        for c in args.clients:
            level: dict = {"clients": c, **{side: [] for side in sides}}
            for _ in range(args.pairs):
                for side, (port, reqs) in sides.items():
                    level[side].append(asyncio.run(load(port, reqs, c, args.requests, args.duration)))
            out["levels"].append(level)
        if args.rate:  # paced (open-loop) at args.rate over args.paced_clients connections, paired the same way
            level = {"clients": args.paced_clients, "rate": args.rate, **{side: [] for side in sides}}
            count = min(args.paced_requests, int(args.rate * args.paced_duration))
            for _ in range(args.pairs):
                for side, (port, reqs) in sides.items():
                    level[side].append(asyncio.run(load(port, reqs, args.paced_clients, count, args.paced_duration, args.rate)))
            out["levels"].append(level)
        out["bytes"] = {side: _body_size(port, WORDS[0], reqs) for side, (port, reqs) in sides.items()}
    out["load_after"] = os.getloadavg()[0]
    return out


def start_minimal(db: Path, port: int) -> subprocess.Popen:
    """Start the bare app of ``benchmarks/minimal_app.py`` over ``db`` on 127.0.0.1:``port`` (one
    uvicorn worker, as ``cardlab serve``) and wait until it answers."""

    env = {**os.environ, "CARDLAB_DB": str(db), "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "uvicorn", "--factory", "benchmarks.minimal_app:create_app", "--host", HOST, "--port", str(port)]
    proc = subprocess.Popen([*command, "--log-level", "warning", "--no-access-log"], env=env, cwd=REPO)
    return _answering(proc, f"http://{HOST}:{port}/api/cards/search?q=energy", "the minimal app")


def _body_size(port: int, _word: str, requests: list[bytes]) -> int:
    """Bytes of the body of the first request of ``requests`` (the answer's weight)."""
    import urllib.request

    path = requests[0].split(b" ")[1].decode()
    with urllib.request.urlopen(f"http://{HOST}:{port}{path}") as resp:
        return len(resp.read())


def report_datasette(results: list[dict]) -> None:
    """Print the Datasette comparison as a Markdown table (for BENCHMARKS.md): per catalog, level and
    server, the medians over the pairs of req/s, p50 and p99, and cardlab's throughput ratio to that
    server (the median of the pairs' ratios)."""
    print("\n| catalog | cards | clients | server | req/s | p50 ms | p99 ms | cardlab / it, req/s | errors (late) | load avg |")
    print("| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | --- | --- |")
    for r in results:
        for level in r["levels"]:
            ours = level["cardlab"]
            clients = f"{level['clients']} paced {level['rate']:g}/s" if level.get("rate") else str(level["clients"])
            for side in ("cardlab", "minimal", "datasette"):
                rows = level.get(side)
                if not rows:
                    continue

                def med(key: str, rows: list[dict] = rows) -> float:
                    """The median of ``key`` over the pairs."""
                    return round(statistics.median(row[key] for row in rows), 1)

                ratio = (
                    ""
                    if side == "cardlab"
                    else f"{statistics.median(a['per_s'] / b['per_s'] for a, b in zip(ours, rows, strict=True)):.2f}"
                )
                errors = str(sum(row["errors"] for row in rows))
                if level.get("rate"):
                    errors += f" ({sum(row['late'] for row in rows)} late)"
                print(
                    f"| {r['catalog']} | {r['cards']:,} | {clients} | {side} | {med('per_s')} | {med('p50_ms')} | {med('p99_ms')} |"
                    f" {ratio} | {errors} | {r['load_before']:.2f} → {r['load_after']:.2f} |"
                )
    for r in results:
        sizes = ", ".join(f"{side} {size:,}" for side, size in r["bytes"].items())
        print(f"\n{r['catalog']}: answer bytes for '{WORDS[0]}': {sizes}.")


def page_weight(port: int) -> dict:
    """Bytes of the search page (HTML + its one stylesheet; it loads nothing else)."""
    import urllib.request

    def size(path: str) -> int:
        """Bytes of the body at ``path``."""
        with urllib.request.urlopen(f"http://{HOST}:{port}{path}") as resp:
            return len(resp.read())

    css = size("/static/style.css")
    four = size("/search?" + urlencode({"q": "type:fire hp>=80"}))
    full = size("/search?" + urlencode({"q": "hp>=10"}))  # a full page of 50 results
    return {"css": css, "search_4_results_html": four, "search_50_results_html": full, "total_4": four + css, "total_50": full + css}


def run(label: str, roots: list[Path], args: argparse.Namespace, work: Path, workers: int = 1) -> dict:
    """Benchmark one catalog with ``workers`` uvicorn processes: start the server, warm up, load each
    level (closed-loop, then paced at ``args.rate`` when given), measure the peers."""
    from cardlab.index.sqlite import ensure_index

    cache, db = work / f"cache-{label}-{workers}", work / f"index-{label}-{workers}.sqlite"
    cache.mkdir()
    os.environ["CARDLAB_CACHE_DIR"] = str(cache)
    ensure_index(roots, db)
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        port = s.getsockname()[1]
    proc = start_server(roots, db, cache, port, workers)
    out: dict = {"catalog": label, "workers": workers, "roots": [str(r) for r in roots], "load_before": os.getloadavg()[0]}
    try:
        from cardlab.index.sqlite import connect

        out["cards"] = connect(db).execute("SELECT COUNT(*) FROM card").fetchone()[0]
        searches = [_get("/api/cards/search?" + urlencode({"q": q}), port) for q in QUERIES]
        css = [_get("/static/style.css", port)]
        zap = ZAP.read_bytes()
        decks = [_post("/api/decks/validate?format=pokemon-base", port, zap)]
        decks_all = [_post("/api/decks/validate", port, zap)]
        asyncio.run(load(port, searches + decks + css, 4, 200, 30))  # warm-up: threads, connections, caches
        out["search"] = [asyncio.run(load(port, searches, c, args.requests, args.duration)) for c in args.clients]
        out["http_floor"] = [asyncio.run(load(port, css, c, args.requests, args.duration)) for c in args.clients]
        out["decks"] = [asyncio.run(load(port, decks, c, args.deck_requests, args.duration)) for c in args.clients]
        out["decks_every_format"] = [asyncio.run(load(port, decks_all, 10, args.deck_requests, args.duration))]
        if args.rate:
            pc, rate = args.paced_clients, args.rate
            paced = args.paced_requests
            out["search_paced"] = [asyncio.run(load(port, searches, pc, paced, args.paced_duration, rate))]
            out["http_floor_paced"] = [asyncio.run(load(port, css, pc, paced, args.paced_duration, rate))]
            out["decks_paced"] = [asyncio.run(load(port, decks, pc, paced, args.paced_duration, args.deck_rate))]
        out["page_weight"] = page_weight(port)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    out["search_inprocess"] = inprocess_search(roots, db, 2000)
    out["decks_inprocess"] = inprocess_decks(roots, 300)
    out["load_after"] = os.getloadavg()[0]
    return out


def report(results: list[dict]) -> None:
    """Print the results as Markdown tables (for BENCHMARKS.md)."""
    for r in results:
        print(
            f"\n### {r['catalog']} ({r['cards']} cards), {r['workers']} worker(s); "
            f"load average {r['load_before']:.2f} before, {r['load_after']:.2f} after\n"
        )
        print("| load | mode | clients | requests | per s | p50 ms | p99 ms | max ms | errors | late |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for key, name in (
            ("search", "search API"),
            ("http_floor", "floor: GET /static/style.css"),
            ("decks", "POST /api/decks/validate?format=pokemon-base"),
            ("decks_every_format", "POST /api/decks/validate (every format)"),
            ("search_paced", "search API"),
            ("http_floor_paced", "floor: GET /static/style.css"),
            ("decks_paced", "POST /api/decks/validate?format=pokemon-base"),
        ):
            for row in r.get(key, []):
                mode = "closed-loop" if row["mode"] == "closed" else f"paced {row['rate']:g}/s"
                print(
                    f"| {name} | {mode} | {row['clients']} | {row['sent']} | {row['per_s']} | {row['p50_ms']} | {row['p99_ms']} |"
                    f" {row['max_ms']} | {row['errors']} | {row['late']} |"
                )
        s, d, w = r["search_inprocess"], r["decks_inprocess"], r["page_weight"]
        print(
            f"\nIn-process peers: search {s['per_s']}/s (median {s['p50_ms']} ms, {s['runs']} runs); with the hits' data"
            f" and the JSON text, as the endpoint, {s['full_per_s']}/s (median {s['full_p50_ms']} ms); "
            f"deck check {d['per_s']}/s ({d['ms_each']} ms each, {d['runs']} runs)."
        )
        print(
            f"Page weight: search page with 4 results {w['total_4']:,} bytes (HTML {w['search_4_results_html']:,} + CSS {w['css']:,}); "
            f"with 50 results {w['total_50']:,} bytes."
        )


def _commit() -> str:
    """The checkout's short commit (with ``+dirty`` when files differ from it), for the report."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty.strip() else "")


def main() -> None:
    """Parse the options, run each catalog, print the tables (and write ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--requests", type=int, default=2000, help="requests per search level (default 2000)")
    ap.add_argument("--deck-requests", type=int, default=1000, help="requests per deck level (default 1000)")
    ap.add_argument("--duration", type=float, default=20.0, help="most seconds per level (default 20)")
    ap.add_argument("--clients", default="1,10,50", help="concurrency levels (default 1,10,50)")
    ap.add_argument("--workers", default="1", help="uvicorn worker processes, one run per count: 1,2 (default 1, as cardlab serve)")
    ap.add_argument("--rate", type=float, default=0, help="also paced (open-loop) levels at this many requests/s (0: none)")
    ap.add_argument("--deck-rate", type=float, default=100, help="rate of the paced deck-validation level (default 100/s)")
    ap.add_argument("--paced-clients", type=int, default=50, help="connections of the paced levels (default 50)")
    ap.add_argument("--paced-requests", type=int, default=4000, help="most requests per paced level (default 4000)")
    ap.add_argument("--paced-duration", type=float, default=20.0, help="seconds of schedule per paced level (default 20)")
    ap.add_argument("--synthetic", type=int, default=0, help="also a fictional catalog of this many cards beside the shipped one")
    ap.add_argument("--json", type=Path, help="also write the raw numbers here")
    ap.add_argument("--datasette", action="store_true", help="only cardlab's search API against Datasette, paired")
    ap.add_argument("--scale", default="", help="with --datasette: more catalog directories, comma-separated (e.g. /work/scale/c30000)")
    ap.add_argument("--minimal", action="store_true", help="with --datasette: also the bare app of benchmarks/minimal_app.py, paired")
    ap.add_argument("--no-shipped", action="store_true", help="with --datasette: only the --scale catalogs")
    ap.add_argument("--pairs", type=int, default=2, help="with --datasette: runs of each server per level, interleaved (default 2)")
    ap.add_argument("--index-dir", type=Path, help="with --datasette: keep the indexes here (reused when fresh)")
    args = ap.parse_args()
    args.clients = [int(x) for x in args.clients.split(",")]
    args.workers = [int(x) for x in args.workers.split(",")]
    if max(args.clients + [args.paced_clients]) > 200 or max(args.requests, args.paced_requests) > 100_000:
        raise SystemExit("bounded: at most 200 clients and 100,000 requests a level")
    if args.rate > 2000 or args.deck_rate > 2000 or args.paced_duration > 120 or max(args.workers) > 8:
        raise SystemExit("bounded: at most 2,000 requests/s, 120 s a paced level and 8 workers")
    from cardlab.core.paths import shipped_catalog

    print(
        f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {platform.python_version()}; {os.cpu_count()} CPUs; "
        f"load average {os.getloadavg()[0]:.2f}; commit {_commit()}",
        flush=True,
    )
    if args.pairs > 10:
        raise SystemExit("bounded: at most 10 pairs")
    results = []
    if args.datasette:
        with tempfile.TemporaryDirectory(prefix="cardlab-bench-web-") as tmp:
            catalogs = [("shipped", [shipped_catalog()])] * (not args.no_shipped) + [
                (Path(d).name, [Path(d)]) for d in args.scale.split(",") if d
            ]
            for label, roots in catalogs:
                results.append(versus_datasette(label, roots, args, Path(tmp)))
                report_datasette(results[-1:])  # as each catalog ends: a long run shows its figures early
                print(f"# {label}: done, load average {os.getloadavg()[0]:.2f}", flush=True)
        report_datasette(results)
        print(f"\n# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average after: {os.getloadavg()[0]:.2f}")
        if args.json:
            args.json.write_text(json.dumps(results, indent=2))
        return
    with tempfile.TemporaryDirectory(prefix="cardlab-bench-web-") as tmp:
        work = Path(tmp)
        for workers in args.workers:
            results.append(run("shipped", [shipped_catalog()], args, work, workers))
        if args.synthetic:
            synth = REPO / "benchmarks" / "out" / f"catalog{args.synthetic}"
            if not synth.exists():
                subprocess.run(
                    [
                        sys.executable,
                        str(REPO / "benchmarks" / "gen_catalog.py"),
                        str(synth),
                        "--cards",
                        str(args.synthetic),
                        "--seed",
                        "1",
                    ],
                    check=True,
                )
            for workers in args.workers:
                results.append(run(f"shipped + synthetic {args.synthetic}", [shipped_catalog(), synth], args, work, workers))
    report(results)
    print(f"\n# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average after: {os.getloadavg()[0]:.2f}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
