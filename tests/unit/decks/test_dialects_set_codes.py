"""Set codes as data (``codes`` and ``codes_source`` in each set.yaml): every code has a source, set
lookup accepts every code of every tool case-insensitively, a code shared by two sets is reported by
the catalog's cross-file check, and docs/SET_CODES.md holds the table of every code (regenerate it
with ``CARDLAB_WRITE_SET_CODES=1 python -m pytest tests/unit/decks/test_dialects_set_codes.py``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml

from cardlab.catalog.model import CODE_KINDS, set_code_collisions
from cardlab.catalog.validate import validate
from cardlab.core.paths import shipped_catalog

REPO = Path(__file__).resolve().parents[3]
TABLE = REPO / "docs" / "SET_CODES.md"
HEADING = "<!-- generated from cards/*/*/set.yaml by tests/unit/decks/test_dialects_set_codes.py -->"


@pytest.fixture(scope="module")
def catalog():  # noqa: ANN201
    return validate([shipped_catalog()], cache_path=None).catalog


def _manifests() -> list[dict]:
    return [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(shipped_catalog().glob("*/*/set.yaml"))]


def table() -> str:
    """The markdown table of every set's codes, one row per set that has codes."""
    head = "| set | name | aliases | " + " | ".join(CODE_KINDS) + " |"
    rows = [head, "|" + " --- |" * (3 + len(CODE_KINDS))]
    for d in _manifests():
        codes = d.get("codes") or {}
        if not codes:
            continue
        cells = [d["code"], d["name"]["en"], ", ".join(d.get("aliases") or [])] + [codes.get(k, "") for k in CODE_KINDS]
        rows.append("| " + " | ".join(cells) + " |")
    sources = ["", "Sources:", ""]
    for d in _manifests():
        for kind, source in (d.get("codes_source") or {}).items():
            sources.append(f"- {d['code']} {kind} {d['codes'][kind]}: {source}")
    return "\n".join([HEADING, "", *rows, *sources]) + "\n"


def test_docs_table_matches_the_set_files() -> None:
    text = TABLE.read_text(encoding="utf-8")
    generated = text[text.index(HEADING) :]
    if os.environ.get("CARDLAB_WRITE_SET_CODES") == "1" and generated != table():
        TABLE.write_text(text[: text.index(HEADING)] + table(), encoding="utf-8")
        generated = table()
    assert generated == table()


def test_every_code_has_a_source_and_a_known_kind() -> None:
    for d in _manifests():
        codes = d.get("codes") or {}
        assert set(codes) <= set(CODE_KINDS), d["code"]
        assert set(codes) == set(d.get("codes_source") or {}), d["code"]


def test_vintage_codes_hold_the_sourced_values() -> None:
    codes = {d["code"]: d.get("codes") for d in _manifests() if d["game"] == "pokemon"}
    assert codes["base1"] == {"ptcgo": "BS", "limitless": "BS", "tcgone": "BS", "tcgdex": "BS", "pokemontcgio": "base1"}
    assert codes["base4"] == {"ptcgo": "B2", "tcgone": "BS2", "tcgdex": "B2", "pokemontcgio": "base4"}
    assert codes["base5"]["tcgdex"] == "RO"
    assert codes["basep"] == {"ptcgo": "PR", "tcgone": "WBSP", "pokemontcgio": "basep"}


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("BS", "base1"),
        ("bs", "base1"),
        ("base1", "base1"),
        ("BS2", "base4"),
        ("bs2", "base4"),
        ("B2", "base4"),
        ("WBSP", "basep"),
        ("wbsp", "basep"),
        ("PR", "basep"),
        ("RO", "base5"),
        ("TR", "base5"),
        ("G1", "gym1"),
        ("g2", "gym2"),
        ("ＢＳ２", "base4"),
    ],
)
def test_find_set_accepts_every_code(catalog, code: str, expected: str) -> None:  # noqa: ANN001
    found = catalog.find_set(code)
    assert found is not None
    assert found.code == expected


def test_every_code_of_every_set_finds_its_set(catalog) -> None:  # noqa: ANN001
    for info in catalog.sets.values():
        for name in info.lookup_names:
            assert catalog.find_set(name.lower()).code == info.code
            assert catalog.find_set(name.upper()).code == info.code


def test_code_for_a_tool_falls_back_to_ptcgo(catalog) -> None:  # noqa: ANN001
    assert catalog.sets["base4"].code_for("tcgone") == "BS2"
    assert catalog.sets["base4"].code_for("limitless") == "B2"
    assert catalog.sets["basep"].code_for("ptcgl") == "PR"
    assert catalog.sets["base1"].code_for("limitless") == "BS"


def test_a_misspelt_code_stays_unknown(catalog) -> None:  # noqa: ANN001
    # TCGdex's French abbreviations (BAS, JUN, FOS, ROC) are not recorded: JUN stays a typo of JU
    assert catalog.find_set("JUN") is None


def test_no_collision_in_the_shipped_sets() -> None:
    assert set_code_collisions((d["code"], d) for d in _manifests()) == []


def test_collisions_are_found_whatever_the_case() -> None:
    sets = [
        ("base1", {"aliases": ["BS"], "codes": {"tcgone": "BS"}}),
        ("base4", {"aliases": ["B2"], "codes": {"tcgone": "bs"}}),
        ("jungle", {"aliases": ["base1"]}),
    ]
    assert set_code_collisions(sets) == [
        ("base4", "bs", ["codes", "tcgone"], "base1", "alias"),
        ("jungle", "base1", ["aliases"], "base1", "code"),
    ]


def test_the_cross_file_check_reports_a_collision(tmp_path: Path) -> None:
    root = tmp_path / "cards"
    shutil.copytree(shipped_catalog() / "pokemon" / "base1", root / "pokemon" / "base1")
    shutil.copytree(shipped_catalog() / "pokemon" / "base4", root / "pokemon" / "base4")
    manifest = root / "pokemon" / "base4" / "set.yaml"
    text = manifest.read_text(encoding="utf-8").replace("tcgone: BS2", "tcgone: bs")
    manifest.write_text(text, encoding="utf-8")
    problems = [p for p in validate([root], cache_path=None).problems if p.rule == "set-code-collision"]
    assert len(problems) == 1
    assert problems[0].pos.path == manifest
    assert problems[0].message == "set code 'bs' is also the alias of set base1; set lookup gives it to base1: remove one of them"
    line = text.splitlines().index(next(t for t in text.splitlines() if t.startswith("codes:"))) + 1
    assert problems[0].pos.line == line
