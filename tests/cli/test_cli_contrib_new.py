"""``cardlab card new`` as a new contributor meets it: where it may write, the Pokémon skeleton,
what an untouched skeleton reports, the default kind, names without Latin letters, wording."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from cardlab.catalog.validate import validate
from cardlab.cli.whole import app
from cardlab.contrib import new_card as contrib
from cardlab.core import paths as paths
from cardlab.core.errors import UsageError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "catalog"


@pytest.fixture
def catalog_copy(tmp_path) -> Path:
    """A private catalog root holding the fictional Ippo, Monpa and Pokémon test sets."""
    root = tmp_path / "catalog"
    for game in ("ippo", "monpa", "pokemon"):
        shutil.copytree(FIXTURES / game, root / game)
    return root


@pytest.fixture
def installed(tmp_path, monkeypatch) -> Path:
    """A catalog laid out as a wheel install ships it (``.../cardlab/_data/cards``), made the
    shipped catalog; returns that folder."""
    shipped = tmp_path / "site-packages" / "cardlab" / "_data" / "cards"
    shutil.copytree(FIXTURES / "ippo", shipped / "ippo")
    monkeypatch.setattr(paths, "shipped_catalog_folder", lambda: str(shipped))
    return shipped


def _new(runner, *args: str):  # noqa: ANN202 - a click Result
    return runner.invoke(app, ["card", "new", *args])


# --- 1. never into an installed package ---------------------------------------------------------


def test_card_new_refuses_the_catalog_of_an_installed_package(runner, installed):
    result = _new(runner, "--set", "ippo-test", "--number", "20", "--slug", "test-wall")
    assert result.exit_code == 2, result.output
    assert "installed with the cardlab package" in result.stderr
    assert "--catalog shipped --catalog ~/mine" in result.stderr and "cards/ folder of a cardlab checkout" in result.stderr
    assert not list(installed.rglob("20-*")) and not list(installed.rglob(".*.tmp"))


def test_card_new_beside_an_installed_package_goes_to_the_personal_catalog(runner, installed, tmp_path):
    """The way the refusal offers: a personal catalog after the shipped one takes the new card (issue 33)."""
    mine = tmp_path / "mine"
    mine.mkdir()
    result = _new(runner, "--set", "ippo-test", "--number", "20", "--slug", "test-wall", "--catalog", "shipped", "--catalog", str(mine))
    assert result.exit_code == 0, result.output
    assert sorted(p.relative_to(mine).as_posix() for p in mine.rglob("*.yaml")) == ["ippo/ippo-test/20-test-wall.yaml"]
    assert not list(installed.rglob("20-*"))


def test_card_new_into_a_checkout_and_with_catalog_still_works(runner, tmp_path, monkeypatch, installed, catalog_copy):
    result = _new(runner, "--catalog", str(catalog_copy), "--set", "ippo-test", "--number", "20", "--slug", "test-wall")
    assert result.exit_code == 0, result.output
    assert (catalog_copy / "ippo" / "ippo-test" / "20-test-wall.yaml").is_file()
    checkout = tmp_path / "checkout" / "cards"  # an editable install: the shipped catalog is the repo's cards/
    shutil.copytree(FIXTURES / "ippo", checkout / "ippo")
    monkeypatch.setattr(paths, "shipped_catalog_folder", lambda: str(checkout))
    result = _new(runner, "--set", "ippo-test", "--number", "21", "--slug", "test-guard")
    assert result.exit_code == 0, result.output
    assert (checkout / "ippo" / "ippo-test" / "21-test-guard.yaml").is_file()


# --- 2. the Pokémon skeleton, and what an untouched skeleton reports ------------------------------


@pytest.mark.parametrize("kind", ["pokemon", "trainer", "energy"])
def test_pokemon_skeleton_has_the_real_fields_each_with_a_comment(kind):
    text = contrib.skeleton("pokemon", kind, card_id="base1-200", number="200", source="en")
    assert "Add the other fields" not in text
    data = yaml.safe_load(text)
    assert data["supertype"] == {"pokemon": "Pokémon", "trainer": "Trainer", "energy": "Energy"}[kind]
    assert data["name"] == {"en": ""}
    fields = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert [ln for ln in fields if "#" not in ln] == []  # every field says what goes there
    if kind == "pokemon":
        assert {"stage", "hp", "types", "attacks", "weaknesses", "resistances", "retreat_cost", "rarity", "illustrator"} <= set(data)
        assert set(data["attacks"][0]) == {"name", "cost", "damage", "text"}


def test_untouched_pokemon_skeleton_gives_positioned_problems(runner, catalog_copy):
    result = _new(runner, "--catalog", str(catalog_copy), "--set", "test1", "--number", "9")
    assert result.exit_code == 0, result.output
    path = catalog_copy / "pokemon" / "test1" / "9-card.yaml"
    assert path.read_text(encoding="utf-8").startswith("# A new Pokémon card of set test1 (kind pokemon: the default")
    checked = runner.invoke(app, ["validate", "--catalog", str(catalog_copy), str(path)])
    assert checked.exit_code == 1, checked.output  # problems, not a crash
    assert "9-card.yaml:9:7: name.en: " in checked.stderr
    assert "9-card.yaml:21:16: attacks.0.name.en: " in checked.stderr
    assert "(schema)" in checked.stderr and "Traceback" not in checked.output


@pytest.mark.parametrize(
    ("kind", "fill"),
    [
        (
            "pokemon",
            {
                "name.en": "Newmon",
                "stage": "Basic",
                "hp": 50,
                "types": ["Water"],
                "attacks.0.name.en": "Splash",
                "attacks.0.cost": ["Water"],
                "attacks.0.damage": "10",
                "attacks.0.text.en": "Nothing else happens.",
                "weaknesses": [],
                "resistances": [],
                "retreat_cost": 1,
                "rarity": "Common",
                "illustrator": "Nobody Real",
            },
        ),
        ("trainer", {"name.en": "Test Tool", "text.en": "Draw a card.", "rarity": "Uncommon", "illustrator": "Nobody Real"}),
        ("energy", {"name.en": "Test Water Energy", "energy_type": "basic", "provides": ["Water"]}),
    ],
)
def test_filled_in_pokemon_skeleton_validates(catalog_copy, kind, fill):
    from ruamel.yaml import YAML

    path = contrib.new_card(contrib.load([catalog_copy]), "test1", "9", kind=kind, slug=f"new-{kind}")
    yml = YAML()
    data = yml.load(path.read_text(encoding="utf-8"))
    for dotted, value in {"notes": "fictional test card", **fill}.items():
        node, *keys = data, *dotted.split(".")
        for key in keys[:-1]:
            node = node[int(key)] if key.isdigit() else node[key]
        node[keys[-1]] = value
    with path.open("w", encoding="utf-8") as out:
        yml.dump(data, out)
    assert validate([catalog_copy], cache_path=None).problems == []


# --- 3. the default kind is said --------------------------------------------------------------


def test_help_says_the_default_kind(runner, catalog_copy):
    """The help lists no game (a new game needs no edit here): the default is the game's first kind,
    and a wrong kind's error lists the game's kinds."""
    result = runner.invoke(app, ["card", "new", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "Card kind, one of the set's game (default: its first; another kind's error lists them)" in text
    wrong = _new(runner, "--catalog", str(catalog_copy), "--set", "test1", "--number", "9", "--kind", "servant")
    assert wrong.exit_code == 2
    assert "unknown kind 'servant' for Pokémon cards; choose one of pokemon, trainer, energy" in " ".join(wrong.stderr.split())
    assert "Latin script" in text  # --name gives the file name only for Latin-script names


def test_skeleton_says_which_kind_was_taken_by_default(catalog_copy):
    cat = contrib.load([catalog_copy])
    default = contrib.new_card(cat, "ippo-test", "20", slug="a").read_text(encoding="utf-8")
    assert default.splitlines()[0] == "# A new Ippo card of set ippo-test (kind blow: the default; --kind chooses another)."
    chosen = contrib.new_card(cat, "monpa-test", "20", kind="spell", slug="b").read_text(encoding="utf-8")
    assert chosen.splitlines()[0] == "# A new Monpa card of set monpa-test (kind spell)."


# --- 4. names without Latin letters ----------------------------------------------------------


def test_japanese_name_without_slug_is_refused(runner, catalog_copy):
    result = _new(runner, "--catalog", str(catalog_copy), "--set", "ippo-test", "--number", "20", "--name", "テストジャブ")
    assert result.exit_code == 2
    assert "no Latin letters" in result.stderr and "--slug" in result.stderr
    assert not list((catalog_copy / "ippo" / "ippo-test").glob("20-*"))
    with pytest.raises(UsageError, match="--slug"):
        contrib.new_card(contrib.load([catalog_copy]), "ippo-test", "20", name="テスト", slug="テスト")
    result = _new(
        runner, "--catalog", str(catalog_copy), "--set", "ippo-test", "--number", "20", "--name", "テストジャブ", "--slug", "test-jab"
    )
    assert result.exit_code == 0, result.output
    path = catalog_copy / "ippo" / "ippo-test" / "20-test-jab.yaml"
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["name"] == {"ja": "テストジャブ"}


# --- 5. wording ------------------------------------------------------------------------------


def test_messages_name_the_game_and_cite_no_seed(catalog_copy):
    cat = contrib.load([catalog_copy])
    with pytest.raises(UsageError) as err:
        contrib.new_card(cat, "ippo-test", "163")
    assert "of an Ippo card" in str(err.value) and "from 1 to 162" in str(err.value)
    assert "seed" not in str(err.value)
    with pytest.raises(UsageError, match="for Monpa cards"):
        contrib.new_card(cat, "monpa-test", "20", kind="blow")


@pytest.mark.parametrize(("game", "kind"), [(g, k) for g in ("ippo", "monpa", "pokemon") for k in contrib.skeleton_kinds(g)])
def test_skeletons_cite_no_seed(game, kind):
    text = contrib.skeleton(game, kind, card_id="x-1", number="1", source="en")
    assert "seed" not in text.lower()


def test_sets_shows_secret_rares_beyond_the_printed_total(runner):
    """Team Rocket prints 82 but numbers 83 (a secret rare): 83/82+1, nothing missing."""
    result = runner.invoke(app, ["sets"])
    assert result.exit_code == 0
    row = next(line for line in result.stdout.splitlines() if " base5 " in f" {line} ")
    assert row.split()[:3] == ["pokemon", "base5", "83/82+1"]
    missing = runner.invoke(app, ["sets", "base5", "--missing"])
    assert missing.exit_code == 0 and "83" not in missing.stdout.split("missing")[-1]
