#!/usr/bin/env python3
"""Benchmark the search API's HTTP caching (issue 31, item 4): the same searches at 50 clients
without ``If-None-Match`` (each runs the query: 200) and with the ETag each answered before (304,
no query run), paired in the same run with the HTTP floor (``/static/style.css``, 200 and 304);
and the bytes of a 50-card answer plain and gzipped.

    python benchmarks/bench_web_cache.py                                  # the shipped catalog
    python benchmarks/bench_web_cache.py --catalog /work/scale/c30000 --requests 3000 --rounds 2
    python benchmarks/bench_web_cache.py --peer /tmp/base               # + an older checkout's server, paired

uvicorn runs the app in its own process on 127.0.0.1 as ``cardlab serve`` does (one worker, 4
threads; loopback clients are not rate limited), started by :func:`bench_web.start_server`; the load
generator is this process (asyncio, one keep-alive connection per client). Each level sends
``--requests`` requests or stops at ``--duration`` seconds; every answer must have the expected
status (others are counted as errors). The levels alternate, ``--rounds`` times, so the pairs share
the machine's state. The machine has 2 cores shared by the server and the generator. Pointed at a
cardlab without ETags (``PYTHONPATH`` of an older checkout), only the 200 levels run: the cost of the
caching and gzip layers on a search that misses.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web import HOST, QUERIES, start_server  # noqa: E402 - the sibling benchmark's server and queries


def _get(path: str, port: int, etag: str | None = None) -> bytes:
    """The bytes of a keep-alive ``GET path`` (with ``If-None-Match: etag`` when given)."""
    cond = f"If-None-Match: {etag}\r\n" if etag else ""
    return f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: keep-alive\r\n{cond}\r\n".encode()


async def _request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, raw: bytes) -> int:
    """Send one request; read the answer (a 304 has no body); return its status."""
    writer.write(raw)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = next((int(line.split(":", 1)[1]) for line in lines[1:] if line.lower().startswith("content-length:")), 0)
    await reader.readexactly(length)
    return status


async def load(port: int, requests: list[bytes], expect: int, clients: int, count: int, duration: float) -> dict:
    """Closed-loop: ``clients`` connections send ``count`` requests (cycling) or stop at ``duration`` s.

    Returns:
        ``{"clients", "sent", "errors" (status other than ``expect``), "seconds", "per_s", "p50_ms", "p99_ms"}``.
    """
    next_i, errors, latencies = 0, 0, []
    start = time.perf_counter()

    async def client() -> None:
        nonlocal next_i, errors
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            while next_i < count and time.perf_counter() < start + duration:
                raw = requests[next_i % len(requests)]
                next_i += 1
                t0 = time.perf_counter()
                status = await _request(reader, writer, raw)
                latencies.append(time.perf_counter() - t0)
                errors += status != expect
        finally:
            writer.close()

    await asyncio.gather(*(client() for _ in range(clients)))
    seconds = time.perf_counter() - start
    lat = sorted(latencies)
    return {
        "clients": clients,
        "sent": len(lat),
        "errors": errors,
        "seconds": round(seconds, 2),
        "per_s": round(len(lat) / seconds, 1),
        "p50_ms": round(lat[len(lat) // 2] * 1000, 1),
        "p99_ms": round(lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000, 1),
    }


def etag_of(port: int, path: str) -> str | None:
    """The ETag of a 200 answer at ``path`` (None from a cardlab without ETags: the 304 levels are skipped)."""
    with urllib.request.urlopen(f"http://{HOST}:{port}{path}") as resp:
        return resp.headers["ETag"]


def body_bytes(port: int, path: str) -> dict:
    """Bytes of the answer at ``path`` plain and with ``Accept-Encoding: gzip``."""
    sizes = {}
    for enc in ("identity", "gzip"):
        req = urllib.request.Request(f"http://{HOST}:{port}{path}", headers={"Accept-Encoding": enc})
        with urllib.request.urlopen(req) as resp:
            raw = resp.read()
            sizes[enc] = len(raw)
            if enc == "gzip":
                assert resp.headers["Content-Encoding"] == "gzip" and json.loads(gzip.decompress(raw))
    return sizes


def start_peer(checkout: Path, roots: list[Path], db: Path, cache: Path, port: int) -> subprocess.Popen:
    """Start the app of another checkout (its own ``cardlab``: run from its folder, on its path) on ``port``."""
    env = {
        **os.environ,
        "PYTHONPATH": str(checkout),
        "CARDLAB_CATALOG": os.pathsep.join(map(str, roots)),
        "CARDLAB_DB": str(db),
        "CARDLAB_CACHE_DIR": str(cache),
    }
    cmd = [sys.executable, "-m", "uvicorn", "--factory", "cardlab.web.app:create_app", "--host", HOST, "--port", str(port)]
    proc = subprocess.Popen([*cmd, "--log-level", "warning", "--no-access-log"], env=env, cwd=checkout)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/sets", timeout=2):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("the peer's uvicorn did not start")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--catalog", type=Path, default=None, help="catalog root (default: the shipped cards)")
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--requests", type=int, default=2000, help="requests per level (default 2000)")
    ap.add_argument("--duration", type=float, default=15.0, help="seconds per level at most (default 15)")
    ap.add_argument("--rounds", type=int, default=2, help="times the levels alternate (default 2)")
    ap.add_argument(
        "--peer",
        type=Path,
        default=None,
        help="a checkout of an older cardlab (git worktree add DIR COMMIT): its server runs beside this one on the same"
        " index and its 200 levels alternate with ours, the cost of the caching and gzip layers paired in time",
    )
    ap.add_argument("--json", type=Path, default=None, help="write the figures here too")
    args = ap.parse_args()

    from cardlab.core.paths import shipped_catalog
    from cardlab.index.sqlite import ensure_index

    roots = [args.catalog or shipped_catalog()]
    with tempfile.TemporaryDirectory(prefix="bench-web-cache-") as tmp:
        work = Path(tmp)
        cache, db = work / "cache", work / "index.sqlite"
        cache.mkdir()
        os.environ["CARDLAB_CACHE_DIR"] = str(cache)
        ensure_index(roots, db)
        with socket.socket() as s:
            s.bind((HOST, 0))
            port = s.getsockname()[1]
        proc: subprocess.Popen = start_server(roots, db, cache, port)
        peer_port, peer = None, None
        if args.peer is not None:
            with socket.socket() as s:
                s.bind((HOST, 0))
                peer_port = s.getsockname()[1]
            peer = start_peer(args.peer, roots, db, cache, peer_port)
        out: dict = {
            "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} CPUs, Python {platform.python_version()}",
            "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
            "catalog": str(roots[0]),
            "load_before": os.getloadavg()[0],
            "rounds": [],
        }
        try:
            paths = ["/api/cards/search?" + urlencode({"q": q}) for q in QUERIES]
            tags = [etag_of(port, p) for p in paths]
            plain = [_get(p, port) for p in paths]
            cond = [_get(p, port, t) for p, t in zip(paths, tags, strict=True)]
            css = "/static/style.css"
            css_plain, css_cond = [_get(css, port)], [_get(css, port, etag_of(port, css))]
            asyncio.run(load(port, plain + css_plain, 200, 4, 200, 30))  # warm-up
            etags = None not in tags
            for _ in range(args.rounds):
                level = {
                    "search_200": asyncio.run(load(port, plain, 200, args.clients, args.requests, args.duration)),
                    "static_200": asyncio.run(load(port, css_plain, 200, args.clients, args.requests, args.duration)),
                }
                if peer_port is not None:
                    peer_plain = [_get(p, peer_port) for p in paths]
                    level["peer_search_200"] = asyncio.run(load(peer_port, peer_plain, 200, args.clients, args.requests, args.duration))
                    level["peer_static_200"] = asyncio.run(
                        load(peer_port, [_get(css, peer_port)], 200, args.clients, args.requests, args.duration)
                    )
                    level["search_200_over_peer"] = round(level["search_200"]["per_s"] / level["peer_search_200"]["per_s"], 2)
                    level["static_200_over_peer"] = round(level["static_200"]["per_s"] / level["peer_static_200"]["per_s"], 2)
                if etags:
                    level["search_304"] = asyncio.run(load(port, cond, 304, args.clients, args.requests, args.duration))
                    level["static_304"] = asyncio.run(load(port, css_cond, 304, args.clients, args.requests, args.duration))
                    level["ratio_304_over_200"] = round(level["search_304"]["per_s"] / level["search_200"]["per_s"], 2)
                    level["search_304_over_static_304"] = round(level["search_304"]["per_s"] / level["static_304"]["per_s"], 2)
                out["rounds"].append(level)
                print(json.dumps(level), flush=True)
            if etags:
                out["bytes_50_cards"] = body_bytes(port, "/api/cards/search?" + urlencode({"q": "hp>=10"}))
        finally:
            for p in (proc, peer):
                if p is not None:
                    p.terminate()
                    p.wait(timeout=10)
        out["load_after"] = os.getloadavg()[0]
    print(json.dumps(out, indent=1))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
