"""Ippo search and display as a new user meets them: the names the tables show find cards, and a
piped ``cardlab show`` (no colour) still tells the attribute icons apart."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from cardlab.cli.whole import app
from cardlab.games import ippo
from cardlab.games.base import Span

CATALOG = Path(__file__).resolve().parents[1] / "fixtures" / "catalog"


def _card(number: int) -> dict:
    path = next((CATALOG / "ippo" / "ippo-test").glob(f"{number}-*.yaml"))
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _ids(runner, tmp_path, query: str) -> list[str]:  # noqa: ANN001
    result = runner.invoke(app, ["search", query, "--catalog", str(CATALOG), "--db", str(tmp_path / "index.sqlite"), "-O", "ids"])
    assert result.exit_code == 0, result.output
    return sorted(result.stdout.split())


# --- search synonyms -------------------------------------------------------------------------


def test_facets_add_the_shown_names_and_keep_the_codes():
    uppercut = set(ippo.facets(_card(4)))
    assert {
        ("blow", "upper", None),
        ("blow", "uppercut", None),
        ("blow", "アッパー", None),
        ("kind", "blow", None),
        ("kind", "ブロー", None),
        ("attr", "courage", None),
        ("attr", "勇気", None),
    } <= uppercut
    hook = set(ippo.facets(_card(3)))
    assert {("attr", "kan", None), ("attr", "intuition", None), ("attr", "カン", None)} <= hook
    weave = set(ippo.facets(_card(9)))
    assert {
        ("blocks", "upper", None),
        ("blocks", "uppercut", None),
        ("blocks", "hook", None),
        ("timing", "boxing", None),
        ("timing", "ボクシング", None),
    } <= weave


@pytest.mark.parametrize(
    ("query", "same_as"),
    [
        ("blow:uppercut", "blow:upper"),
        ("blocks:uppercut", "blocks:upper"),
        ("blow:アッパー", "blow:upper"),
        ("attr:intuition", "attr:kan"),
        ("attr:カン", "attr:kan"),
        ("attr:勇気", "attr:courage"),
        ("attr:技術", "attr:technique"),
        ("attr:冷静", "attr:calm"),
        ("kind:ディフェンス", "kind:defense"),
        ("timing:配置フェイズ", "timing:placement"),
    ],
)
def test_search_by_shown_names(runner, tmp_path, query, same_as):
    expected = _ids(runner, tmp_path, same_as)
    assert expected  # the fixtures have such cards
    assert _ids(runner, tmp_path, query) == expected


# --- display without colour ------------------------------------------------------------------


def test_attribute_icons_differ_in_shape():
    assert len(set(ippo.ATTRIBUTE_SYMBOLS.values())) == len(ippo.ATTRIBUTES) == len(ippo.ATTRIBUTE_SYMBOLS)
    detail = {r.label: r.spans for r in ippo.details(_card(2), ["en"], "ja")}  # courage, technique, generic 1
    assert detail["Start cost"] == (Span("▲", "red", "courage"), Span("■", "green", "technique"), Span(" "), Span("①"))


def test_piped_show_tells_attributes_apart(runner, tmp_path):
    result = runner.invoke(app, ["show", "ippo-test-5", "--catalog", str(CATALOG), "--db", str(tmp_path / "i.sqlite")])
    assert result.exit_code == 0, result.output
    assert "\x1b[" not in result.stdout  # no colour when piped
    start = next(ln for ln in result.stdout.splitlines() if "Start cost" in ln)
    assert "●●▲ ②" in start  # calm, calm, courage, generic 2
    legend = next(ln for ln in result.stdout.splitlines() if "Attributes" in ln)
    assert "● calm 冷静 · ▲ courage 勇気" in legend
