"""docs/ARCHITECTURE.md's tree of ``cardlab/`` is the truth (issue 28, item 5): every module and
folder it names exists, and every package and module under ``cardlab/`` is named there.

The tree is read loosely: an entry is a line with ``├──`` or ``└──``; its names are what comes
before the first run of two spaces, one or more separated by ``·`` (``pokemon.py · ippo.py``), each
the first word of its piece (``copy.py (db copy)``); a name ends in ``.py`` (a module) or ``/`` (a
folder, whose entries are indented below it). Lines without a branch continue a description.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MAP = REPO / "docs" / "ARCHITECTURE.md"
_ENTRY = re.compile(r"^((?:[│ ] {3})*)[├└]── (.*)$")


def _tree_block() -> list[str]:
    """The lines of the fenced block that starts with ``cardlab/``."""
    blocks = re.findall(r"^```\n(.*?)^```", MAP.read_text(encoding="utf-8"), flags=re.S | re.M)
    trees = [b.splitlines() for b in blocks if b.startswith("cardlab/\n")]
    assert len(trees) == 1, "docs/ARCHITECTURE.md should hold one tree block starting with cardlab/"
    return trees[0]


def named_paths() -> list[str]:
    """Every path the tree names, relative to the repository (folders end in ``/``)."""
    lines = _tree_block()
    parents = ["cardlab/"]  # parents[d]: the folder at depth d
    named = ["cardlab/"]
    for line in lines[1:]:
        match = _ENTRY.match(line)
        if not match:
            continue
        depth = len(match.group(1)) // 4 + 1
        head = re.split(r" {2,}", match.group(2).strip(), maxsplit=1)[0]
        names = [piece.split()[0] for piece in head.split("·") if piece.strip()]
        bad = [n for n in names if not re.fullmatch(r"[\w.]+(\.py|/)", n)]
        assert not bad, f"tree line names neither a module nor a folder: {line!r}"
        del parents[depth:]
        for name in names:
            named.append(parents[-1] + name)
        folders = [n for n in names if n.endswith("/")]
        if len(folders) == 1 and len(names) == 1:
            parents.append(parents[-1] + folders[0])
    return named


def existing_modules() -> list[str]:
    """Every package (a folder with ``__init__.py``, as ``name/``) and every module directly in a
    package under ``cardlab/``; a package's ``__init__.py`` is named by its package."""
    found = []
    for init in sorted((REPO / "cardlab").rglob("__init__.py")):
        package = init.parent
        found.append(package.relative_to(REPO).as_posix() + "/")
        found += [m.relative_to(REPO).as_posix() for m in sorted(package.glob("*.py")) if m.name != "__init__.py"]
    return found


def test_the_tree_is_read():
    named = named_paths()
    assert "cardlab/core/errors.py" in named
    assert "cardlab/games/forumtcg.py" in named  # a ·-separated list
    assert "cardlab/web/static/" in named
    assert "cardlab/collection/migrations/env.py" in named  # two levels down


def test_every_path_the_map_names_exists():
    missing = [p for p in named_paths() if not (REPO / p).exists() or p.endswith("/") != (REPO / p).is_dir()]
    assert missing == [], f"docs/ARCHITECTURE.md names what is not there: {missing}"


def test_every_package_and_module_is_on_the_map():
    named = set(named_paths())
    unnamed = [p for p in existing_modules() if p not in named and not (p.endswith("/__init__.py") and p[: -len("__init__.py")] in named)]
    assert unnamed == [], f"docs/ARCHITECTURE.md's tree does not name: {unnamed}"
