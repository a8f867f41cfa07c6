"""cardlab.catalog.formats: the shipped formats, and bad format files reported with their positions."""

from pathlib import Path

import pytest

from cardlab.catalog.validate import check_formats, load_format, load_formats
from cardlab.core.errors import DataError
from cardlab.core.paths import shipped_catalog
from cardlab.decks.rules import RULES, describe


@pytest.fixture(scope="module")
def formats():
    return load_formats([shipped_catalog()])


def test_shipped_formats(formats):
    assert list(formats) == [
        "forumtcg-list",
        "ippo-10-rounds",
        "ippo-4-rounds",
        "monpa",
        "pokemon-base",
        "pokemon-base-fossil",
        "pokemon-base-gym",
        "pokemon-base-jungle",
        "pokemon-base-rocket",
        "pokemon-prop-15-3",
        "pokemon-unlimited",
    ]
    assert {f.game for f in formats.values()} == {"pokemon", "ippo", "monpa", "forumtcg"}


def _rule(fmt, rule_id, **match):
    found = [r for r in fmt.rules if r.rule == rule_id and all(r.params.get(k) == v for k, v in match.items())]
    assert len(found) == 1, (fmt.name, rule_id, match)
    return found[0]


def test_pokemon_formats(formats):
    for name in ("pokemon-base", "pokemon-unlimited"):
        fmt = formats[name]
        assert _rule(fmt, "deck-size").params["size"] == 60
        copies = _rule(fmt, "copy-limit").params
        assert copies["max"] == 4 and copies["same"] == "name" and copies["exempt"] == [{"energy_type": "basic"}]
        assert _rule(fmt, "require").params["where"] == {"supertype": "Pokémon", "stage": "Basic"}
        assert fmt.opening_hand == 7
        assert all("seed 001" in r.source for r in fmt.rules if r.rule != "allowed-sets")
    assert formats["pokemon-base"].allowed_sets == {"base1"}
    assert formats["pokemon-unlimited"].allowed_sets is None


@pytest.mark.parametrize(
    ("name", "sets", "ranges", "copies"),
    [
        ("pokemon-base-jungle", {"base1", "base2"}, {}, 4),
        ("pokemon-base-fossil", {"base1", "base2", "base3", "base4", "basep"}, {"basep": (1, 9)}, 4),
        ("pokemon-base-rocket", {"base1", "base2", "base3", "base4", "base5", "basep"}, {}, 4),
        ("pokemon-base-gym", {"base1", "base2", "base3", "base4", "base5", "gym1", "gym2", "basep"}, {}, 4),
        ("pokemon-prop-15-3", {"base1", "base2", "base3", "base4", "base5", "gym1", "gym2", "basep"}, {"basep": (1, 24)}, 3),
    ],
)
def test_vintage_formats(formats, name, sets, ranges, copies):
    fmt = formats[name]
    assert fmt.allowed_sets == sets and fmt.number_ranges == ranges
    assert _rule(fmt, "deck-size").params["size"] == 60
    params = _rule(fmt, "copy-limit").params
    assert (params["max"], params["same"], params["exempt"]) == (copies, "name", [{"energy_type": "basic"}])
    assert _rule(fmt, "require").params["where"] == {"supertype": "Pokémon", "stage": "Basic"}
    assert fmt.source and all(r.source for r in fmt.rules)
    assert "http" in fmt.source and all("http" in r.source or "seed 001" in r.source for r in fmt.rules)


def test_vintage_bans_and_caps(formats):
    assert _rule(formats["pokemon-base-gym"], "banned").params["cards"] == ["basep-24"]
    assert "Ancient Mew" in _rule(formats["pokemon-base-gym"], "banned").source
    cap = _rule(formats["pokemon-prop-15-3"], "max-cards").params
    assert (cap["max"], cap["where"], cap["label"]) == (15, {"supertype": "Trainer"}, "Trainer cards")
    assert describe(_rule(formats["pokemon-prop-15-3"], "max-cards")) == "at most 15 Trainer cards (supertype Trainer) in main"
    assert describe(_rule(formats["pokemon-base-fossil"], "number-range")) == "basep cards only numbered 1 to 9"
    assert describe(_rule(formats["pokemon-base-gym"], "banned")) == (
        "not legal: basep-24 (Birthday Pikachu, banned upon its release in September 2000)"
    )
    for name in ("pokemon-base-fossil", "pokemon-base-rocket", "pokemon-base-jungle", "pokemon-prop-15-3", "pokemon-unlimited"):
        assert not [r for r in formats[name].rules if r.rule == "banned"]


def test_ippo_formats(formats):
    assert _rule(formats["ippo-10-rounds"], "deck-size").params["size"] == 60
    assert _rule(formats["ippo-4-rounds"], "deck-size").params["size"] == 40
    for name in ("ippo-10-rounds", "ippo-4-rounds"):
        params = _rule(formats[name], "copy-limit").params
        assert (params["max"], params["same"]) == (4, "number")
        assert "seed 003" in _rule(formats[name], "copy-limit").source
    assert "seed 000" in _rule(formats["ippo-4-rounds"], "deck-size").source


def test_monpa_format(formats):
    fmt = formats["monpa"]
    assert [s.id for s in fmt.sections] == ["main", "commander", "favor"]
    assert _rule(fmt, "deck-size").params["size"] == 40
    assert _rule(fmt, "section-size", section="commander").params["size"] == 1
    assert _rule(fmt, "section-size", section="favor").params["size"] == 1
    assert _rule(fmt, "copy-limit").params["max"] == 3
    assert _rule(fmt, "section-cards", section="main").params["deny"] == {"type": ["commander", "favor"]}
    assert all("seed 004" in r.source for r in fmt.rules)
    assert fmt.header_words()["commandant"] == ("commander", False)
    assert fmt.header_words()["servant"] == ("main", True)


def test_every_rule_is_described(formats):
    for fmt in formats.values():
        for spec in fmt.rules:
            assert spec.rule in RULES
            assert describe(spec) != spec.rule
    text = describe(_rule(formats["pokemon-base"], "copy-limit"))
    assert text == "at most 4 copies of a card by name; no limit for energy_type basic"


def _write(tmp_path: Path, name: str, text: str, game: str = "pokemon") -> Path:
    path = tmp_path / game / "formats" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """name: mini
game: pokemon
title: Mini
sections:
  - id: main
rules:
  - rule: deck-size
    size: 30
"""


def test_a_new_format_is_a_file(tmp_path):
    _write(tmp_path, "mini", GOOD)
    found = load_formats([tmp_path])
    assert list(found) == ["mini"]
    assert found["mini"].rules[0].params == {"size": 30}


@pytest.mark.parametrize(
    ("text", "line", "col", "rule", "message"),
    [
        (GOOD.replace("size: 30", "size: thirty"), 8, 11, "schema", 'rules.0.size: expected an integer, found "thirty" (text)'),
        (GOOD.replace("rule: deck-size", "rule: max-copies"), 7, 11, "schema", 'rules.0.rule: "max-copies" is not one of'),
        (GOOD.replace("name: mini", "name: other"), 1, 7, "format-name", "name 'other' should be the file name 'mini'"),
        (GOOD.replace("game: pokemon", "game: ippo"), 2, 7, "format-game", "game 'ippo' does not match the folder 'pokemon'"),
        (GOOD.replace("size: 30", "size: 30\n    section: sideboard"), 9, 14, "format-section", "no section 'sideboard'"),
        (GOOD.replace("  - id: main", "  - id: deck"), 5, 9, "format-section", "the first section is the main deck"),
        (GOOD + "  - rule: copy-limit\n    max: 4\n", 9, 5, "schema", "missing field 'same'"),
    ],
)
def test_bad_format_files(tmp_path, text, line, col, rule, message):
    path = _write(tmp_path, "mini", text)
    fmt, problems = load_format(path, "pokemon")
    assert fmt is None
    assert len(problems) == 1, problems
    p = problems[0]
    assert (p.pos.path, p.pos.line, p.pos.col, p.rule) == (path, line, col, rule)
    assert message in p.message
    with pytest.raises(DataError):
        load_formats([tmp_path])


def test_duplicate_format_name(tmp_path):
    _write(tmp_path, "mini", GOOD)
    second = tmp_path / "other"
    _write(second, "mini", GOOD)
    found, problems = check_formats([tmp_path, second])
    assert list(found) == ["mini"]
    assert [p.rule for p in problems] == ["unique-format"]


def test_yaml_syntax_error(tmp_path):
    path = _write(tmp_path, "mini", "name: [mini\n")
    fmt, problems = load_format(path, "pokemon")
    assert fmt is None and problems[0].rule == "yaml" and problems[0].pos.line >= 1
