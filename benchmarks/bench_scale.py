#!/usr/bin/env python3
"""Scale benchmarks (issue 12): every goal, each figure paired with its floor or peer in the same run.

    python benchmarks/bench_scale.py --quick                                  # 1k and 30k cards
    python benchmarks/bench_scale.py --sizes 1000,30000,100000 --root /work/scale --out scale.md
    python benchmarks/bench_scale.py --catalog DIR [--catalog DIR2] [--pairs 7]

Run it with the Python of the venv whose cardlab is measured: ``cardlab`` is that venv's script (run
as subprocesses) and the library is imported in-process, so the same script measures the code
before and after a change. Catalogs are ``<root>/c<N>`` (made by ``benchmarks/gen_catalog.py OUT
--cards N --seed 1`` when missing) or the ``--catalog`` folders; they are only read (the figures
that need other files copy them into a temporary folder). Each catalog gets its own empty
``CARDLAB_CACHE_DIR`` and index files in a temporary folder.

Per catalog, A and B run in turn, A B A B ... (``benchmarks/paired.py``), and each table row gives
the medians and the median of the pair-by-pair ratios:

1. cold ``cardlab search <one card's name> --catalog C --db D`` (index built) vs the floor
   ``python -c "import typer, rich.table, sqlite3"``; goal ratio <= 1.5.
2. cold ``cardlab deck validate DECK -f pokemon-unlimited --catalog C --catalog FORMATS`` (a 60-card
   list of the catalog's cards, ``4 Name SET-ALIAS NUMBER`` lines; FORMATS is a folder holding only
   the shipped ``pokemon/formats``, since synthetic catalogs have none; ``--db`` is added when the
   command has it) vs the same floor; goal <= 0.3 s. Also in-process decks/s as a server checks
   decks (catalog opened once; each deck read, matched and checked: ``read_deck`` +
   ``choose_format``) in a loop, rounds of 100 decks in turn with 100 rounds of its floor (the file
   read and split, one dictionary lookup a line: what the issue named as the least a check costs),
   so the machine's speed at that moment shows beside the figure; goal >= 5,000/s.
3. cold ``cardlab validate`` (empty cache) vs ``check-jsonschema --schemafile
   schema/pokemon.card.schema.json`` on the same card files, wall and CPU (user + system with
   children); goal cardlab >= 15x faster on both. Both run on at most ``--peer-files`` card files
   (whole sets copied into a sub-catalog; set manifests are validated by cardlab only).
4. ``cardlab validate`` with nothing changed vs a Python subprocess that ``os.stat``s every file
   under the catalog (``os.scandir`` walk): both pay interpreter start; goal ratio <= 2.
5. peak memory (``ru_maxrss`` of the process and its waited-for children, ``os.wait4``) of cold
   ``cardlab validate`` (whole catalog, empty cache) and ``cardlab index --force`` (validation cache
   warm), each paired with the import floor; goal <= 300 MiB.
6. the index file's size vs a plain SQLite FTS5 table ``fts5(id, text)`` holding each card file's
   YAML text, after VACUUM; goal ratio <= 1.5.
7. in-process ``cardlab.search.engine.search`` (what ``cardlab search`` calls) for broad queries, all
   rows and ``limit=20``, vs plain sqlite3 selecting the same rows' id, name, set_code, number from
   the index (a hand-written SELECT on the ``facet`` table, else the first rows of the table holding
   the card ids); goal ratio <= 2. A call under 10 ms is paired 51 times (at least ``--pairs``): a
   tenth of a millisecond is noise-sized.
8. a growth table: each command's median time and peak memory, and both per 1,000 cards.

Prints the machine, the date and the git commit, then Markdown tables (``--out FILE.md`` writes them
too). Exit 0 when it ran (goals that fail are reported, not an error), 2 on bad arguments or a
command that failed where it must not. Expect about 5 minutes with ``--quick`` on 2 cores and more
than 30 at 100,000 cards.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import functools
import os
import platform
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from paired import Pair, measure, paired, paired_calls  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
CARDLAB = str(BIN / "cardlab")
FLOOR = [sys.executable, "-c", "import typer, rich.table, sqlite3"]
STAT_ALL = (
    "import os, sys\n"
    "stack, n = [sys.argv[1]], 0\n"
    "while stack:\n"
    "    for e in os.scandir(stack.pop()):\n"
    "        if e.is_dir(follow_symlinks=False):\n"
    "            stack.append(e.path)\n"
    "        else:\n"
    "            os.stat(e.path)\n"
    "            n += 1\n"
)
QUERIES = ["type:fire", "supertype:pokemon", "hp>=60"]
FORMAT = "pokemon-unlimited"
SCHEMA = REPO / "schema" / "pokemon.card.schema.json"
HEAVY = 50_000
"""From this many cards, heavy figures (cold validate, index, check-jsonschema) run fewer pairs."""


@dataclass
class Row:
    """One line of the goals table."""

    number: str
    measure: str
    a: str
    b: str
    ratio: str
    goal: str
    verdict: str


@dataclass
class Size:
    """What was measured on one catalog."""

    root: Path
    cards: int
    rows: list[Row] = field(default_factory=list)
    growth: dict[str, tuple[float, float | None]] = field(default_factory=dict)
    """command -> (median seconds, median peak memory in MiB or None)"""
    notes: list[str] = field(default_factory=list)
    load: tuple[float, float] = (0.0, 0.0)


class BenchError(Exception):
    """A command that must succeed failed: the benchmark cannot go on."""


# --- formatting ------------------------------------------------------------------------------


def med(values: Sequence[float]) -> float:
    """The median of ``values`` (NaN for none)."""
    return statistics.median(values) if values else float("nan")


def secs(values: list[float]) -> str:
    """``0.123 s`` (median) or ``12.3 ms`` below 0.1 s."""
    m = med(values)
    return f"{m * 1000:.1f} ms" if m < 0.1 else f"{m:.3f} s"


def spread(values: list[float]) -> str:
    """``1.23 (1.10-1.40)``: median (min-max), or the single value."""
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.2f}"
    return f"{med(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def mib(kib: float) -> float:
    """KiB (``ru_maxrss`` on Linux) to MiB."""
    return kib / 1024


def verdict(ok: bool) -> str:
    """PASS or FAIL."""
    return "PASS" if ok else "FAIL"


# --- the catalog -----------------------------------------------------------------------------


def set_folders(root: Path) -> list[Path]:
    """The set folders of a catalog root (``<game>/<set>/set.yaml``), sorted."""
    return sorted(p.parent for p in root.glob("*/*/set.yaml"))


def card_files(sets: list[Path]) -> list[Path]:
    """The card files of ``sets`` (every ``*.yaml`` but ``set.yaml``), sorted."""
    return [p for s in sets for p in sorted(s.glob("*.yaml")) if p.name != "set.yaml"]


def _load(path: Path) -> dict:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - a safe loader


def write_deck(sets: list[Path], out: Path) -> Path:
    """Write a 60-card deck list of the catalog's cards: 14 lines of 4 Pokémon or Trainers spread
    over the sets, then 4 basic Energy, as ``4 Name ALIAS NUMBER``. Returns the file."""
    lines: list[str] = []
    energy = None
    for i in range(14):
        folder = sets[i % len(sets)]
        alias = (_load(folder / "set.yaml").get("aliases") or [folder.name])[0]
        files = card_files([folder])
        for path in files[(i // len(sets)) * 7 :]:
            text = path.read_text(encoding="utf-8")
            if "energy_type: basic" in text:
                energy = energy or (path, alias)
                continue
            card = _load(path)
            line = f"4 {card['name']['en']} {alias} {card['number']}"
            if line not in lines:
                lines.append(line)
                break
    if energy is None:
        for path in card_files(sets):
            if "energy_type: basic" in path.read_text(encoding="utf-8"):
                energy = (path, path.parent.name)
                break
    if energy is None or len(lines) != 14:
        raise BenchError("cannot find 14 cards and a basic Energy for the deck")
    card = _load(energy[0])
    lines.append(f"4 {card['name']['en']} {energy[1]} {card['number']}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def sub_catalog(root: Path, sets: list[Path], max_files: int, out: Path) -> tuple[Path, list[Path]]:
    """The catalog to compare with check-jsonschema: ``root`` itself when it has at most
    ``max_files`` card files (0: no limit), else whole sets copied into ``out`` until the next set
    would pass ``max_files`` (at least one). Returns ``(catalog root, its card files)``."""
    files = card_files(sets)
    if not max_files or len(files) <= max_files:
        return root, files
    taken: list[Path] = []
    count = 0
    for folder in sets:
        n = len(card_files([folder]))
        if taken and count + n > max_files:
            break
        taken.append(folder)
        count += n
    for folder in taken:
        shutil.copytree(folder, out / folder.parent.name / folder.name)
    return out, card_files(set_folders(out))


def fts_size(files: list[Path], out: Path) -> int:
    """Build the peer of the index: ``CREATE VIRTUAL TABLE t USING fts5(id, text)`` with one row per
    card file (its ``id:`` line, its YAML text), VACUUM; return the file's size in bytes."""
    con = sqlite3.connect(out)
    con.execute("CREATE VIRTUAL TABLE t USING fts5(id, text)")
    pattern = re.compile(r"^id:\s*'?([^'\n]+)'?\s*$", re.M)
    with con:
        for path in files:
            text = path.read_text(encoding="utf-8")
            found = pattern.search(text)
            con.execute("INSERT INTO t VALUES (?, ?)", (found.group(1) if found else path.stem, text))
    con.execute("VACUUM")
    con.close()
    return out.stat().st_size


def peer_sql(con: sqlite3.Connection, query: str, limit: int | None, hits: int) -> tuple[str, list]:
    """The plain SQLite peer of an engine query: the same rows' id, name, set_code, number.

    With the ``facet_text`` / ``facet_num`` tables of the index (issue 12), or the older ``facet``
    table (card_id, field, text, num), this is the hand-written equivalent, in the engine's order;
    with another layout, the first ``hits`` rows of the table that holds the card ids.
    """
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    columns = {t: {r[1] for r in con.execute(f"PRAGMA table_info('{t}')")} for t in tables}
    cut = " LIMIT ?" if limit is not None else ""
    params: list = [limit] if limit is not None else []
    if {"field", "text", "card"} <= columns.get("facet_text", set()):  # the index of issue 12: facets as their own index
        field_name, op, value = re.match(r"(\w+)(:|>=)(\w+)", query).groups()  # type: ignore[union-attr]
        table, cond = ("facet_text", "text = ?") if op == ":" else ("facet_num", "num >= ?")
        sql = (
            "SELECT c.id, c.name, c.set_code, c.number FROM card c LEFT JOIN card_set s ON s.code = c.set_code"
            f" WHERE c.rowid IN (SELECT card FROM {table} WHERE field = ? AND {cond})"
            f" ORDER BY (s.release_date) IS NULL, s.release_date, c.set_code, c.number_int, c.number{cut}"
        )
        return sql, [field_name, value.lower() if op == ":" else float(value), *params]
    if {"card_id", "field", "text", "num"} <= columns.get("facet", set()) and {"id", "name", "set_code", "number"} <= columns.get(
        "card", set()
    ):
        field_name, op, value = re.match(r"(\w+)(:|>=)(\w+)", query).groups()  # type: ignore[union-attr]
        cond = "text = ?" if op == ":" else "num >= ?"
        order = "ORDER BY s.release_date, c.set_code, c.number_int, c.number" if "card_set" in tables else "ORDER BY c.id"
        join = "LEFT JOIN card_set s ON s.code = c.set_code" if "card_set" in tables else ""
        sql = (
            f"SELECT c.id, c.name, c.set_code, c.number FROM card c {join}"
            f" WHERE c.id IN (SELECT card_id FROM facet WHERE field = ? AND {cond}) {order}{cut}"
        )
        return sql, [field_name, value.lower() if op == ":" else float(value), *params]
    for table in sorted(tables):
        cols = columns[table]
        key = "id" if "id" in cols else "card_id" if "card_id" in cols else None
        if key is None:
            continue
        wanted = [c if c in cols else "NULL" for c in ("name", "set_code", "number")]
        return f"SELECT {key}, {', '.join(wanted)} FROM {table} LIMIT ?", [limit if limit is not None else hits]
    raise BenchError("the index has no table of card ids")


def fetch_all(con: sqlite3.Connection, sql: str, params: list) -> list:
    """The rows of ``sql`` (the plain SQLite side of figure 7)."""
    return con.execute(sql, params).fetchall()


# --- the measures ----------------------------------------------------------------------------


def memory_row(label: str, pair: Pair) -> Row:
    """A goals-table row for figure 5: A's and B's peak memory, their ratio, A against 300 MiB."""
    return Row(
        "5",
        label,
        f"{mib(med(pair.rss_a)):.0f} MiB",
        f"{mib(med(pair.rss_b)):.0f} MiB",
        f"{med(pair.rss_a) / med(pair.rss_b):.1f}",
        "A ≤ 300 MiB",
        verdict(mib(med(pair.rss_a)) <= 300),
    )


def ratio_row(number: str, label: str, pair: Pair, goal: str, ok: bool) -> Row:
    """A goals-table row for a pair whose A/B ratio is the figure."""
    return Row(number, label, secs(pair.a), secs(pair.b), spread(pair.ratios), goal, verdict(ok))


def check_rc(pair: Pair, what: str, allowed: tuple[int, ...] = (0,)) -> None:
    """Raise :class:`BenchError` when a run of A exited with a code outside ``allowed``."""
    bad = [rc for rc in pair.rc_a if rc not in allowed]
    if bad:
        raise BenchError(f"{what} exited {bad[0]}")


def run_checked(cmd: list[str], env: dict[str, str], what: str, allowed: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess:
    """Run ``cmd`` with output captured; raise :class:`BenchError` with its stderr when its exit code
    is not in ``allowed``."""
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode not in allowed:
        raise BenchError(f"{what}: exit {done.returncode}: {(done.stderr or done.stdout).strip()[-500:]}")
    return done


def bench_size(root: Path, args: argparse.Namespace, work: Path) -> Size:  # noqa: PLR0915 - one measure after the other
    """Measure every figure on the catalog ``root``; ``work`` is a private empty folder."""
    sets = set_folders(root)
    files = card_files(sets)
    if not files:
        raise BenchError(f"{root}: no card files (expected <game>/<set>/set.yaml beside the cards)")
    size = Size(root, len(files))
    heavy = size.cards >= HEAVY
    pairs = args.pairs
    heavy_pairs = args.heavy_pairs or (1 if heavy else min(3, pairs))
    peer_pairs = args.peer_pairs or (1 if heavy else min(3, pairs))
    load0 = os.getloadavg()[0]
    cache = work / "cache"
    db = work / "index.sqlite"
    deck_db = work / "deck-index.sqlite"
    env = {
        k: v
        for k, v in os.environ.items()
        # PYTHONDONTWRITEBYTECODE dropped too: an installed cardlab runs from cached bytecode
        if k not in ("CARDLAB_CATALOG", "CARDLAB_LANG", "CARDLAB_DB", "CARDLAB_NO_CACHE", "CARDLAB_CONFIG", "PYTHONDONTWRITEBYTECODE")
    }
    env.update(
        CARDLAB_CACHE_DIR=str(cache),
        NO_COLOR="1",
        XDG_CONFIG_HOME=str(work / "config"),
        CARDLAB_DATA=str(work / "data"),
    )
    formats = work / "formats-root"
    shutil.copytree(REPO / "cards" / "pokemon" / "formats", formats / "pokemon" / "formats")
    deck = write_deck(sets, work / "deck.txt")
    name = _load(files[len(files) // 2])["name"]["en"]

    def note(text: str) -> None:
        size.notes.append(text)
        print(f"  {text}", flush=True)

    def grow(label: str, times: list[float], rss: list[int] | None) -> None:
        size.growth[label] = (med(times), mib(med(rss)) if rss else None)

    print(f"\n== {root} ({size.cards:,} cards, {len(sets)} sets) ==", flush=True)

    # 0. the index, built once (first use: empty validation cache)
    first = measure([CARDLAB, "index", "--catalog", str(root), "--db", str(db)], env)
    if first.rc != 0:
        run_checked([CARDLAB, "index", "--catalog", str(root), "--db", str(db)], env, "cardlab index")
    grow("index (first build, empty cache)", [first.wall], [first.maxrss_kib])
    print(f"  index built in {first.wall:.1f} s, {mib(first.maxrss_kib):.0f} MiB peak", flush=True)

    # 1. cold search
    search = [CARDLAB, "search", name, "--catalog", str(root), "--db", str(db)]
    hits = run_checked(search, env, "cardlab search").stdout
    if name.lower() not in hits.lower():
        raise BenchError(f"cardlab search {name!r} did not find the card")
    p = paired(f"search {name}", search, FLOOR, pairs, env, env, usage=True)
    check_rc(p, "cardlab search")
    size.rows.append(ratio_row("1", f"cold `search {name}` / import floor", p, "≤ 1.5×", med(p.ratios) <= 1.5))
    grow("search (cold process)", p.a, p.rss_a)
    grow("import floor (python -c 'import typer, rich.table, sqlite3')", p.b, p.rss_b)

    # 2. deck validate: cold process, then in-process decks/s
    help_text = run_checked([CARDLAB, "deck", "validate", "--help"], env, "cardlab deck validate --help").stdout
    deck_cmd = [CARDLAB, "deck", "validate", str(deck), "-f", FORMAT, "--catalog", str(root), "--catalog", str(formats)]
    if "--db" in help_text:
        deck_cmd += ["--db", str(deck_db)]
    deck_env = dict(env, CARDLAB_DB=str(deck_db))
    done = run_checked(deck_cmd, deck_env, "cardlab deck validate", (0, 1))
    if "unknown-card" in done.stdout + done.stderr or "did you mean" in done.stdout + done.stderr:
        raise BenchError(f"the deck did not resolve:\n{done.stdout[-800:]}")
    p = paired("deck validate", deck_cmd, FLOOR, pairs, deck_env, deck_env, usage=True)
    check_rc(p, "cardlab deck validate", (0, 1))
    size.rows.append(
        Row(
            "2",
            "cold `deck validate` (60 cards) / import floor",
            secs(p.a),
            secs(p.b),
            spread(p.ratios),
            "A ≤ 0.3 s",
            verdict(med(p.a) <= 0.3),
        )
    )
    grow("deck validate (cold process)", p.a, p.rss_a)
    rate = decks_per_second(deck, [root, formats], deck_env, args.deck_loops, args.deck_seconds)
    size.rows.append(
        Row(
            "2",
            f"in-process deck checks, catalog opened once ({rate[1]} decks in {rate[2]:.2f} s) / floor (read, split, a dict lookup a line)",
            f"{rate[0]:,.0f} decks/s" if rate[0] >= 10 else f"{rate[0]:.1f} decks/s",
            f"{rate[3]:,.0f} decks/s",
            f"{rate[3] / rate[0]:.1f}× slower",
            "≥ 5,000/s",
            verdict(rate[0] >= 5000),
        )
    )
    size.growth["deck validate (in-process, per deck)"] = (rate[2] / max(rate[1], 1), None)

    # 3. cold validate vs check-jsonschema on the same card files
    sub, sub_files = sub_catalog(root, sets, args.peer_files, work / "subset")
    cold_cache = work / "cold-cache"
    cold_env = dict(env, CARDLAB_CACHE_DIR=str(cold_cache))

    def empty_cache() -> None:
        shutil.rmtree(cold_cache, ignore_errors=True)

    jsonschema = [
        str(BIN / "check-jsonschema"),
        "--schemafile",
        str(SCHEMA),
        "--base-uri",
        SCHEMA.as_uri(),
        *(str(f.relative_to(sub)) for f in sub_files),
    ]
    if not Path(jsonschema[0]).exists():
        note("check-jsonschema is not installed in this venv (pip install check-jsonschema): figure 3 skipped")
    else:
        p = paired(
            "validate vs check-jsonschema",
            [CARDLAB, "validate", "--catalog", str(sub)],
            jsonschema,
            peer_pairs,
            cold_env,
            env,
            before=empty_cache,
            usage=True,
            cwd_b=str(sub),
        )
        check_rc(p, "cardlab validate")
        if any(p.rc_b):
            note(f"check-jsonschema exited {p.rc_b[0]} (files it rejects?)")
        wall = [b / a for a, b in zip(p.a, p.b, strict=True)]
        cpu = [b / a for a, b in zip(p.cpu_a, p.cpu_b, strict=True) if a > 0]
        what = f"{len(sub_files):,} card files" + (f" ({len({f.parent for f in sub_files})} sets of {len(sets)})" if sub != root else "")
        size.rows.append(
            Row(
                "3",
                f"check-jsonschema / cold `validate`, wall, {what}",
                secs(p.a),
                secs(p.b),
                spread(wall),
                "≥ 15×",
                verdict(med(wall) >= 15),
            )
        )
        size.rows.append(
            Row(
                "3",
                f"check-jsonschema / cold `validate`, CPU, {what}",
                secs(p.cpu_a),
                secs(p.cpu_b),
                spread(cpu),
                "≥ 15×",
                verdict(bool(cpu) and med(cpu) >= 15),
            )
        )

    # 4. validate, nothing changed, vs statting every file
    validate_cmd = [CARDLAB, "validate", "--catalog", str(root)]
    run_checked(validate_cmd, env, "cardlab validate")  # the cache is warm from the index build; once more to be sure
    p = paired("validate, no change", validate_cmd, [sys.executable, "-c", STAT_ALL, str(root)], pairs, env, env, usage=True)
    check_rc(p, "cardlab validate")
    size.rows.append(ratio_row("4", "`validate`, nothing changed / stat every file (both subprocesses)", p, "≤ 2×", med(p.ratios) <= 2))
    grow("validate (nothing changed)", p.a, p.rss_a)
    grow("stat every file (python subprocess)", p.b, p.rss_b)

    # 5. peak memory: cold validate (whole catalog), index --force (validation cache warm)
    p = paired("validate cold (memory)", validate_cmd, FLOOR, heavy_pairs, cold_env, env, before=empty_cache, usage=True)
    check_rc(p, "cardlab validate")
    size.rows.append(memory_row("peak memory, cold `validate` (whole catalog) / floor", p))
    grow("validate (cold, empty cache)", p.a, p.rss_a)
    index_cmd = [CARDLAB, "index", "--force", "--catalog", str(root), "--db", str(db)]
    p = paired("index --force", index_cmd, FLOOR, heavy_pairs, env, env, usage=True)
    check_rc(p, "cardlab index --force")
    size.rows.append(memory_row("peak memory, `index --force` (cache warm) / floor", p))
    grow("index --force (validation cache warm)", p.a, p.rss_a)

    # 6. index size vs plain FTS5
    index_bytes = db.stat().st_size
    fts_bytes = fts_size(files, work / "fts.sqlite")
    size.rows.append(
        Row(
            "6",
            "index file / plain FTS5 table of the card files (VACUUMed)",
            f"{index_bytes / 2**20:.1f} MiB",
            f"{fts_bytes / 2**20:.1f} MiB",
            f"{index_bytes / fts_bytes:.2f}",
            "≤ 1.5×",
            verdict(index_bytes / fts_bytes <= 1.5),
        )
    )

    # 7. in-process searches returning many rows vs plain sqlite3
    for label, times in in_process_searches(root, db, env, pairs, size, note):
        size.growth[label] = (times, None)
    size.load = (load0, os.getloadavg()[0])
    return size


@contextlib.contextmanager
def environment(env: dict[str, str]) -> Iterator[None]:
    """Set ``env`` in this process's environment for the ``with`` block, then put back what was there."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def decks_per_second(deck: Path, roots: list[Path], env: dict[str, str], loops: int, budget: float) -> tuple[float, int, float, float]:
    """Check ``deck`` in-process as a server does (the web deck page): the catalog opened once
    (:func:`cardlab.index.stored.open_catalog`), then per deck the file read
    (:func:`cardlab.decks.read.read_deck`) and matched and checked under its format
    (:func:`cardlab.decks.check.choose_format`, with one ``indexes`` cache), up to ``loops`` times or
    until ``budget`` seconds have passed (at least twice), after one untimed deck.

    Paired with its floor in the same loop, rounds of :data:`DECK_ROUND` decks in turn with as many
    rounds of the floor: per deck, the file read and split into lines, and one dictionary lookup
    per line (the deck's lines -> card ids, found by the check itself), what the issue named as the
    least a deck check costs. Returns ``(decks per second, decks checked, seconds, floor decks per
    second)``."""
    with environment(env):
        from cardlab.decks import check
        from cardlab.decks.read import read_deck
        from cardlab.index.stored import open_catalog

        catalog, formats, _problems = open_catalog(roots)
        words = check.header_words(formats)
        indexes: dict = {}

        def one() -> None:
            check.choose_format(read_deck(deck, words), catalog, formats, FORMAT, (), indexes)

        checked, _problems2, _notes = check.choose_format(read_deck(deck, words), catalog, formats, FORMAT, (), indexes)
        lines = deck.read_text(encoding="utf-8").splitlines()
        ids = dict(zip(lines, (c.card_id for c in checked.cards), strict=False))

        def floor() -> None:
            for line in deck.read_text(encoding="utf-8").splitlines():
                ids.get(line)

        n, took, floor_took = 0, 0.0, 0.0
        while n < loops and (n < 2 or took < budget):
            start = time.perf_counter()
            for _ in range(DECK_ROUND):
                one()
            took += time.perf_counter() - start
            start = time.perf_counter()
            for _ in range(DECK_ROUND):
                floor()
            floor_took += time.perf_counter() - start
            n += DECK_ROUND
    return n / took, n, took, n / floor_took


DECK_ROUND = 100
"""Decks checked in a row before as many floor rounds (:func:`decks_per_second`)."""


def in_process_searches(
    root: Path, db: Path, env: dict[str, str], pairs: int, size: Size, note: Callable[[str], None]
) -> list[tuple[str, float]]:
    """Figure 7: rows for the goals table, and ``(growth label, median seconds)`` per query."""
    growth: list[tuple[str, float]] = []
    with environment(env):
        from cardlab.search import engine

        con = engine.open_index([root], db)
        plain = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        for query in QUERIES:
            for limit in (None, 20):
                start = time.perf_counter()
                hits = engine.search(con, query, limit=limit)
                runs = pairs if time.perf_counter() - start > 0.01 else max(pairs, 51)  # sub-10 ms calls: more pairs
                sql, params = peer_sql(plain, query, limit, len(hits))
                rows = plain.execute(sql, params).fetchall()
                if len(rows) != len(hits):
                    note(f"`{query}` limit {limit}: the engine gave {len(hits)} rows, the plain SELECT {len(rows)}")
                if limit is None and [r[0] for r in rows] != [h.id for h in hits]:
                    note(f"`{query}`: the plain SELECT lists the same number of rows in another order or other ids")
                p = paired_calls(
                    query,
                    functools.partial(engine.search, con, query, limit=limit),
                    functools.partial(fetch_all, plain, sql, params),
                    runs,
                )
                what = "all rows" if limit is None else f"limit {limit}"
                size.rows.append(
                    ratio_row(
                        "7", f"in-process `search('{query}')`, {what} ({len(hits):,} rows) / plain sqlite3", p, "≤ 2×", med(p.ratios) <= 2
                    )
                )
                if limit is None:
                    growth.append((f"in-process search `{query}`, all rows", med(p.a)))
        plain.close()
        con.close()
    return growth


# --- report ----------------------------------------------------------------------------------


def machine() -> list[str]:
    """Lines describing the machine, the date and the code measured."""
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = "?"
    try:
        kib = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))  # type: ignore[union-attr]
        ram = f"{kib / 2**20:.1f} GiB"
    except (OSError, AttributeError):
        pass

    def commit(folder: Path) -> str:
        try:
            done = subprocess.run(["git", "-C", str(folder), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False)
            dirty = subprocess.run(
                ["git", "-C", str(folder), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True, check=False
            )
            return done.stdout.strip() + (" (uncommitted changes)" if dirty.stdout.strip() else "") if done.returncode == 0 else "?"
        except OSError:
            return "?"

    import cardlab

    package = Path(cardlab.__file__).resolve().parent
    return [
        f"- date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        f"- machine: {os.cpu_count()} CPUs (nproc), {model}, {ram} RAM, {platform.system()} {platform.release()}",
        f"- Python {platform.python_version()} ({sys.executable})",
        f"- cardlab measured: {package} at commit {commit(package)}; this script at {commit(REPO)}",
        f"- load average at start: {os.getloadavg()[0]:.2f}",
    ]


def report(sizes: list[Size], header: list[str], args: argparse.Namespace) -> str:
    """The Markdown report: machine, goals table per size, growth table."""
    out = ["# Scale benchmarks (issue 12)", "", *header, f"- command: `{' '.join([Path(sys.argv[0]).name, *sys.argv[1:]])}`", ""]
    out.append(
        f"A and B alternate pair by pair ({args.pairs} pairs; heavy figures fewer, see each size). "
        "Times are medians; ratios are the median of the pair-by-pair ratios (min-max)."
    )
    for s in sizes:
        out += ["", f"## {s.cards:,} cards ({s.root}; load average {s.load[0]:.2f} → {s.load[1]:.2f})", ""]
        out += ["| # | measure (A / B) | A | B | ratio | goal | |", "| --- | --- | ---: | ---: | ---: | --- | --- |"]
        out += [f"| {r.number} | {r.measure} | {r.a} | {r.b} | {r.ratio} | {r.goal} | {r.verdict} |" for r in s.rows]
        if s.notes:
            out += ["", *(f"- {n}" for n in s.notes)]
    labels = list(dict.fromkeys(label for s in sizes for label in s.growth))
    out += ["", "## Growth: median time and peak memory, and per 1,000 cards", ""]
    out.append("| command | " + " | ".join(f"{s.cards:,} cards" for s in sizes) + " |")
    out.append("| --- |" + " ---: |" * len(sizes))
    for label in labels:
        cells = []
        for s in sizes:
            if label not in s.growth:
                cells.append("-")
                continue
            t, m = s.growth[label]
            k = s.cards / 1000
            cell = f"{t * 1000:.1f} ms ({t * 1000 / k:.2f} ms/1k)" if t < 1 else f"{t:.2f} s ({t * 1000 / k:.0f} ms/1k)"
            if m is not None:
                cell += f"; {m:.0f} MiB ({m / k:.2f} MiB/1k)"
            cells.append(cell)
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def catalogs(args: argparse.Namespace) -> list[Path]:
    """The catalog folders to measure, generating ``<root>/c<N>`` when missing."""
    if args.catalog:
        return [Path(c).resolve() for c in args.catalog]
    sizes = [1000, 30000] if args.quick else [int(n) for n in args.sizes.split(",") if n.strip()]
    found = []
    for n in sizes:
        folder = Path(args.root).resolve() / f"c{n}"
        if not folder.is_dir():
            print(f"generating {folder} ({n:,} cards)...", flush=True)
            subprocess.run(
                [sys.executable, str(REPO / "benchmarks" / "gen_catalog.py"), str(folder), "--cards", str(n), "--seed", "1"], check=True
            )
        found.append(folder)
    return found


def decks_only(args: argparse.Namespace) -> int:
    """``--decks-only RUNS``: figure 2's in-process deck checks alone, ``RUNS`` times per catalog
    (the deck of :func:`write_deck`, the shipped Pokémon formats beside the catalog); prints each
    rate and the median. Returns the exit code."""
    for root in catalogs(args):
        work = Path(tempfile.mkdtemp(prefix=f"bench-scale-{root.name}-"))
        try:
            formats = work / "formats-root" / "pokemon"
            formats.mkdir(parents=True)
            shutil.copytree(REPO / "cards" / "pokemon" / "formats", formats / "formats")
            deck = write_deck(sorted(p for p in (root / "pokemon").iterdir() if p.is_dir()), work / "deck.txt")
            env = {"CARDLAB_CACHE_DIR": str(work / "cache"), "CARDLAB_DB": str(work / "index.sqlite")}
            runs = [
                decks_per_second(deck, [root, work / "formats-root"], env, args.deck_loops, args.deck_seconds)
                for _ in range(args.decks_only)
            ]
            rates = [r[0] for r in runs]
            shown = ", ".join(f"{r:,.0f}" for r in rates)
            floors = [r[3] for r in runs]
            print(
                f"{root}: in-process deck checks {statistics.median(rates):,.0f} decks/s (median of {shown}); "
                f"floor in the same loops {statistics.median(floors):,.0f} decks/s (median of {', '.join(f'{f:,.0f}' for f in floors)}); "
                f"load {os.getloadavg()[0]:.2f}",
                flush=True,
            )
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, measure every catalog, print (and write) the report. Returns the exit code."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--catalog", action="append", help="a catalog folder to measure (repeatable; replaces --sizes)")
    parser.add_argument("--sizes", default="1000,30000,100000", help="card counts: catalogs <root>/c<N> (default 1000,30000,100000)")
    parser.add_argument("--root", default=str(REPO / "benchmarks" / "out" / "scale"), help="folder of the c<N> catalogs")
    parser.add_argument("--quick", action="store_true", help="1,000 and 30,000 cards only")
    parser.add_argument("--pairs", type=int, default=7, help="pairs per figure (default 7)")
    parser.add_argument("--heavy-pairs", type=int, default=0, help="pairs for cold validate and index (default 3; 1 from 50k cards)")
    parser.add_argument("--peer-pairs", type=int, default=0, help="pairs against check-jsonschema (default 3; 1 from 50k cards)")
    parser.add_argument(
        "--peer-files", type=int, default=3000, help="at most this many card files for check-jsonschema (0: all; default 3000)"
    )
    parser.add_argument("--deck-loops", type=int, default=2000, help="in-process deck checks at most (default 2000)")
    parser.add_argument("--deck-seconds", type=float, default=3.0, help="...or for about this many seconds (default 3)")
    parser.add_argument("--out", help="also write the Markdown report to this file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folders (caches, indexes)")
    parser.add_argument(
        "--decks-only", type=int, default=0, metavar="RUNS", help="only the in-process deck checks of figure 2, RUNS times per catalog"
    )
    args = parser.parse_args(argv)
    if args.pairs < 1 or args.heavy_pairs < 0 or args.peer_pairs < 0 or args.peer_files < 0:
        parser.error("pair and file counts must be positive")
    if not Path(CARDLAB).exists():
        parser.error(f"no cardlab next to {sys.executable}: run this with the Python of cardlab's venv")
    header = machine()
    print("\n".join(header), flush=True)
    if args.decks_only:
        return decks_only(args)
    sizes = []
    for root in catalogs(args):
        work = Path(tempfile.mkdtemp(prefix=f"bench-scale-{root.name}-"))
        try:
            sizes.append(bench_size(root, args, work))
        except BenchError as err:
            print(f"error: {root}: {err}", file=sys.stderr)
            return 2
        finally:
            if args.keep:
                print(f"  kept {work}")
            else:
                shutil.rmtree(work, ignore_errors=True)
    text = report(sizes, header, args)
    print("\n" + text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
