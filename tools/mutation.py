"""Mutation testing of cardlab's core modules with mutmut: how many small semantic changes
(a flipped comparison, a constant off by one, a dropped ``not``...) the test suite catches.

Not part of CI (a module takes minutes to hours on 2 cores, see TESTING.md). Usage::

    python tools/mutation.py                      # every module in CORE_MODULES
    python tools/mutation.py cardlab/games/odds.py cardlab/proxies/layout.py
    python tools/mutation.py cardlab/core/fuzzy.py --keep /tmp/mut   # keep the work folder; in it, a survivor:
                                                  #   .mutvenv/bin/mutmut show cardlab.core.fuzzy.x_suggest__mutmut_14
    python tools/mutation.py cardlab/search/query/parse.py --tests tests/unit/search tests/cli/test_cli_edges.py
    python tools/mutation.py cardlab/search/query/parse.py --keep /tmp/mut --resume   # go on with a stopped run

For each module, the tracked files of this checkout are copied to a work folder, a virtual
environment there gets cardlab's dependencies and mutmut but **not** cardlab itself (an installed
or editable cardlab would make the tests import the original source instead of the mutant), and
``mutmut run`` mutates that one module while the whole test suite (``tests/``) judges each mutant
(mutmut runs only the tests that cover the mutated function).

``--tests PATH ...`` limits the tests that judge the mutants to those paths (test folders, files or
node ids; mutmut's ``pytest_add_cli_args_test_selection``): the tests of the module's package, its
property tests and the CLI tests that reach it, instead of the whole suite, whose broad tests cost
about a minute per mutant on 2 cores. A mutant that survives a subset may still be killed by a test
outside it, and one killed by the subset is killed by the whole suite, so **a score measured against
a subset of the tests is a lower bound of the whole suite's score**.

``--timeout-multiplier N`` (mutmut's ``timeout_multiplier``, 15 by default) bounds the CPU time of
one mutant's tests to about 2 N times their normal duration: a mutant that loops forever (the query
tokenizer's index arithmetic) then costs 2 N times its tests, not 30. mutmut's estimate counts the
tests' calls, not their fixtures (an index built for the search tests), so with a small N a mutant
that survives all its tests may be stopped as a timeout too: read each timeout (a loop, or a
survivor?) before counting it. ``--resume`` goes on with the stopped run of a ``--keep`` folder: the
files, the environment and the mutants judged so far stay (mutmut judges again only the timeouts
when the multiplier changed).

Prints one row per module: mutants, killed, survived, timed out, the minutes taken and the score
killed / (killed + survived + timed out) (timeouts are judged by reading them, see above), then the
surviving mutants' names (``mutmut show NAME`` in the work folder prints the change). Equivalent
mutants, judged by reading them, are listed with why in TESTING.md; they are not subtracted here.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORE_MODULES = [
    "cardlab/core/text.py",
    "cardlab/core/config.py",
    "cardlab/core/fuzzy.py",
    "cardlab/search/query/tokens.py",
    "cardlab/search/query/parse.py",
    "cardlab/search/compile.py",
    "cardlab/decks/lines.py",
    "cardlab/decks/parse_text.py",
    "cardlab/decks/parse_yaml.py",
    "cardlab/decks/resolve.py",
    "cardlab/decks/rules.py",
    "cardlab/games/odds.py",
    "cardlab/catalog/filecheck.py",
    "cardlab/proxies/layout.py",
    "cardlab/i18n/po_import.py",
]

DESELECT: list[str] = []
"""Tests left out of every mutation run (node ids), for a test that passes in the checkout but not in
mutmut's copy (``mutants/``, a longer path, where the first run of the whole suite must pass). None
now: the index-damage test that was left out depended on the checkout's path (TESTING.md, sixth run)."""


def _copy_checkout(dest: Path) -> None:
    """Copy the files git tracks (as they are in the working tree) to ``dest``."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, files):
        src = REPO / name.decode()
        if src.is_file():
            target = dest / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)


def _venv(work: Path) -> Path:
    """A virtual environment in ``work`` with cardlab's dependencies, its test and web extras and mutmut,
    not cardlab."""
    meta = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = meta["optional-dependencies"]
    wanted = [*extras["test"], *extras["web"]]
    deps = [*meta["dependencies"], "mutmut>=3.8"]
    while wanted:  # an extra may name others of cardlab's (cardlab[postgres]): take theirs, not cardlab
        dep = wanted.pop(0)
        if dep.startswith(meta["name"] + "["):
            wanted += [d for name in dep[len(meta["name"]) + 1 : -1].split(",") for d in extras[name.strip()]]
        else:
            deps.append(dep)
    subprocess.run([sys.executable, "-m", "venv", str(work / ".mutvenv")], check=True)
    py = work / ".mutvenv" / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", *deps], check=True, stderr=subprocess.DEVNULL)
    return py


def _config(module: str, tests: list[str], timeout_multiplier: float) -> str:
    """The [tool.mutmut] section that mutates ``module`` only, judged by the tests under the paths
    ``tests`` (all of ``tests/`` when empty), each mutant's CPU time bounded by ``timeout_multiplier``."""
    others = sorted(str(p.relative_to(REPO)) for p in (REPO / "cardlab").rglob("*.py") if str(p.relative_to(REPO)) != module)
    files = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    tops = sorted({f.split("/")[0] + ("/" if "/" in f else "") for f in files} - {"cardlab/", "pyproject.toml"})
    return (
        "\n[tool.mutmut]\n"
        'source_paths = ["cardlab/"]\n'
        f"also_copy = {json.dumps(tops)}\n"  # README.md, cards/, schema/, tests/...: what the tests read
        f"do_not_mutate = {json.dumps(others)}\n"
        f"pytest_add_cli_args = {json.dumps([a for t in DESELECT for a in ('--deselect', t)])}\n"
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
        f"timeout_multiplier = {float(timeout_multiplier)}\n"
    )


def run_module(module: str, work: Path, py: Path, tests: list[str], timeout_multiplier: float, resume: bool = False) -> dict:
    """Mutate one module in ``work``, judged by the tests under ``tests`` (all when empty); go on with
    the mutants judged so far when ``resume``; return mutmut's counts plus the survivors' names and
    the minutes taken."""
    start = time.monotonic()
    if not resume:
        shutil.rmtree(work / "mutants", ignore_errors=True)
    base = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    (work / "pyproject.toml").write_text(base + _config(module, tests, timeout_multiplier), encoding="utf-8")
    mutmut = [str(py), "-m", "mutmut"]
    subprocess.run([*mutmut, "run"], cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    subprocess.run([*mutmut, "export-cicd-stats"], cwd=work, capture_output=True, check=False)
    stats = json.loads((work / "mutants" / "mutmut-cicd-stats.json").read_text(encoding="utf-8"))
    results = subprocess.run([*mutmut, "results"], cwd=work, capture_output=True, text=True, check=False).stdout
    stats["survivors"] = [line.split(":")[0].strip() for line in results.splitlines() if line.strip().endswith("survived")]
    stats["minutes"] = (time.monotonic() - start) / 60
    return stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", default=CORE_MODULES, help="module paths (default: the core modules)")
    parser.add_argument(
        "--keep",
        type=Path,
        help="work folder to use and keep (default: a temporary one, removed); it keeps the mutants of the last module run",
    )
    parser.add_argument(
        "--tests",
        nargs="+",
        default=[],
        metavar="PATH",
        help="only these test paths judge the mutants (default: the whole suite); the score is then a lower bound",
    )
    parser.add_argument("--timeout-multiplier", type=float, default=15.0, help="mutmut's timeout_multiplier (default 15)")
    parser.add_argument("--resume", action="store_true", help="go on with the stopped run of the --keep folder (one module)")
    args = parser.parse_args()
    if args.resume and (not args.keep or len(args.modules) != 1 or not (args.keep / ".mutvenv" / "bin" / "python").is_file()):
        parser.error("--resume goes on with the run of one module in an existing --keep folder")
    bad = [m for m in args.modules if not (m.startswith("cardlab/") and m.endswith(".py") and (REPO / m).is_file())]
    if bad:
        parser.error(f"not a module of cardlab (a path such as cardlab/core/text.py): {', '.join(bad)}")
    modules_as_tests = [t for t in args.tests if t.startswith("cardlab/")]
    if modules_as_tests:
        parser.error(f"{', '.join(modules_as_tests)}: a module after --tests; give the modules first (MODULE ... --tests PATH ...)")
    if not (0 < args.timeout_multiplier < float("inf")):
        parser.error("--timeout-multiplier must be a number above 0")
    if args.keep and not args.resume and args.keep.exists() and (not args.keep.is_dir() or any(args.keep.iterdir())):
        parser.error(f"--keep {args.keep}: exists and is not an empty folder (its files would be replaced); give a new folder, or --resume")
    missing = [t for t in args.tests if not (REPO / t.split("::")[0]).exists()]
    if missing:
        parser.error(f"no such test path: {', '.join(missing)}")
    work = args.keep or Path(tempfile.mkdtemp(prefix="cardlab-mutation-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.resume:
        py = work / ".mutvenv" / "bin" / "python"
    else:
        _copy_checkout(work)
        py = _venv(work)
    rows = []
    for module in args.modules:
        stats = run_module(module, work, py, args.tests, args.timeout_multiplier, args.resume)
        judged = stats["killed"] + stats["survived"] + stats["timeout"]
        score = stats["killed"] / judged if judged else 0.0
        rows.append((module, stats, score))
        print(
            f"{module:36s} mutants {stats['total']:4d}  killed {stats['killed']:4d}  survived {stats['survived']:3d}  "
            f"timeout {stats['timeout']:2d}  no tests {stats['no_tests']:2d}  {stats['minutes']:5.1f} min  score {score:6.1%}"
            + ("  (subset of the tests: a lower bound)" if args.tests else ""),
            flush=True,
        )
    for module, stats, _score in rows:
        if stats["survivors"]:
            print(f"\n{module}: {len(stats['survivors'])} survived")
            for name in stats["survivors"]:
                print(f"  {name}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
