"""Three bugs that came from copied helpers drifting apart (layout issue): each command now goes
through the one shared helper, so each behaves like its siblings."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from cardlab.cli.whole import app

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "catalog"
POKEMON = REPO / "cards" / "pokemon"
ZAP = REPO / "examples" / "decks" / "zap-theme-deck.txt"


def test_proxies_accepts_a_format_name_in_any_case_as_deck_validate_does(runner, tmp_path):
    out = tmp_path / "zap.pdf"
    checked = runner.invoke(app, ["deck", "validate", str(ZAP), "--format", "POKEMON-BASE", "--catalog", str(POKEMON)])
    assert checked.exit_code == 0, checked.stderr
    made = runner.invoke(app, ["proxies", str(ZAP), "--format", "POKEMON-BASE", "-o", str(out), "--catalog", str(POKEMON)])
    assert made.exit_code == 0, made.stderr
    assert out.read_bytes().startswith(b"%PDF")
    unknown = runner.invoke(
        app, ["proxies", str(ZAP), "--format", "pokemon-modern", "-o", str(out), "--overwrite", "--catalog", str(POKEMON)]
    )
    assert unknown.exit_code == 2 and "unknown format 'pokemon-modern'" in unknown.stderr


def test_card_new_writes_with_the_umask_like_every_other_writer(runner, tmp_path):
    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "ippo", root / "ippo")
    old = os.umask(0o022)
    try:
        result = runner.invoke(app, ["card", "new", "--catalog", str(root), "--set", "ippo-test", "--number", "20", "--slug", "test-wall"])
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.stderr
    (written,) = (root / "ippo").rglob("20-test-wall.yaml")
    assert stat.S_IMODE(written.stat().st_mode) == 0o644


def test_i18n_export_to_a_too_long_file_name_is_a_usage_error(runner, tmp_path):
    root = tmp_path / "catalog"
    shutil.copytree(POKEMON / "base1", root / "pokemon" / "base1")
    out = tmp_path / ("x" * 300 + ".po")
    result = runner.invoke(app, ["i18n", "export", "--lang", "fr", "--catalog", str(root), "-o", str(out)])
    assert result.exit_code == 2
    assert "File name too long" in result.stderr and "Traceback" not in result.output + result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog"]
