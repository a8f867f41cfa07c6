#!/usr/bin/env python3
"""Benchmark the card page (issue 30): its weight with everything it loads (HTML, style sheet, the
card's face as SVG), and the time to draw a face; each figure beside its peer in the same run.

    python benchmarks/bench_card_page.py                 # the shipped catalog, every card
    python benchmarks/bench_card_page.py --cards 100     # the first 100 cards only

Weight: the bytes of ``/card/<id>`` plus each resource it names (``<link rel=stylesheet>``,
``<img src>``), as a browser with an empty cache loads them, uncompressed and gzip-compressed (level
6, what a reverse proxy would send); peer: the card's JSON (``/api/cards/<id>``), the data the page
shows. The goal is at most 60 kB uncompressed for every card.

Time: drawing one face as SVG (``face_svg``, warm: fonts registered) beside drawing the same card
into a one-card PDF (``render_pdf``, the proxies' own path).

The app runs in-process (FastAPI's TestClient): no network, no server threads; weights do not
depend on that.
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

GOAL = 60_000
"""The card page's weight, bytes (issue 30)."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=0, help="measure the first N cards (0: every card)")
    parser.add_argument("--catalog", type=Path, default=REPO / "cards", help="catalog root (default: the shipped catalog)")
    args = parser.parse_args()

    from fastapi.testclient import TestClient

    from cardlab.proxies.pdf import ProxyOptions, render_pdf
    from cardlab.proxies.svg import face_svg
    from cardlab.web.app import create_app

    with tempfile.TemporaryDirectory() as tmp, TestClient(create_app([args.catalog], Path(tmp) / "index.sqlite")) as client:
        catalog = client.app.site.catalog  # type: ignore[attr-defined]
        ids = sorted(catalog.cards)
        ids = ids[: args.cards] if args.cards else ids
        rows = []
        for card_id in ids:
            page = client.get(f"/card/{card_id}")
            assert page.status_code == 200, card_id
            parts = {"html": page.content}
            for url in re.findall(r'<link rel="stylesheet" href="([^"]+)"|<img [^>]*src="([^"]+)"', page.text):
                path = url[0] or url[1]
                resp = client.get(path)
                assert resp.status_code == 200, path
                parts[path] = resp.content
            api = client.get(f"/api/cards/{card_id}").content
            total = sum(len(b) for b in parts.values())
            gz = sum(len(gzip.compress(b, 6)) for b in parts.values())
            svg = sum(len(b) for k, b in parts.items() if k.endswith(".svg") or ".svg?" in k)
            rows.append((card_id, total, gz, len(parts["html"]), svg, len(api)))
        face_ms, pdf_ms = [], []
        sample = ids[: min(len(ids), 30)]
        face_svg(catalog, sample[0])  # fonts registered, ReportLab imported
        render_pdf(catalog, [sample[0]], ProxyOptions(paper="a4"))
        for card_id in sample:
            t = time.perf_counter()
            face_svg(catalog, card_id)
            face_ms.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            render_pdf(catalog, [card_id], ProxyOptions(paper="a4"))
            pdf_ms.append((time.perf_counter() - t) * 1000)

    heaviest = max(rows, key=lambda r: r[1])
    median = statistics.median(r[1] for r in rows)
    charizard = next((r for r in rows if r[0] == "base1-4"), rows[0])
    print(f"cards measured: {len(rows)}")
    for label, r in (("base1-4" if charizard[0] == "base1-4" else charizard[0], charizard), (f"heaviest ({heaviest[0]})", heaviest)):
        print(
            f"{label}: page {r[1]:,} B (HTML {r[3]:,} + CSS + SVG face {r[4]:,}), gzip {r[2]:,} B; "
            f"peer: its JSON {r[5]:,} B; page/JSON {r[1] / r[5]:.2f}"
        )
    print(f"median page {median:,.0f} B; goal <= {GOAL:,} B: {'PASS' if heaviest[1] <= GOAL else 'FAIL'} (heaviest {heaviest[1]:,} B)")
    print(
        f"face drawing, median of {len(sample)}: SVG {statistics.median(face_ms):.1f} ms; "
        f"peer: the same card as a one-card PDF {statistics.median(pdf_ms):.1f} ms; "
        f"SVG/PDF {statistics.median(face_ms) / statistics.median(pdf_ms):.2f}"
    )
    return 0 if heaviest[1] <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
