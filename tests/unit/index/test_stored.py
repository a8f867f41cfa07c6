"""The catalog read from its index (cardlab.index.stored, issue 12) gives the same answers as the
catalog validated in memory: every example and fixture deck gets the same verdict, problems and
cards; names, printings and reprints agree; and a deck loads only the cards it names."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardlab.catalog.validate import validate
from cardlab.core.paths import catalog_roots
from cardlab.decks.check import header_words, legality
from cardlab.decks.read import read_deck
from cardlab.index.sqlite import build_index, connect
from cardlab.index.stored import StoredCatalog, open_catalog

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "tests" / "fixtures"


def _pair(roots: list[Path], tmp: Path) -> tuple[object, StoredCatalog, dict]:
    result = validate(roots)
    assert result.problems == []
    db = tmp / "i.sqlite"
    build_index(roots, db)
    return result.catalog, StoredCatalog(connect(db), roots), dict(sorted(result.formats.items()))


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    return _pair(catalog_roots(None), tmp_path_factory.mktemp("shipped"))


@pytest.fixture(scope="module")
def fixture_catalog(tmp_path_factory):
    root = tmp_path_factory.mktemp("fixture-catalog")
    for game in ("pokemon", "ippo", "monpa"):
        shutil.copytree(FIXTURES / "catalog" / game, root / game)
    for game in ("ippo", "monpa"):
        shutil.copytree(REPO / "cards" / game / "formats", root / game / "formats")
    return _pair([root], tmp_path_factory.mktemp("fixture-index"))


def _verdicts(report) -> list[tuple]:
    return [
        (r.format.name, r.legal, [(p.rule, p.message, p.pos.line) for p in r.problems], [(c.card_id, c.count) for c in r.deck.cards])
        for r in report.results
    ]


SHIPPED_DECKS = sorted((REPO / "examples" / "decks").rglob("*.txt")) + sorted((FIXTURES / "decks" / "pokemon").glob("*"))


@pytest.mark.parametrize("deck", SHIPPED_DECKS, ids=lambda p: p.name)
def test_shipped_decks_same_verdicts(shipped, deck):
    memory, stored, formats = shipped
    words = header_words(formats)
    deck_list = read_deck(deck, words)
    assert _verdicts(legality(deck_list, stored, formats)) == _verdicts(legality(deck_list, memory, formats))


@pytest.mark.parametrize(
    "deck", sorted((FIXTURES / "decks" / "ippo").glob("*")) + sorted((FIXTURES / "decks" / "monpa").glob("*")), ids=lambda p: p.name
)
def test_fixture_decks_same_verdicts(fixture_catalog, deck):
    memory, stored, formats = fixture_catalog
    words = header_words(formats)
    deck_list = read_deck(deck, words)
    assert _verdicts(legality(deck_list, stored, formats)) == _verdicts(legality(deck_list, memory, formats))


def test_unknown_card_suggestions_agree(shipped, tmp_path):
    memory, stored, formats = shipped
    deck = tmp_path / "d.txt"
    deck.write_text("Format: pokemon-base\n4 Charmandr\n4 Pikachoo\n52 Fire Energy\n", encoding="utf-8")
    words = header_words(formats)
    a = _verdicts(legality(read_deck(deck, words), stored, formats))
    assert a == _verdicts(legality(read_deck(deck, words), memory, formats))
    # each format's row suggests among its own cards: the promos _____'s and Surfing Pikachu are
    # not in Base Set's format
    assert ("unknown-card", 'unknown card "Pikachoo"; did you mean "Pikachu"?', 3) in a[0][2]


def test_a_deck_loads_only_its_cards(shipped):
    _memory, stored, formats = shipped
    fresh = StoredCatalog(stored.con, stored.roots)
    deck = REPO / "examples" / "decks" / "haymaker.txt"
    words = header_words(formats)
    legality(read_deck(deck, words), fresh, formats)
    loaded = dict.__len__(fresh.cards)
    assert 0 < loaded < 60  # of 758 cards


def test_names_printings_reprints_agree(shipped):
    memory, stored, _formats = shipped
    for game in ("pokemon",):
        m_names, m_compact, _ = memory.name_maps(game)
        s_names, s_compact, _ = stored.name_maps(game)
        assert sorted(s_names) == sorted(m_names)
        assert all(s_names[n] == ids for n, ids in m_names.items())
        assert all(s_compact[n] == ids for n, ids in m_compact.items())
    assert [stored.oracle_of(c) for c in memory.cards] == [memory.oracle_of(c) for c in memory.cards]
    assert stored.printings("base4-4") == memory.printings("base4-4") == ["base1-4", "base4-4"]
    assert stored.own["base4-4"] == memory.own["base4-4"]
    assert "base1-4" not in stored.own
    assert stored.reprints["base1-4"] == memory.reprints["base1-4"]
    assert stored.find_set("BS") is not None and stored.find_set("BS").code == memory.find_set("BS").code == "base1"
    assert stored.paths["base1-4"] == memory.paths["base1-4"]
    assert "nothing-1" not in stored.cards and stored.cards.get("nothing-1") is None


def test_iterating_loads_every_card(shipped):
    memory, stored, _formats = shipped
    fresh = StoredCatalog(stored.con, stored.roots)
    assert list(fresh.cards) == list(memory.cards)
    assert len(fresh.card_set) == len(memory.card_set) == 758


def test_open_catalog_falls_back_to_memory_with_problems(test_set, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_DB", str(tmp_path / "i.sqlite"))
    cat, _formats, problems = open_catalog([test_set])
    assert isinstance(cat, StoredCatalog) and problems == []
    bad = test_set / "pokemon" / "test1" / "9-draft.yaml"
    bad.write_text('id: test1-9\nnumber: "9"\nname: {en: Draftmon}\n', encoding="utf-8")
    cat, _formats, problems = open_catalog([test_set])
    assert not isinstance(cat, StoredCatalog)
    assert sorted({p.pos.path.name for p in problems}) == ["9-draft.yaml"]
    assert "test1-1" in cat.cards


def test_set_statuses_from_the_index_equal_the_validated_ones(shipped):
    from cardlab.contrib.new_card import set_statuses, sets_table

    memory, stored, _formats = shipped
    mine, theirs = set_statuses(memory), set_statuses(stored)
    assert sets_table(theirs) == sets_table(mine)
    assert [(s.info.code, s.recorded, s.numbers, s.missing) for s in theirs] == [
        (s.info.code, s.recorded, s.numbers, s.missing) for s in mine
    ]
    base = next(s for s in theirs if s.info.code == "base5")
    assert (base.counts, base.missing) == ("83/82+1", [])


def test_formats_from_the_index_equal_the_validated_ones(shipped, tmp_path):
    from cardlab.index.stored import open_formats

    memory, _stored, formats = shipped
    found = open_formats(memory.roots, tmp_path / "i.sqlite")
    assert list(found) == list(formats)
    assert [f.rules for f in found.values()] == [f.rules for f in formats.values()]


def test_name_maps_are_shared_and_bounded(shipped, monkeypatch):
    """One set of name maps per game (the web keeps a card index per game and languages: the
    names of a "did you mean" are read once), each keeping a bounded number of answers (names
    typed by anyone, unknown ones too)."""
    import cardlab.index.stored

    _memory, stored, _formats = shipped
    fresh = StoredCatalog(stored.con, stored.roots)
    names = fresh.name_maps("pokemon")[0]
    assert fresh.name_maps("pokemon")[0] is names
    assert fresh.name_maps("ippo")[0] is not names
    monkeypatch.setattr(cardlab.index.stored, "MAX_CACHED_NAMES", 2)
    assert names["charizard"] == {"base1-4", "base4-4"}
    assert "no such card" not in names
    assert names["bill"] >= {"base1-91"}
    assert names["charizard"] == {"base1-4", "base4-4"}
    assert len(names._cache) <= 2


def test_loaded_cards_are_bounded(shipped, monkeypatch):
    """Until it is iterated, a stored catalog keeps at most MAX_KEPT cards (a server asked for
    every card's face one by one), and still answers each; once iterated, it keeps them all."""
    import cardlab.index.stored

    memory, stored, _formats = shipped
    monkeypatch.setattr(cardlab.index.stored, "MAX_KEPT", 3)
    fresh = StoredCatalog(stored.con, stored.roots)
    ids = list(memory.cards)[:10]
    assert [fresh.cards[i] for i in ids] == [memory.cards[i] for i in ids]
    assert all(i in fresh.cards for i in ids) and fresh.cards.get(ids[0]) == memory.cards[ids[0]]
    assert 0 < dict.__len__(fresh.cards) <= 3
    assert len(fresh.cards) == 758 and dict.__len__(fresh.cards) == 758
    assert fresh.cards.get("nothing-1") is None
