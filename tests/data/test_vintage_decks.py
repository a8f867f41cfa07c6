"""The era's real decks (examples/decks/vintage/, copied verbatim from the shared deck notes): theme
decks and tournament lists, each checked in the format of its release.

The lists are written as players wrote them: bare names. A name that several different cards
share (Base Set and Fossil Magmar, the promo Electabuzz...) is reported as ambiguous, with the
choices and an example line to write; the header comment ``# set ids`` of each file gives the
printings the deck intends, so the tests also check each deck with those printings written in
(``2 Magmar base3-39``), as a player would after reading the suggestion.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardlab.catalog.validate import load_formats, validate
from cardlab.cli.whole import app
from cardlab.core.paths import shipped_catalog
from cardlab.decks.check import load_deck
from cardlab.decks.rules import check_deck

REPO = Path(__file__).resolve().parents[2]
VINTAGE = REPO / "examples" / "decks" / "vintage"
RELEASE_FORMAT = {
    "base1": "pokemon-base",
    "base2": "pokemon-base-jungle",
    "base3": "pokemon-base-fossil",
    "base4": "pokemon-base-fossil",
    "base5": "pokemon-base-rocket",
    "gym1": "pokemon-base-gym",
    "gym2": "pokemon-base-gym",
}
TOURNAMENT = {
    "1999-10-berkeley-the-better-haymaker.txt": "pokemon-base-fossil",
    "2000-02-atlanta-electrode-zapdos.txt": "pokemon-base-fossil",
    "2000-07-sheffield-babes-and-wiggles.txt": "pokemon-base-rocket",
    "base-fossil-ptcgarchive-rain-dance.txt": "pokemon-base-fossil",
}
THEMES = sorted(p.name for p in VINTAGE.glob("theme-*.txt"))
STARTERS = {"theme-base1-2-player-starter-set.txt", "theme-base4-2-player-cd-rom-starter-set.txt"}
# filed under base4 by pokemon-tcg-data, but it holds Gym Heroes and Team Rocket cards
# (pokemon-vintage-formats.md, section 3): not a Base Set 2 era deck
MISFILED = {"theme-base4-thunderstorm.txt"}


@pytest.fixture(scope="module")
def catalog():
    return validate([shipped_catalog()], cache_path=None).catalog


@pytest.fixture(scope="module")
def formats():
    return load_formats([shipped_catalog()])


def intended(path: Path) -> list[tuple[int, str, str]]:
    """The ``# set ids`` header: ``[(count, name, card id), ...]`` in file order."""
    line = next(ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.startswith("# set ids"))
    items = line.split("): ", 1)[1].split("; ")
    out = []
    for item in items:
        m = re.fullmatch(r"(\d+) (.+) = ([a-z0-9]+-\d+)", item.strip())
        assert m, item
        out.append((int(m[1]), m[2], m[3]))
    return out


def _missing_sets(path: Path, catalog) -> set[str]:
    return {cid.rsplit("-", 1)[0] for _n, _name, cid in intended(path) if cid.rsplit("-", 1)[0] not in catalog.sets}


def _skip_without_sets(path: Path, catalog) -> None:
    """Every set a deck's header names is in the catalog (the whole vintage pool is)."""
    assert _missing_sets(path, catalog) == set(), path


def with_printings(path: Path, catalog, formats, fmt: str, tmp_path: Path) -> Path:
    """Write the deck with the header's intended printing on each ambiguous line."""
    deck = load_deck(path, catalog, formats, fmt)
    ambiguous = {p.pos.line for p in deck.problems if p.rule == "ambiguous-card"}
    todo = intended(path)
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if number in ambiguous:
            count, name = line.split(" ", 1)
            k = next(i for i, (n, nm, _cid) in enumerate(todo) if nm == name and n == int(count))
            line = f"{count} {name} {todo.pop(k)[2]}"
        elif line and not line.startswith("#"):
            count, name = line.split(" ", 1)
            k = next((i for i, (n, nm, _cid) in enumerate(todo) if nm == name and n == int(count)), None)
            if k is not None:
                todo.pop(k)
        out.append(line)
    written = tmp_path / path.name
    written.write_text("\n".join(out) + "\n", encoding="utf-8")
    return written


def _problems(path: Path, catalog, formats, fmt: str) -> list[tuple[int, str, str]]:
    return [(p.pos.line, p.rule, p.message) for p in check_deck(load_deck(path, catalog, formats, fmt))]


def test_the_decks_are_the_shared_copies():
    shared = REPO.parent / "shared" / "decks" / "vintage"
    if not shared.is_dir():
        pytest.skip("../shared/decks/vintage is not beside the checkout")
    assert sorted(p.name for p in VINTAGE.glob("*.txt")) == sorted(p.name for p in shared.glob("*.txt"))
    for p in shared.glob("*.txt"):
        # our copy: the same lines, a cardlab note after the header, and the header's card id after
        # the names that alone name several cards
        ours = [ln for ln in (VINTAGE / p.name).read_text(encoding="utf-8").splitlines() if not ln.startswith("# cardlab:")]
        theirs = p.read_text(encoding="utf-8").splitlines()
        assert len(ours) == len(theirs), p.name
        ids = {cid for _n, _name, cid in intended(p)}
        for mine, source in zip(ours, theirs, strict=True):
            if mine != source:
                assert mine.startswith(source + " ") and mine.rsplit(" ", 1)[1] in ids, (p.name, mine, source)


@pytest.mark.parametrize("name", [t for t in THEMES if t not in STARTERS and t not in MISFILED])
def test_theme_decks_are_legal_in_the_format_of_their_release(catalog, formats, tmp_path, name):
    path = VINTAGE / name
    _skip_without_sets(path, catalog)
    fmt = RELEASE_FORMAT[name.split("-")[1]]
    assert _problems(path, catalog, formats, fmt) == []  # the shipped file, as a user checks it


@pytest.mark.parametrize("name", sorted(STARTERS))
def test_starter_sets_are_reported_as_61_cards(catalog, formats, tmp_path, name):
    path = VINTAGE / name
    fmt = RELEASE_FORMAT[name.split("-")[1]]
    assert _problems(with_printings(path, catalog, formats, fmt, tmp_path), catalog, formats, fmt) == [
        (6, "deck-size", "the deck holds 61 cards; exactly 60 needed")
    ]


def test_thunderstorm_is_not_a_base_fossil_deck(catalog, formats, tmp_path):
    path = VINTAGE / "theme-base4-thunderstorm.txt"
    written = with_printings(path, catalog, formats, "pokemon-base-fossil", tmp_path)
    assert _problems(written, catalog, formats, "pokemon-base-fossil") == [
        (
            line,
            "allowed-sets",
            f'"{name}" ({cid}) is from set {cid.split("-")[0]}; pokemon-base-fossil allows only base1, base2, base3, base4, basep',
        )
        for line, name, cid in [
            (8, "Lt. Surge's Voltorb", "gym1-84"),
            (13, "Misty's Poliwag", "gym1-87"),
            (15, "Psyduck", "base5-65"),  # the header names Team Rocket's Psyduck
            (25, "Misty's Wrath", "gym1-114"),
            (33, "Full Heal Energy", "base5-81"),
            (34, "Potion Energy", "base5-82"),
        ]
    ]
    assert _problems(with_printings(path, catalog, formats, "pokemon-base-gym", tmp_path), catalog, formats, "pokemon-base-gym") == []


@pytest.mark.parametrize(("name", "fmt"), sorted(TOURNAMENT.items()))
def test_tournament_lists_are_legal_in_their_format(catalog, formats, tmp_path, name, fmt):
    path = VINTAGE / name
    assert _problems(with_printings(path, catalog, formats, fmt, tmp_path), catalog, formats, fmt) == []


@pytest.mark.parametrize("name", sorted(THEMES + list(TOURNAMENT)))
def test_every_line_resolves_or_gets_a_suggestion(catalog, formats, name):
    path = VINTAGE / name
    _skip_without_sets(path, catalog)
    fmt = TOURNAMENT.get(name) or RELEASE_FORMAT[name.split("-")[1]]
    if name in MISFILED:
        fmt = "pokemon-base-gym"
    deck = load_deck(path, catalog, formats, fmt)
    for p in deck.problems:
        assert p.rule == "ambiguous-card", p
        assert "; add the set and number, e.g. " in p.message
    wanted = {cid for _n, _name, cid in intended(path)}
    for p in deck.problems:  # the intended printing is one of the choices (or another printing of it)
        choices = set(re.findall(r"\(([a-z0-9]+-\d+)\)", p.message))
        assert {catalog.oracle_of(c) for c in choices} & {catalog.oracle_of(c) for c in wanted}, p.message
    resolved = {c.card_id for c in deck.cards}
    assert {catalog.oracle_of(c) for c in resolved} <= {catalog.oracle_of(c) for c in wanted}


@pytest.mark.parametrize(("line", "card_id"), [("12 Lightning Energy", "base1-100"), ("3 PlusPower", "base1-84")])
def test_haymaker_lines(catalog, formats, line, card_id):
    deck = load_deck(VINTAGE / "1999-10-berkeley-the-better-haymaker.txt", catalog, formats, "pokemon-base-fossil")
    count, name = line.split(" ", 1)
    [card] = [c for c in deck.cards if c.name == name]
    assert (card.count, card.card_id) == (int(count), card_id)


@pytest.mark.parametrize(
    ("text", "card_id", "message"),
    [
        (
            "12 Electric Energy",
            None,
            # English names first: Zapdos came through its French name, Électhor
            'unknown card "Electric Energy"; did you mean "Lightning Energy", "Double Colorless Energy", "Electrode"?',
        ),
        ("x4 Pluspower", "base1-84", None),
        ("4 Pluspower", "base1-84", None),
        ("4 PLUSPOWER", "base1-84", None),
        ("4 Plus Power", "base1-84", None),  # typed without its space: the one folding finds it
        ("4 Pokemon Trader", "base1-77", None),
        ("2 Farfetchd", "base1-27", None),
    ],
)
def test_loosely_written_lines(catalog, formats, tmp_path, text, card_id, message):
    path = tmp_path / "deck.txt"
    path.write_text(text + "\n", encoding="utf-8")
    deck = load_deck(path, catalog, formats, "pokemon-base-fossil")
    if card_id:
        assert [c.card_id for c in deck.cards] == [card_id] and deck.problems == []
    else:
        assert [(p.rule, p.message) for p in deck.problems] == [("unknown-card", message)]


def test_cli_notes_the_printing_it_assumes_for_a_bare_name(runner, tmp_path):
    """The Rain Dance list as its source writes it (without the header's card ids) names Lapras bare:
    Fossil's holo and plain Lapras differ in level (two cards), but the same to every rule of
    Base-Fossil, so a judge assumes one and the list is legal; the assumption is a note."""
    path = tmp_path / "rain-dance.txt"
    lines = [
        ln
        for ln in (VINTAGE / "base-fossil-ptcgarchive-rain-dance.txt").read_text(encoding="utf-8").splitlines()
        if not ln.startswith("# cardlab:")
    ]
    path.write_text("\n".join(ln.split(" base3-")[0] for ln in lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "validate", str(path), "--format", "pokemon-base-fossil"])
    assert result.exit_code == 0
    assert f"{path}:16: note: 1 Lapras: Fossil 10 assumed (also Fossil 25)" in result.stderr
    assert "ambiguous-card" not in result.stderr
