"""Deck commands over a damaged index or a catalog holding a draft (hostile testing of issue 12):
the same answer as from a sound index, never a traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

from cardlab.cli.whole import app
from cardlab.core import paths

REPO = Path(__file__).resolve().parents[2]
DECK = REPO / "examples" / "decks" / "zap-theme-deck.txt"


def _damage(db: Path) -> None:
    """Overwrite bytes from a third of the file on, every 28 KiB (the header page stays whole)."""
    data = bytearray(db.read_bytes())
    for at in range(len(data) // 3, len(data), 28 * 1024):
        data[at : at + 1500] = b"\xa5" * len(data[at : at + 1500])
    db.write_bytes(bytes(data))


def test_deck_validate_over_a_damaged_own_index_answers_as_before(runner):
    good = runner.invoke(app, ["deck", "validate", str(DECK), "-f", "pokemon-base"])
    assert good.exit_code == 0, good.output
    db = paths.default_db(paths.catalog_roots(None))
    assert db.is_file()
    _damage(db)
    again = runner.invoke(app, ["deck", "validate", str(DECK), "-f", "pokemon-base"])
    assert again.exit_code == 0 and again.stdout == good.stdout
    stats = runner.invoke(app, ["deck", "stats", str(DECK), "-f", "pokemon-base"])
    assert stats.exit_code == 0 and "Traceback" not in stats.output


def test_an_index_failing_mid_deck_falls_back_to_the_validated_catalog(runner, monkeypatch):
    import sqlite3

    from cardlab.index import stored

    good = runner.invoke(app, ["deck", "validate", str(DECK), "-f", "pokemon-base"])
    db = paths.default_db(paths.catalog_roots(None))
    assert good.exit_code == 0 and db.is_file()

    def malformed(self, key):
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(stored._NameMap, "__getitem__", malformed)
    again = runner.invoke(app, ["deck", "validate", str(DECK), "-f", "pokemon-base"])
    assert again.exit_code == 0 and again.stdout == good.stdout
    assert not db.exists()  # cardlab's own damaged index is dropped: the next search builds it


def test_deck_have_with_a_draft_in_the_catalog_warns_and_answers(runner, tmp_path):
    catalog = tmp_path / "cards"
    shutil.copytree(REPO / "cards", catalog)
    (catalog / "pokemon" / "base1" / "999-draft.yaml").write_text('id: base1-999\nnumber: "999"\nname: {en: Draft}\n', encoding="utf-8")
    result = runner.invoke(app, ["deck", "have", str(DECK), "-f", "pokemon-base", "--catalog", str(catalog)])
    assert result.exit_code == 1, result.output  # nothing owned: cards are missing
    assert "999-draft.yaml" in result.stderr
    assert result.stdout.splitlines()[-1].endswith(": 0 of 60 cards owned, 60 missing")


def test_collection_names_get_did_you_mean_whatever_the_games(runner, tmp_path):
    added = runner.invoke(app, ["collection", "add", "Pikachuu"], env={"CARDLAB_DATA": str(tmp_path / "data")})
    assert added.exit_code == 1
    assert (
        added.stderr.strip()
        == 'error: unknown card "Pikachuu"; did you mean "Pikachu", "_____\'s Pikachu", "Flying Pikachu"?; nothing was changed'
    )


def test_collection_list_refuses_a_data_folder_that_is_a_file_as_add_does(runner, tmp_path):
    blocker = tmp_path / "future.sqlite"
    blocker.write_text("not a folder", encoding="utf-8")
    env = {"CARDLAB_DATA": str(blocker)}
    listed = runner.invoke(app, ["collection", "list"], env=env)
    added = runner.invoke(app, ["collection", "add", "base1-4"], env=env)
    assert listed.exit_code == added.exit_code == 1
    assert f"{blocker} is a file, not a folder (set CARDLAB_DATA to a folder)" in listed.stderr
    assert listed.stderr == added.stderr


def test_show_of_nothing_is_a_usage_error(runner):
    for ref in ("", "   "):
        result = runner.invoke(app, ["show", ref])
        assert result.exit_code == 2
        assert "no card given: name one by id (base1-4), set and number (BS 4) or name (Charizard)" in result.stderr
