#!/usr/bin/env python3
"""Catalog benchmarks of issue 2, section 8: validate, index, start-up check, search, check-jsonschema.

    python benchmarks/bench_catalog.py [--out benchmarks/out/catalog30k] [--cards 30000] [--seed 1]

Generates (or reuses) the synthetic catalog of ``gen_catalog.py`` and prints, for it:

a. a cold ``cardlab validate`` (subprocess, empty validate cache), wall time;
b. a re-validate after changing one file (same cache);
c. a full index build (``cardlab index --force``, subprocess; cold and warm validate cache) and the
   in-process ``build_index`` time;
d. the no-change start-up check: ``ensure_index`` in-process, and ``cardlab search 'name:zzz'``;
e. in-process search latency of ten typical queries (median of 20 runs, with result counts);
f. the cold-process wall time of ``cardlab search charizard`` on the shipped catalog;
g. ``check-jsonschema`` on the same card files with the same schema, and its ratio to (a).

then PASS/FAIL against the goals of issue 2. Not a test: numbers depend on the machine and its load.
Every subprocess gets its own ``CARDLAB_CACHE_DIR`` and ``--db`` under a temporary folder, so the
user's cache and index are never touched. The one card edited for (b) is restored at the end.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
BIN = Path(sys.executable).parent
CARDLAB = str(BIN / "cardlab") if (BIN / "cardlab").exists() else "cardlab"
CHECK_JSONSCHEMA = str(BIN / "check-jsonschema") if (BIN / "check-jsonschema").exists() else "check-jsonschema"

GOALS = {
    "search_cold": 0.2,  # s, median cold `cardlab search` (shipped catalog)
    "validate_cold": 20.0,  # s, 30,000 files
    "validate_one": 1.5,  # s, one file changed
    "index": 15.0,  # s, full index build
}

sys.path.insert(0, str(HERE))


def log(msg: str = "") -> None:
    if msg.startswith("\n("):
        msg += f"   [load average {os.getloadavg()[0]:.1f}]"
    print(msg, flush=True)


def run(
    cmd: list[str], env: dict | None = None, cwd: Path | None = None, ok: tuple[int, ...] = (0,)
) -> tuple[float, subprocess.CompletedProcess]:
    """Run ``cmd``; return (wall seconds, result). Exits when the exit code is unexpected.

    The CPU time (user + system, the process and the workers it waited for) is left in
    ``result.cpu``: on a loaded machine it moves much less than the wall time."""
    full_env = {**os.environ, **(env or {})}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    res = subprocess.run(cmd, env=full_env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    res.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)  # type: ignore[attr-defined]
    if res.returncode not in ok:
        log(f"!! {' '.join(cmd[:6])}... exited {res.returncode}\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}")
        raise SystemExit(1)
    return wall, res


def med(xs: list[float]) -> float:
    return statistics.median(xs)


def fmt_runs(xs: list[float], unit: str = "s") -> str:
    if unit == "ms":
        return f"median {med(xs) * 1000:.1f} ms (min {min(xs) * 1000:.1f}, max {max(xs) * 1000:.1f}, n={len(xs)})"
    return f"median {med(xs):.2f} s (min {min(xs):.2f}, max {max(xs):.2f}, n={len(xs)})"


def ensure_catalog(out: Path, cards: int, seed: int) -> None:
    """Generate the catalog unless ``out`` already holds one from the same generator, cards and seed."""
    gen_hash = hashlib.sha1((HERE / "gen_catalog.py").read_bytes()).hexdigest()[:12]
    stamp = out / ".gen-stamp"
    want = f"{gen_hash} cards={cards} seed={seed}"
    if stamp.is_file() and stamp.read_text() == want:
        log(f"reusing {out} ({want})")
        return
    import gen_catalog

    t = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)
    n = gen_catalog.generate(out, cards, seed)
    stamp.write_text(want)
    log(f"generated {n} cards under {out} in {time.perf_counter() - t:.1f} s")


def card_files(out: Path) -> list[Path]:
    return sorted(p for p in (out / "pokemon").glob("*/*.yaml") if p.name != "set.yaml")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=HERE / "out" / "catalog30k", help="where the synthetic catalog lives")
    ap.add_argument("--cards", type=int, default=30000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cold-runs", type=int, default=3, help="runs of the cold validate (a)")
    ap.add_argument("--index-cold-runs", type=int, default=1, help="runs of the index build with an empty validate cache")
    ap.add_argument("--skip", default="", help="comma-separated steps to skip, of a,b,c,d,e,f,g")
    ap.add_argument("--json", type=Path, help="also write the numbers to this JSON file")
    args = ap.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    for var in ("CARDLAB_CATALOG", "CARDLAB_DB", "CARDLAB_NO_CACHE", "CARDLAB_CACHE_DIR"):
        os.environ.pop(var, None)  # every run below says what it reads
    out = args.out.resolve()
    ensure_catalog(out, args.cards, args.seed)
    files = card_files(out)
    log(
        f"catalog: {len(files)} card files + {len(list((out / 'pokemon').glob('*/set.yaml')))} set files; "
        f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}"
    )
    results: dict[str, object] = {"cards": len(files), "date": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    work = Path(tempfile.mkdtemp(prefix="cardlab-bench-"))
    edited = files[len(files) // 2]
    original = edited.read_bytes()
    try:
        _bench(args, skip, out, files, work, edited, original, results)
    finally:
        edited.write_bytes(original)
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False))
    return 0


def _bench(args, skip, out: Path, files: list[Path], work: Path, edited: Path, original: bytes, results: dict) -> None:  # noqa: ANN001
    cat = ["--catalog", str(out)]
    warm_cache = work / "cache-warm"
    goals: list[tuple[str, str, bool]] = []

    # (a) cold validate -----------------------------------------------------------------------
    if "a" not in skip:
        log("\n(a) cold `cardlab validate` of the whole catalog (empty cache, subprocess)")
        times, cpus = [], []
        for i in range(args.cold_runs):
            cache = work / f"cache-cold-{i}"
            wall, res = run([CARDLAB, "validate", *cat], env={"CARDLAB_CACHE_DIR": str(cache)})
            times.append(wall)
            cpus.append(res.cpu)
            log(f"   run {i + 1}: {wall:.2f} s wall, {res.cpu:.1f} s CPU   [{res.stdout.strip().splitlines()[-1]}]")
            if i == 0:
                shutil.copytree(cache, warm_cache)
            shutil.rmtree(cache, ignore_errors=True)
        results["validate_cold_s"] = times
        results["validate_cold_cpu_s"] = cpus
        log(
            f"   {fmt_runs(times)}; CPU median {med(cpus):.1f} s = {med(cpus) / (os.cpu_count() or 1):.1f} s"
            f" per core on {os.cpu_count()} cores (the wall time could not be lower than that)"
        )
        goals.append(
            (f"validate {len(files):,} files <= {GOALS['validate_cold']} s", f"{med(times):.2f} s", med(times) <= GOALS["validate_cold"])
        )

    # (b) re-validate after one change ----------------------------------------------------------
    if "b" not in skip:
        if not warm_cache.exists():
            run([CARDLAB, "validate", *cat], env={"CARDLAB_CACHE_DIR": str(warm_cache)})
        log(f"\n(b) re-validate after changing one file ({edited.relative_to(out)}), same cache")
        # one unmeasured run first: if cardlab's code changed since (a) (cache keys can change with
        # it, and other people edit the tree while this runs), the cache is refilled here
        run([CARDLAB, "validate", *cat], env={"CARDLAB_CACHE_DIR": str(warm_cache)})
        times, nochange, cpu_one = [], [], []
        for i in range(5):
            text = original.decode()
            edited.write_text(
                text.replace("illustrator: ", f"illustrator: Bench Edit {i} ", 1)
                if "illustrator: " in text
                else text + f"\nrarity: Edit {i}\n",
                encoding="utf-8",
            )
            wall, res = run([CARDLAB, "validate", *cat], env={"CARDLAB_CACHE_DIR": str(warm_cache)})
            times.append(wall)
            cpu_one.append(res.cpu)
        for _ in range(3):
            wall, _res = run([CARDLAB, "validate", *cat], env={"CARDLAB_CACHE_DIR": str(warm_cache)})
            nochange.append(wall)
        edited.write_bytes(original)
        run([CARDLAB, "validate", *cat], env={"CARDLAB_CACHE_DIR": str(warm_cache)})  # re-cache the original
        results["validate_one_changed_s"] = times
        results["validate_no_change_s"] = nochange
        results["validate_one_changed_cpu_s"] = cpu_one
        log(f"   one file changed: {fmt_runs(times)}; CPU median {med(cpu_one):.2f} s")
        log(f"   nothing changed:  {fmt_runs(nochange)}")
        goals.append(
            (f"re-validate, one file changed <= {GOALS['validate_one']} s", f"{med(times):.2f} s", med(times) <= GOALS["validate_one"])
        )

    # (c) index build -----------------------------------------------------------------------------
    db = work / "index30k.sqlite"
    if "c" not in skip:
        log("\n(c) full index build: `cardlab index --force` (subprocess)")
        cold, cold_cpu, warm_cpu = [], [], []
        for i in range(args.index_cold_runs):
            cache = work / f"cache-index-cold-{i}"
            wall, res = run([CARDLAB, "index", "--force", *cat, "--db", str(db)], env={"CARDLAB_CACHE_DIR": str(cache)})
            cold.append(wall)
            cold_cpu.append(res.cpu)
            shutil.rmtree(cache, ignore_errors=True)
        if not warm_cache.exists():
            run([CARDLAB, "validate", *cat], env={"CARDLAB_CACHE_DIR": str(warm_cache)})
        warm = []
        for _ in range(3):
            wall, res = run([CARDLAB, "index", "--force", *cat, "--db", str(db)], env={"CARDLAB_CACHE_DIR": str(warm_cache)})
            warm.append(wall)
            warm_cpu.append(res.cpu)
        log(f"   empty validate cache (first use): {fmt_runs(cold)}; CPU median {med(cold_cpu):.1f} s")
        log(f"   warm validate cache:              {fmt_runs(warm)}; CPU median {med(warm_cpu):.1f} s")
        # in-process: build_index = fingerprint + validate (cached) + write
        os.environ["CARDLAB_CACHE_DIR"] = str(warm_cache)
        from cardlab.catalog.validate import validate
        from cardlab.index.sqlite import _write, build_index, fingerprint

        roots = [out]
        t = time.perf_counter()
        fp = fingerprint(roots)
        t_fp = time.perf_counter() - t
        t = time.perf_counter()
        v = validate(roots)
        t_val = time.perf_counter() - t
        tmp = work / "write-only.sqlite"
        t = time.perf_counter()
        _write(v.catalog, tmp, fp)
        t_write = time.perf_counter() - t
        tmp.unlink()
        db_in = work / "index-inprocess.sqlite"
        t = time.perf_counter()
        report = build_index(roots, db_in)
        t_build = time.perf_counter() - t
        db_in.unlink()
        log(
            f"   in-process build_index (warm validate cache): {t_build:.2f} s for {report.cards} cards "
            f"= fingerprint {t_fp:.2f} s + validate (cached) {t_val:.2f} s + write {t_write:.2f} s (measured separately)"
        )
        results.update(
            index_cold_s=cold,
            index_warm_s=warm,
            index_cold_cpu_s=cold_cpu,
            index_warm_cpu_s=warm_cpu,
            index_inprocess_s=t_build,
            index_parts_s={"fingerprint": t_fp, "validate_cached": t_val, "write": t_write},
        )
        goals.append((f"index build (empty validate cache) <= {GOALS['index']} s", f"{med(cold):.2f} s", med(cold) <= GOALS["index"]))
        goals.append((f"index build (warm validate cache) <= {GOALS['index']} s", f"{med(warm):.2f} s", med(warm) <= GOALS["index"]))
    elif not db.exists():
        run([CARDLAB, "index", "--force", *cat, "--db", str(db)], env={"CARDLAB_CACHE_DIR": str(warm_cache)})

    # (d) no-change start-up check ------------------------------------------------------------------
    if "d" not in skip or "e" not in skip:
        if not db.exists():
            run([CARDLAB, "index", "--force", *cat, "--db", str(db)], env={"CARDLAB_CACHE_DIR": str(warm_cache)})
    if "d" not in skip:
        from cardlab.index.sqlite import ensure_index

        log(f"\n(d) no-change start-up check on the fresh {len(files):,}-card index")
        roots = [out]
        ensure_index(roots, db)  # rebuilds only if something changed since the build above
        times = []
        for _ in range(5):
            t = time.perf_counter()
            rebuilt = ensure_index(roots, db)
            times.append(time.perf_counter() - t)
            assert rebuilt is None, "the index should be fresh"
        sub = []
        for _ in range(5):
            wall, res = run([CARDLAB, "search", "name:zzz", *cat, "--db", str(db)], env={"CARDLAB_CACHE_DIR": str(warm_cache)}, ok=(0, 1))
            sub.append(wall)
        log(f"   ensure_index (in-process): {fmt_runs(times, 'ms')}")
        log(f"   `cardlab search 'name:zzz'` (subprocess, exit {res.returncode}): {fmt_runs(sub)}")
        results.update(ensure_index_s=times, search_nohit_30k_s=sub)

    # (e) search latency -------------------------------------------------------------------------
    if "e" not in skip:
        from cardlab.index.sqlite import connect
        from cardlab.search.engine import search

        log(f"\n(e) in-process search latency on the {len(files):,}-card index (median of 20 runs)")
        con = connect(db)
        pick_en, pick_fr, pick_ja = _sample_names(con)
        queries = [
            pick_en,
            pick_fr,
            "type:fire hp>=80",
            "set:synth-001",
            "-type:water retreat<=1",
            '"defending pokemon is now asleep"',
            "attack:blast",
            "rarity:rare-holo",
            "(type:fire or type:water) cost<=2",
            pick_ja,
        ]
        rows = []
        for q in queries:
            times = []
            n = 0
            for _ in range(20):
                t = time.perf_counter()
                n = len(search(con, q))
                times.append(time.perf_counter() - t)
            rows.append((q, n, med(times) * 1000, max(times) * 1000))
            log(f"   {q!r:42} {n:6d} hits  median {med(times) * 1000:7.2f} ms  (max {max(times) * 1000:.2f})")
        con.close()
        results["search_ms"] = [{"query": q, "hits": n, "median_ms": m, "max_ms": x} for q, n, m, x in rows]

    # (f) cold `cardlab search charizard` on the shipped catalog ----------------------------------------
    if "f" not in skip:
        log("\n(f) cold-process `cardlab search charizard` on the shipped catalog (index built first)")
        env = {"CARDLAB_CACHE_DIR": str(work / "cache-shipped"), "CARDLAB_DB": str(work / "shipped.sqlite")}
        first, res = run([CARDLAB, "search", "charizard"], env=env)
        times, cpus = [], []
        for _ in range(10):
            wall, res = run([CARDLAB, "search", "charizard"], env=env)
            times.append(wall)
            cpus.append(res.cpu)
        hits = [ln for ln in res.stdout.splitlines() if "harizard" in ln]
        py = []
        for _ in range(5):
            wall, _r = run([sys.executable, "-c", "pass"])
            py.append(wall)
        log(
            f"   first run (builds the index): {first:.2f} s; then {fmt_runs(times)}; CPU median {med(cpus):.3f} s;"
            f" {len(hits)} result line(s)"
        )
        log(f"   baseline `python -c pass`: {fmt_runs(py)}")
        results.update(search_cold_shipped_s=times, search_cold_shipped_cpu_s=cpus, search_first_run_s=first, python_startup_s=py)
        goals.append(
            (f"cold `cardlab search charizard` <= {GOALS['search_cold']} s", f"{med(times):.3f} s", med(times) <= GOALS["search_cold"])
        )

    # (g) check-jsonschema -----------------------------------------------------------------------
    if "g" not in skip:
        log("\n(g) check-jsonschema on the same card files, same schema")
        schema = REPO / "schema" / "pokemon.card.schema.json"
        base = ["--schemafile", str(schema), "--base-uri", schema.as_uri()]
        _check_cjs_works(base, files[0], work)
        rel = [str(p.relative_to(out / "pokemon")) for p in files]
        batches, cur, size = [], [], 0
        for r in rel:  # stay well below ARG_MAX
            if size + len(r) > 900_000:
                batches.append(cur)
                cur, size = [], 0
            cur.append(r)
            size += len(r) + 1
        batches.append(cur)
        t = time.perf_counter()
        cjs_cpu = 0.0
        for b in batches:
            _w, res = run([CHECK_JSONSCHEMA, *base, *b], cwd=out / "pokemon")
            cjs_cpu += res.cpu
        wall = time.perf_counter() - t
        log(f"   {len(rel)} files in {len(batches)} invocation(s): {wall:.1f} s wall, {cjs_cpu:.1f} s CPU (one process)")
        results["check_jsonschema_cpu_s"] = cjs_cpu
        results["check_jsonschema_s"] = wall
        if "validate_cold_s" in results:
            a = med(results["validate_cold_s"])  # type: ignore[arg-type]
            log(f"   ratio check-jsonschema / cardlab cold validate: {wall / a:.2f}x")
            results["check_jsonschema_ratio"] = wall / a
            goals.append(("cardlab cold validate faster than check-jsonschema", f"{a:.1f} s vs {wall:.1f} s", a < wall))

    log("\nGoals (issue 2):")
    for label, value, ok in goals:
        log(f"   {'PASS' if ok else 'FAIL'}  {label:52} {value}")
    results["goals"] = [{"goal": g, "value": v, "pass": ok} for g, v, ok in goals]


def _sample_names(con) -> tuple[str, str, str]:  # noqa: ANN001
    """A bare English Pokémon name, a French Pokémon name and a 2-character Japanese substring,
    taken from the middle of the index (deterministic for a given catalog)."""

    def one(lang: str) -> str | None:
        sql = (
            "SELECT n.name FROM card_name n JOIN card c ON c.id = n.card_id WHERE n.lang = ? AND c.type_line LIKE 'Pok%' ORDER BY n.card_id"
        )
        names = [r[0] for r in con.execute(sql, (lang,))]
        return names[len(names) // 2] if names else None

    en, fr, ja = one("en"), one("fr"), one("ja")
    return (en or "kaki").lower(), (fr or "dracaufeu").lower(), (ja[:2] if ja else "カキ")


def _check_cjs_works(base: list[str], good: Path, work: Path) -> None:
    """Make sure check-jsonschema really validates (and resolves the $refs to common.schema.json)."""
    bad_dir = work / "cjs-check"
    bad_dir.mkdir(exist_ok=True)
    text = good.read_text(encoding="utf-8")
    cases = {
        "good.yaml": (text, 0),
        "bad-type.yaml": (text.replace("supertype: ", "hp_: 1\nsupertype: ", 1), 1),
        "bad-ref.yaml": (text.replace("name: {en: ", "name: {en: '', xx: ", 1), 1),
    }
    for name, (body, want) in cases.items():
        (bad_dir / name).write_text(body, encoding="utf-8")
        _wall, res = run([CHECK_JSONSCHEMA, *base, name], cwd=bad_dir, ok=(0, 1))
        if res.returncode != want:
            log(f"!! check-jsonschema on {name}: exit {res.returncode}, expected {want}\n{res.stdout}{res.stderr}")
            raise SystemExit(1)
    log("   (verified: a good card passes; an unknown field and an empty name, checked through the $ref to common.schema.json, fail)")


if __name__ == "__main__":
    sys.exit(main())
