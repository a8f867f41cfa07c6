"""Issue 27: the legality table is monotonic. A list legal in a format is legal in every format of its
game whose card pool contains that format's and whose rules are no stricter; checked over every shipped
list (pasted bare) and every such pair of formats, then over generated bare-name lists (hypothesis).
The survey's table and ``cardlab deck validate``'s exit status agree."""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.catalog.model import number_int
from cardlab.catalog.validate import load_formats, validate
from cardlab.core.paths import shipped_catalog
from cardlab.decks.check import check_list, header_words
from cardlab.decks.read import parse_deck_text
from tests.data.test_bare_lists import bare

REPO = Path(__file__).resolve().parents[2]
LISTS = sorted([*(REPO / "examples" / "decks").glob("*.txt"), *(REPO / "examples" / "decks" / "vintage").glob("*.txt")])
POOL_RULES = {"allowed-sets", "number-range", "banned"}
"""Rules that decide the card pool (which printings may be played), not how the deck is built."""


@pytest.fixture(scope="module")
def catalog():
    return validate([shipped_catalog()], cache_path=None).catalog


@pytest.fixture(scope="module")
def formats():
    return load_formats([shipped_catalog()])


def pool(fmt, catalog) -> frozenset[str]:
    """Every printing the format allows."""
    return frozenset(
        i
        for i, code in catalog.card_set.items()
        if catalog.game_of(i) == fmt.game and fmt.allows(i, code, number_int(str(catalog.cards[i].get("number", ""))))
    )


def implied(strict, loose) -> bool:
    """True when rule ``strict`` allows no deck that rule ``loose`` refuses (same rule and
    parameters; a copy limit of the same kind with a lower or equal maximum)."""
    if strict.rule != loose.rule:
        return False
    if strict.rule == "copy-limit":
        a, b = dict(strict.params), dict(loose.params)
        return a.pop("max") <= b.pop("max") and a == b
    return strict.params == loose.params


def no_stricter(loose, strict) -> bool:
    """Every deck-building rule of ``loose`` is implied by one of ``strict``."""
    return all(any(implied(s, r) for s in strict.rules if s.rule not in POOL_RULES) for r in loose.rules if r.rule not in POOL_RULES)


@pytest.fixture(scope="module")
def pairs(catalog, formats):
    """``(F, G)``: G's pool contains F's and G's rules are no stricter, for each game."""
    pools = {name: pool(f, catalog) for name, f in formats.items()}
    return [
        (f, g) for f, g in permutations(formats.values(), 2) if f.game == g.game and pools[f.name] <= pools[g.name] and no_stricter(g, f)
    ]


def test_the_pairs_are_the_vintage_pools(pairs):
    """Base ⊂ Base-Jungle ⊂ Base-Fossil ⊂ Base-Rocket ⊂ Unlimited and Base-Fossil ⊂ Base-Gym ⊂
    Unlimited (Base-Gym bans Birthday Pikachu, which Base-Rocket allows), and Prop 15/3 (stricter
    rules, promos 1 to 24) below Unlimited only (it allows Birthday Pikachu too): the property is
    checked over these 15 pairs."""
    got = sorted((f.name, g.name) for f, g in pairs)
    chain = ["pokemon-base", "pokemon-base-jungle", "pokemon-base-fossil", "pokemon-base-rocket", "pokemon-base-gym", "pokemon-unlimited"]
    wanted = {(chain[i], chain[j]) for i in range(len(chain)) for j in range(i + 1, len(chain))}
    wanted -= {("pokemon-base-rocket", "pokemon-base-gym")}
    wanted |= {("pokemon-prop-15-3", "pokemon-unlimited")}
    assert len(wanted) == 15
    assert set(got) == wanted


def legal_in(text: str, catalog, formats, indexes) -> set[str]:
    deck_list = parse_deck_text(text, "deck.txt", header_words(formats))
    report = check_list(deck_list, catalog, formats, None, (), indexes)
    assert report.surveyed
    return set(report.legal_in)


@pytest.mark.parametrize("path", LISTS, ids=lambda p: p.name)
def test_shipped_lists(catalog, formats, pairs, path):
    legal = legal_in(bare(path), catalog, formats, {})
    for f, g in pairs:
        if f.name in legal:
            assert g.name in legal, (f.name, g.name)


@pytest.fixture(scope="module")
def names(catalog):
    """Bare names of Pokémon cards as players write them: Basic Pokémon, Trainers, basic Energy."""
    basics, trainers = set(), set()
    for i, card in catalog.cards.items():
        if catalog.game_of(i) != "pokemon":
            continue
        name = card["name"].get("en")
        if card.get("supertype") == "Trainer":
            trainers.add(name)
        elif card.get("stage") == "Basic" and card.get("supertype") == "Pokémon":
            basics.add(name)
    return sorted(basics), sorted(trainers)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_bare_lists(catalog, formats, pairs, names, data):
    basics, trainers = names
    picked = data.draw(st.lists(st.sampled_from(basics), min_size=1, max_size=6, unique=True))
    picked += data.draw(st.lists(st.sampled_from(trainers), min_size=0, max_size=8, unique=True))
    counts = [data.draw(st.integers(1, 4)) for _ in picked]
    energy = 60 - sum(counts)
    lines = [f"{n} {name}" for n, name in zip(counts, picked, strict=True)] + [f"{energy} Fighting Energy"]
    legal = legal_in("\n".join(lines) + "\n", catalog, formats, INDEXES)
    for f, g in pairs:
        if f.name in legal:
            assert g.name in legal, (f.name, g.name, lines)


INDEXES: dict = {}
"""Card indexes kept across generated lists (as a server keeps them)."""


@pytest.mark.parametrize(
    "path", [REPO / "examples" / "decks" / "vintage" / "theme-base1-zap.txt", REPO / "examples" / "decks" / "haymaker.txt"]
)
def test_table_and_exit_status_agree(tmp_path, path):
    from typer.testing import CliRunner

    from cardlab.cli.whole import app

    deck = tmp_path / path.name
    deck.write_text(bare(path), encoding="utf-8")
    result = CliRunner().invoke(app, ["deck", "validate", str(deck), "-O", "json"])
    data = json.loads(result.stdout)
    assert data["legal_in"] == [f["format"] for f in data["formats"] if f["legal"]]
    assert data["legal_in"]  # both lists are legal somewhere
    assert result.exit_code == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("4 Pikachu\n", encoding="utf-8")  # 4 cards: legal nowhere
    result = CliRunner().invoke(app, ["deck", "validate", str(bad), "-O", "json"])
    assert (json.loads(result.stdout)["legal_in"], result.exit_code) == ([], 1)


def test_the_survey_builds_a_list_once_per_format(catalog, formats, monkeypatch):
    """Seven Pokémon formats: seven builds, and each line looked up once per game (not 18 builds)."""
    import cardlab.decks.check as check

    built: list[str] = []
    looked: list[str] = []
    real_build, real_lookups = check.build_deck, check.lookups

    def build(deck_list, catalog, fmt, *args, **kwargs):
        built.append(fmt.name)
        return real_build(deck_list, catalog, fmt, *args, **kwargs)

    def lookups(deck_list, index, *args, **kwargs):
        looked.append(index.game)
        return real_lookups(deck_list, index, *args, **kwargs)

    monkeypatch.setattr(check, "build_deck", build)
    monkeypatch.setattr(check, "lookups", lookups)
    text = bare(REPO / "examples" / "decks" / "vintage" / "theme-base1-zap.txt")
    report = check_list(parse_deck_text(text, "zap.txt", header_words(formats)), catalog, formats)
    assert sorted(built) == sorted(name for name, f in formats.items() if f.game == "pokemon")
    assert len(built) == 7
    assert sorted(looked) == ["forumtcg", "ippo", "monpa", "pokemon"]  # the game found once per game
    assert report.chosen == "pokemon-base"
