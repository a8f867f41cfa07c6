"""cardlab.catalog.filecheck.check_files: the values that survivors of the sixth mutation run changed
(issue 16): the process pool's answer equal to the serial one, and what a set manifest gives the cards
beside it (its game, its source language) when it is not a map, names no game or no language."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from cardlab.catalog import filecheck
from cardlab.catalog.filecheck import check_files
from cardlab.catalog.model import SourceFile, scan

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "catalog"
TEST1 = FIXTURES / "pokemon" / "test1"
SET = (TEST1 / "set.yaml").read_text(encoding="utf-8")
CARD = (TEST1 / "1-testmon.yaml").read_text(encoding="utf-8")


def _found(problems) -> list[tuple]:
    return [(p.pos.path.name, p.pos.line, p.pos.col, p.rule, p.message) for p in problems]


def test_the_process_pool_answers_as_the_serial_check(tmp_path, monkeypatch):
    """From ``PARALLEL_THRESHOLD`` files to read on (exactly), one pool of ``os.cpu_count()`` forked
    workers checks them; the data and the problems (in order) are those of the serial check, card
    schemas chosen by each set's game. Fewer files (the set manifests here) are checked in-process."""
    import concurrent.futures

    root = tmp_path / "cards"
    shutil.copytree(FIXTURES, root)
    odd = root / "pokemon" / "test1" / "9-jab.yaml"  # an Ippo card in a Pokémon set: schema problems
    odd.write_bytes((FIXTURES / "ippo" / "ippo-test" / "1-test-jab.yaml").read_bytes())
    files = scan([root])
    cards = [f for f in files if f.kind != "set"]
    serial = check_files(files, cache_path=None)
    pools: list[int | None] = []
    mapped: list[int] = []

    class Recording(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, max_workers=None, **kwargs):
            pools.append(max_workers)
            super().__init__(max_workers=max_workers, **kwargs)

        def map(self, fn, *iterables, **kwargs):
            jobs = list(iterables[0])
            mapped.append(len(jobs))
            return super().map(fn, jobs, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Recording)
    monkeypatch.setattr(filecheck, "PARALLEL_THRESHOLD", len(cards))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    pooled = check_files(files, cache_path=None)
    assert (pools, mapped) == ([2], [len(cards)])
    assert pooled[2] == serial[2] == len(files)
    assert pooled[0] == serial[0]
    assert _found(pooled[1]) == _found(serial[1])
    assert ("9-jab.yaml", 4, 1, "schema", "unknown field 'kind'") in _found(pooled[1])


def _check(tmp_path: Path, set_text: str, card_text: str) -> tuple[dict, list[tuple]]:
    folder = tmp_path / "pokemon" / "test1"
    folder.mkdir(parents=True)
    (folder / "set.yaml").write_text(set_text, encoding="utf-8")
    (folder / "1-testmon.yaml").write_text(card_text, encoding="utf-8")
    files = [SourceFile(folder / "set.yaml", "set", "pokemon", folder), SourceFile(folder / "1-testmon.yaml", "card", "pokemon", folder)]
    data, problems, reread = check_files(files, cache_path=None)
    assert reread == 2
    return {p.name: d for p, d in data.items()}, _found(problems)


def test_a_manifest_that_is_not_a_map_leaves_the_cards_to_their_folder(tmp_path):
    """A set manifest that is a list: its own problem, and the card beside it is checked as its
    folder's game, against English (no crash reading the list as a map)."""
    data, problems = _check(tmp_path, "- a\n- b\n", CARD)
    assert data["set.yaml"] is None
    assert data["1-testmon.yaml"]["id"] == "test1-1"
    assert problems == [("set.yaml", 1, 1, "schema", 'expected a map of fields (name: value), found ["a", "b"] (a list)')]


def test_a_manifest_whose_game_is_no_text_leaves_the_cards_to_their_folder(tmp_path):
    """``game: 5``: the manifest's problem, and the Ippo card beside it is checked as a Pokémon card
    (its folder's game), so its Ippo fields are reported."""
    ippo_card = (FIXTURES / "ippo" / "ippo-test" / "1-test-jab.yaml").read_text(encoding="utf-8")
    _data, problems = _check(tmp_path, SET.replace("game: pokemon", "game: 5"), ippo_card)
    assert problems[0] == ("set.yaml", 3, 7, "schema", 'game: 5 (a YAML integer) is not one of "pokemon", "ippo", "monpa", "forumtcg"')
    assert problems[1] == ("1-testmon.yaml", 4, 1, "schema", "unknown field 'kind'")


@pytest.mark.parametrize(
    ("set_text", "card_text", "problems"),
    [
        # no source_language in the manifest: English, which the card's name lacks
        (
            SET.replace("source_language: en\n", ""),
            CARD.replace("name: {en: Testmon, fr: Testemon, ja: テストモンスター}", "name: {fr: Testemon}"),
            [
                ("set.yaml", 2, 1, "schema", "missing field 'source_language'"),
                ("1-testmon.yaml", 3, 7, "source-language", "missing the source language 'en'"),
            ],
        ),
        # source_language: fr, a card written in French only: nothing missing
        (
            SET.replace("source_language: en", "source_language: fr"),
            CARD.replace("name: {en: Testmon, fr: Testemon, ja: テストモンスター}", "name: {fr: Testemon}")
            .replace("name: {en: Test Flame, fr: Flamme de test}", "name: {fr: Flamme de test}")
            .replace('text: {en: "Flip a coin; on tails, no damage."}', 'text: {fr: "Pile ou face."}'),
            [],
        ),
    ],
)
def test_the_cards_source_language_is_their_sets(tmp_path, set_text, card_text, problems):
    """Each card must hold its set's source language (English when the manifest names none)."""
    assert _check(tmp_path, set_text, card_text)[1] == problems


@pytest.mark.parametrize("cpus", [1, None])
def test_one_cpu_or_an_unknown_count_checks_in_process(tmp_path, monkeypatch, cpus):
    """``os.cpu_count()`` of 1, or None (unknown): no pool, however many files."""
    import concurrent.futures

    root = tmp_path / "cards"
    shutil.copytree(FIXTURES / "pokemon", root / "pokemon")
    files = scan([root])
    pools: list[int | None] = []

    class Recording(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, max_workers=None, **kwargs):
            pools.append(max_workers)
            super().__init__(max_workers=max_workers, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Recording)
    monkeypatch.setattr(filecheck, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(os, "cpu_count", lambda: cpus)
    data, problems, reread = check_files(files, cache_path=None)
    assert (pools, problems, reread, len(data)) == ([], [], len(files), len(files))
