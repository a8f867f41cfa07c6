"""Issue 27: the era's real lists as players paste them (bare names, header comments removed) get the
verdict a judge of their format would give, the same from every door: the library's one checker
(:func:`cardlab.decks.check.check_list`), ``cardlab deck validate`` (CliRunner, and once as a real
process), ``POST /api/decks/validate`` and the deck page (``POST /deck``).

The lists are ``examples/decks/vintage/`` and, beside a checkout, ``../shared/decks/vintage/`` (the
same lists as their sources wrote them; skipped elsewhere), each with its ``#`` lines removed and the
card ids our copies append to some lines cut off, so that nothing but the names is left.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from cardlab.catalog.validate import load_formats, validate
from cardlab.cli.whole import app
from cardlab.core.paths import shipped_catalog
from cardlab.decks.check import check_list, header_words
from cardlab.decks.read import parse_deck_text
from tests.data.test_vintage_decks import RELEASE_FORMAT, STARTERS, TOURNAMENT

REPO = Path(__file__).resolve().parents[2]
VINTAGE = REPO / "examples" / "decks" / "vintage"
SHARED = REPO.parent / "shared" / "decks" / "vintage"
# filed under base4 by pokemon-tcg-data but made of Gym Heroes and Team Rocket cards (the shared
# format notes, section 3): its format is Base-Gym
THUNDERSTORM = "theme-base4-thunderstorm.txt"
NAMES = sorted(p.name for p in VINTAGE.glob("*.txt"))


def format_of(name: str) -> str:
    """The format a list was played in: its tournament's, else its release's."""
    if name == THUNDERSTORM:
        return "pokemon-base-gym"
    return TOURNAMENT.get(name) or RELEASE_FORMAT[name.split("-")[1]]


def bare(path: Path) -> str:
    """A list as a player pastes it: no ``#`` line, no card id after a name."""
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    return "\n".join(re.sub(r"\s+[a-z0-9]+-\d+$", "", ln) for ln in lines) + "\n"


def expected(name: str) -> list[tuple[str, str]]:
    """What a judge says: nothing for a 60-card list, the size for the two 61-card starter sets."""
    return [("deck-size", "the deck holds 61 cards; exactly 60 needed")] if name in STARTERS else []


@pytest.fixture(scope="module")
def catalog():
    return validate([shipped_catalog()], cache_path=None).catalog


@pytest.fixture(scope="module")
def formats():
    return load_formats([shipped_catalog()])


def test_every_copy_is_bare_once_stripped():
    for name in NAMES:
        text = bare(VINTAGE / name)
        assert not re.search(r"[a-z0-9]+-\d+\s*$", text, re.M), name
        assert sum(int(ln.split(" ", 1)[0]) for ln in text.splitlines() if ln) == (61 if name in STARTERS else 60), name


@pytest.mark.parametrize("name", NAMES)
def test_library_gives_the_judges_verdict(catalog, formats, name):
    deck_list = parse_deck_text(bare(VINTAGE / name), name, header_words(formats))
    report = check_list(deck_list, catalog, formats, format_of(name))
    assert [(p.rule, p.message) for p in report.best.problems] == expected(name)
    assert all(p.rule == "assumed-printing" for p in report.best.deck.notes)


@pytest.mark.parametrize("name", sorted(p.name for p in SHARED.glob("*.txt")) if SHARED.is_dir() else [])
def test_the_shared_lists_as_their_sources_wrote_them(catalog, formats, name):
    deck_list = parse_deck_text(bare(SHARED / name), name, header_words(formats))
    report = check_list(deck_list, catalog, formats, format_of(name))
    assert [(p.rule, p.message) for p in report.best.problems] == expected(name)


def test_shared_lists_are_beside_the_checkout_or_skipped():
    if not SHARED.is_dir():
        pytest.skip("../shared/decks/vintage is not beside the checkout")
    assert sorted(p.name for p in SHARED.glob("*.txt")) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_cli_gives_the_judges_verdict(tmp_path, name):
    from typer.testing import CliRunner

    path = tmp_path / name
    path.write_text(bare(VINTAGE / name), encoding="utf-8")
    result = CliRunner().invoke(app, ["deck", "validate", str(path), "-f", format_of(name), "-O", "json"])
    data = json.loads(result.stdout)
    assert [(p["rule"], p["message"]) for p in data["problems"]] == expected(name)
    assert result.exit_code == (1 if name in STARTERS else 0)


def test_zap_is_legal_in_every_format_whose_pool_holds_base_set(tmp_path, catalog, formats):
    """Zap! (Base Set cards only) with no format: legal in every format but Prop 15/3 (at most 3
    copies of a card; Zap! holds 4 Pikachu), not in Base Set alone as before."""
    deck_list = parse_deck_text(bare(VINTAGE / "theme-base1-zap.txt"), "zap.txt", header_words(formats))
    report = check_list(deck_list, catalog, formats)
    assert report.surveyed and report.chosen == "pokemon-base"
    assert report.legal_in == [
        "pokemon-base",
        "pokemon-base-fossil",
        "pokemon-base-gym",
        "pokemon-base-jungle",
        "pokemon-base-rocket",
        "pokemon-unlimited",
    ]


def test_haymaker_counts_its_twelve_basic_pokemon(tmp_path):
    """deck stats on Haymaker pasted bare: 4 Hitmonchan, 4 Electabuzz, 2 Lickitung, 2 Doduo are 12
    Basic Pokémon: 1 - C(48,7)/C(60,7) = 80.94 %, not 65.36 % (8 counted)."""
    from typer.testing import CliRunner

    path = tmp_path / "haymaker.txt"
    path.write_text(bare(VINTAGE / "1999-10-berkeley-the-better-haymaker.txt"), encoding="utf-8")
    result = CliRunner().invoke(app, ["deck", "stats", str(path), "-f", "pokemon-base-fossil", "-O", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    [odds] = [o for o in data["odds"] if o["id"] == "opening-basic"]
    assert odds["exact"] == str(1 - Fraction(comb(48, 7), comb(60, 7)))  # 0.8094...
    assert [(n["line"], n["message"]) for n in data["notes"]] == [
        (2, "4 Electabuzz: Base Set 20 assumed (also Wizards Black Star Promos 2)")
    ]


def test_theme_decks_hold_their_basic_pokemon(tmp_path):
    """Lt. Surge's and Misty's theme decks, pasted bare, were told they held no Basic Pokémon: every
    owner's Pokémon now resolves (a Basic among them)."""
    from typer.testing import CliRunner

    for name in ("theme-gym1-lt-surge.txt", "theme-gym1-misty.txt"):
        path = tmp_path / name
        path.write_text(bare(VINTAGE / name), encoding="utf-8")
        result = CliRunner().invoke(app, ["deck", "validate", str(path), "-f", "pokemon-base-gym"])
        assert result.exit_code == 0, (name, result.output)
        assert "Basic Pokémon" not in result.stderr


def test_one_real_process(tmp_path):
    """``cardlab deck validate`` as a real process: exit 0, the verdict on stdout, the assumption
    as a note at its line on stderr."""
    path = tmp_path / "haymaker.txt"
    path.write_text(bare(VINTAGE / "1999-10-berkeley-the-better-haymaker.txt"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "cardlab", "deck", "validate", str(path), "-f", "pokemon-base-fossil"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"legal: {path} under pokemon-base-fossil (60 cards)"
    assert f"{path}:2: note: 4 Electabuzz: Base Set 20 assumed (also Wizards Black Star Promos 2)" in done.stderr


@pytest.mark.parametrize(
    ("name", "chosen"),
    [
        ("theme-base2-water-blast.txt", "pokemon-base-jungle"),
        ("theme-base3-lockdown.txt", "pokemon-base-fossil"),
        ("theme-base5-trouble.txt", "pokemon-base-rocket"),
        ("2000-07-sheffield-babes-and-wiggles.txt", "pokemon-base-rocket"),
    ],
)
def test_the_best_fit_is_the_narrowest_format_the_list_fits(catalog, formats, name, chosen):
    """Without a format, stats, lists and proxies use the narrowest legal format (the fewest
    allowed sets), not the first by name: a Jungle theme deck is a Base-Jungle deck."""
    deck_list = parse_deck_text(bare(VINTAGE / name), name, header_words(formats))
    assert check_list(deck_list, catalog, formats).chosen == chosen


def test_a_sets_printing_comes_before_a_promo(catalog, formats):
    """Thunderstorm's bare "Psyduck" under Base-Gym is Fossil's (base3-53), not promo 20: a promo
    set carries one release date for cards printed over years."""
    deck_list = parse_deck_text(bare(VINTAGE / THUNDERSTORM), THUNDERSTORM, header_words(formats))
    deck = check_list(deck_list, catalog, formats, "pokemon-base-gym").best.deck
    psyducks = [(c.card_id, c.candidates) for c in deck.cards if c.name == "Psyduck"]  # lines 14 and 15
    assert psyducks == [("base3-53", ("base3-53", "base5-65", "basep-20"))] * 2


@pytest.mark.parametrize("written", ["Base-Fossil", "base fossil", "BASE_FOSSIL", "Pokemon Base Fossil"])
def test_a_format_named_as_forums_write_it(catalog, formats, written):
    deck_list = parse_deck_text(f"Format: {written}\n" + bare(VINTAGE / "theme-base3-lockdown.txt"), "d.txt", header_words(formats))
    report = check_list(deck_list, catalog, formats)
    assert (report.surveyed, report.chosen, report.legal) == (False, "pokemon-base-fossil", True)


def test_an_unknown_format_gets_did_you_mean(catalog, formats):
    from cardlab.core.errors import UsageError

    deck_list = parse_deck_text("4 Pikachu\n", "d.txt", header_words(formats))
    with pytest.raises(UsageError, match=r"unknown format 'pokemon-base-fosil'; did you mean pokemon-base-fossil, "):
        check_list(deck_list, catalog, formats, "pokemon-base-fosil")
