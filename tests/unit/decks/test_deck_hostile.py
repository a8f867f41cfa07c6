"""Issue 3, the hostile tester's report on ``cardlab deck``: each numbered finding has a test here
that fails without its fix (library units first, then the CLI)."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from rich.console import Console

from cardlab.cli.whole import app
from cardlab.core.errors import InputError, UsageError
from cardlab.core.paths import shipped_catalog
from cardlab.decks.check import load_deck
from cardlab.decks.lines import split_count
from cardlab.decks.model import Entry
from cardlab.decks.parse_text import parse_text
from cardlab.decks.read import read_deck
from cardlab.decks.resolve import CardIndex, build_deck
from cardlab.decks.rules import check_deck, line_list
from cardlab.decks.stats import deck_kinds, deck_stats, need_kinds

REPO = Path(__file__).resolve().parents[3]
DECKS = REPO / "tests" / "fixtures" / "decks"
ZAP = REPO / "examples" / "decks" / "zap-theme-deck.txt"
MONPA = DECKS / "monpa" / "legal.txt"
ROOTS = [shipped_catalog(), REPO / "tests" / "fixtures" / "catalog"]
TEST_ROOTS = ["--catalog", str(REPO / "cards"), "--catalog", str(REPO / "tests" / "fixtures" / "catalog")]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _odds(stats):
    return {o.id: o.value for o in stats.odds}


def _problems(deck):
    return [(p.pos.line, p.rule, p.message) for p in check_deck(deck)]


def _no_traceback(result):
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stderr


# --- 1, 2: --need kinds ----------------------------------------------------------------------


def test_need_twice_counts_once(catalog, formats):
    deck = load_deck(MONPA, catalog, formats)
    assert _odds(deck_stats(deck, ["servant", "servant"]))["opening-each"] == 1 - Fraction(comb(19, 5), comb(40, 5))
    stats = deck_stats(deck, ["spell", "spell"])
    assert _odds(stats)["opening-each"] == 1 - Fraction(comb(30, 5), comb(40, 5))  # 78.34%
    assert stats.odds[0].label == "at least one spell in the 5-card opening hand"


def test_need_kinds_match_any_case_and_accent(catalog, formats):
    assert need_kinds("pokemon", ["trainer", "TRAINER", "pokemon", "Pokémon"]) == ["Trainer", "Pokémon"]
    stats = deck_stats(load_deck(ZAP, catalog, formats, "pokemon-base"), ["trainer"])
    assert _odds(stats)["opening-each"] == 1 - Fraction(comb(49, 7), comb(60, 7))  # 11 Trainers
    stats = deck_stats(load_deck(ZAP, catalog, formats, "pokemon-base"), ["pokemon"])
    assert _odds(stats)["opening-each"] == 1 - Fraction(comb(39, 7), comb(60, 7))  # 21 Pokémon


def test_unknown_need_kind_is_a_usage_error(catalog, formats):
    with pytest.raises(UsageError, match=r"--need foo: no such kind of pokemon card \(kinds: Pokémon, Trainer, Energy\)") as err:
        deck_stats(load_deck(ZAP, catalog, formats, "pokemon-base"), ["foo"])
    assert err.value.exit_code == 2
    with pytest.raises(UsageError, match=r"kinds: blow, defense, support, fight"):
        need_kinds("ippo", ["servant"])


def test_kinds_are_the_schema_values():
    schemas = {g: json.loads((REPO / "schema" / f"{g}.card.schema.json").read_text(encoding="utf-8")) for g in deck_kinds()}

    def enum(schema, field):
        node = schema["properties"][field]
        return node.get("enum") or schema["$defs"][node["$ref"].rsplit("/", 1)[1]]["enum"]

    for game, (field, kinds) in deck_kinds().items():
        values = enum(schemas[game], field)
        assert set(kinds) <= set(values)
        assert set(values) - set(kinds) <= {"commander", "favor"}  # Monpa's own sections


def test_cli_need(runner):
    ok = runner.invoke(app, ["deck", "stats", str(MONPA), "--need", "servant", "--need", "servant", *TEST_ROOTS])
    assert ok.exit_code == 0, ok.stderr
    _no_traceback(ok)
    bad = runner.invoke(app, ["deck", "stats", str(ZAP), "-f", "pokemon-base", "--need", "foo", *TEST_ROOTS])
    assert bad.exit_code == 2
    assert "error: --need foo: no such kind of pokemon card (kinds: Pokémon, Trainer, Energy)" in bad.stderr
    _no_traceback(bad)


# --- 3: decks smaller than the hand, no kinds ------------------------------------------------


def test_empty_monpa_main_deck_has_no_odds(catalog, formats, tmp_path):
    path = _write(tmp_path, "m.txt", "Format: monpa\nCommander:\n1 Test Commander\nFavor:\n1 Faveur Test\nDeck:\n")
    stats = deck_stats(load_deck(path, catalog, formats))
    assert stats.odds == []
    assert stats.notes == ["the deck holds 0 cards, fewer than the 5-card opening hand: too small for opening odds"]


def test_small_ippo_deck_has_no_odds(catalog, formats, tmp_path):
    stats = deck_stats(load_deck(_write(tmp_path, "i.txt", "Format: ippo-4-rounds\n4 Test Jab\n"), catalog, formats))
    assert (stats.size, stats.odds) == (4, [])
    assert stats.notes == ["the deck holds 4 cards, fewer than the 5-card opening hand: too small for opening odds"]
    assert stats.to_json()["notes"] == stats.notes


def test_monpa_deck_with_no_known_type(catalog, formats, tmp_path):
    path = _write(tmp_path, "m.txt", "Format: monpa\n6 Nothing Such\n")
    stats = deck_stats(load_deck(path, catalog, formats))
    assert stats.odds == [] and stats.notes == ["no card of a known type in the deck: no opening odds"]


def test_cli_small_deck_says_so(runner, tmp_path):
    path = _write(tmp_path, "i.txt", "Format: ippo-4-rounds\n4 Test Jab\n")
    result = runner.invoke(app, ["deck", "stats", str(path), *TEST_ROOTS])
    assert result.exit_code == 1, result.stderr  # stats shown, and the deck is not legal (issue 10 F)
    assert "no odds: the deck holds 4 cards, fewer than the 5-card opening hand" in result.stdout
    assert "5-card hand" not in result.stdout and "C(4," not in result.stdout


# --- 5: YAML decks ---------------------------------------------------------------------------


def test_yaml_bad_item_is_reported_and_the_others_checked(catalog, formats, tmp_path):
    path = _write(tmp_path, "d.yaml", 'format: pokemon-base\nmain:\n  - 4 Pikachu\n  - {count: "4", name: Bill}\n  - 52 Fire Energy\n')
    deck = load_deck(path, catalog, formats)
    assert [(c.line, c.card_id) for c in deck.cards] == [(3, "base1-58"), (5, "base1-98")]
    assert _problems(deck) == [
        (3, "deck-size", "the deck holds 56 cards; exactly 60 needed"),
        (4, "schema", 'main.1.count: expected an integer, found "4" (text)'),
    ]


def test_yaml_format_must_be_a_name(catalog, formats, tmp_path):
    path = _write(tmp_path, "d.yaml", "format: [pokemon-base]\nmain:\n  - 4 Pikachu\n  - 56 Fire Energy\n")
    with pytest.raises(
        UsageError, match=r'd\.yaml:1:9: format: expected text, found \["pokemon-base"\] \(a list\): the format must be a name'
    ):
        load_deck(path, catalog, formats)
    deck = load_deck(path, catalog, formats, "pokemon-base")
    assert _problems(deck) == [(1, "schema", 'format: expected text, found ["pokemon-base"] (a list)')]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- 4 Pikachu\n", "d.yaml:1: a YAML deck is a mapping (name:, format:, main: [...]) but this file holds a list"),
        ("---\n", "d.yaml:1: the file is empty: the deck list holds no cards"),
        ("", "d.yaml:1: the file is empty: the deck list holds no cards"),
        ("format: pokemon-base\n", "d.yaml:1: the deck list holds no cards"),
    ],
)
def test_unreadable_yaml_decks_exit_2(tmp_path, text, message):
    with pytest.raises(InputError) as err:
        read_deck(_write(tmp_path, "d.yaml", text))
    assert str(err.value).startswith(f"{tmp_path}/{message}") and err.value.exit_code == 2


def test_yaml_card_and_name_must_agree(catalog, formats, tmp_path):
    path = _write(
        tmp_path,
        "d.yaml",
        "format: pokemon-base\nmain:\n  - {count: 1, name: Mewtwo, card: base1-58}\n"
        "  - {count: 1, card: base1-58, set: BS, number: '10'}\n"
        "  - {count: 4, name: Pikachu, card: base1-58}\n  - 54 Fire Energy\n",
    )
    deck = load_deck(path, catalog, formats)
    assert [p for p in _problems(deck) if p[1] == "unknown-card"] == [
        (3, "unknown-card", 'base1-58 is "Pikachu", not "Mewtwo"'),
        (4, "unknown-card", 'card base1-58 is "Pikachu" but BS 10 is "Mewtwo" (base1-10)'),
    ]
    assert [c.card_id for c in deck.cards] == ["base1-58", "base1-98"]


def test_yaml_unknown_top_level_key_has_its_line(catalog, formats, tmp_path):
    path = _write(tmp_path, "d.yaml", "format: pokemon-base\nmain: [4 Pikachu, 56 Fire Energy]\nMain: [4 Bill]\n")
    assert _problems(load_deck(path, catalog, formats)) == [
        (3, "schema", "'Main' is not a deck field nor a section (sections are lower-case lists such as main:)")
    ]


# --- 6: empty decks --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["Format: pokemon-base\n", "Format: pokemon-base\nTotal Cards: 0\n", "Pokémon: 0\nTrainer:\n"])
def test_a_list_with_no_card_cannot_be_read(tmp_path, text):
    with pytest.raises(InputError, match=r"deck\.txt:1: the deck list holds no cards") as err:
        read_deck(_write(tmp_path, "deck.txt", text))
    assert err.value.exit_code == 2


def test_cli_empty_decks_exit_2(runner, tmp_path):
    for text in ("# only comments\n", "Format: pokemon-base\n", "Format: pokemon-base\nTotal Cards: 0\n"):
        path = _write(tmp_path, "deck.txt", text)
        result = runner.invoke(app, ["deck", "validate", str(path), "-f", "pokemon-base"])
        assert result.exit_code == 2, text
        assert "the deck list holds no cards" in result.stderr


# --- 7: sideboards ---------------------------------------------------------------------------


def test_sideboard_is_reported_and_not_counted(catalog, formats, tmp_path):
    path = _write(
        tmp_path, "deck.txt", "Format: pokemon-base\n56 Lightning Energy\n4 Pikachu\nSideboard:\n4 Bill\n2 Pikachu\nTotal Cards: 60\n"
    )
    deck = load_deck(path, catalog, formats)
    assert deck.size() == 60
    assert _problems(deck) == [
        (4, "unknown-section", "sideboards are not part of pokemon-base; remove these lines (6 cards on lines 5, 6, not counted)")
    ]


# --- 8: two formats --------------------------------------------------------------------------


def test_conflicting_format_lines(tmp_path):
    deck = parse_text("Format: pokemon-base\nFormat: POKEMON-BASE\n4 Pikachu\nFormat: pokemon-unlimited\n", Path("d.txt"))
    assert deck.format == "pokemon-base"
    assert [(p.pos.line, p.rule, p.message) for p in deck.problems] == [
        (
            4,
            "format-conflict",
            "a second format line names 'pokemon-unlimited' but line 1 names 'pokemon-base' (that one is used); keep one 'Format:' line",
        )
    ]


# --- 12: hints and dialects ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("4x", 'cannot read a count and a card from this line ("4x"); a card line looks like "4 Pikachu"'),
        ("4枚", 'cannot read a count and a card from this line ("4枚"); a card line looks like "4 Pikachu"'),
        ("- {count: 3, name: Bill}", 'this line looks like YAML ("{count: 3, name: Bill}"); a YAML deck file must be named .yaml or .yml'),
        ("Bill", 'no count on this line ("Bill"); write it as "1 Bill"'),
    ],
)
def test_no_count_hints(line, message):
    deck = parse_text(f"4 Pikachu\n{line}\n", Path("d.txt"))
    assert [(p.pos.line, p.rule, p.message) for p in deck.problems] == [(2, "no-count", message)]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("4枚 テストフック", (4, "テストフック")),
        ("テストフック 4枚", (4, "テストフック")),
        ("テストフック×4枚", (4, "テストフック")),
        ("4枚テストフック", (4, "テストフック")),
    ],
)
def test_japanese_counter(line, expected):
    assert split_count(line) == expected


@pytest.mark.parametrize(
    ("text", "card_id"),
    [
        ("BS 58", "base1-58"),
        ("base1 58", "base1-58"),
        ("Pikachu base1-58", "base1-58"),
        ("Pikachu (base1-58)", "base1-58"),
        ("Basic {L} Energy BS 100", "base1-100"),
        ("Basic Lightning Energy BS 100", "base1-100"),
    ],
)
def test_set_number_and_id_dialects(catalog, text, card_id):
    assert CardIndex(catalog, "pokemon").resolve(Entry(1, 1, text), {"base1"}) == (card_id, None, "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Pikachu base1-10", 'base1-10 is "Mewtwo", not "Pikachu"'),
        ("Energy BS 96", 'BS 96 is "Double Colorless Energy", not "Energy"'),
        ("Basic {R} Energy BS 100", 'BS 100 is "Lightning Energy", not "Basic {R} Energy"'),
        ("BS 999", 'no card BS 999 in the catalog ("BS 999")'),
    ],
)
def test_loose_names_still_disagree(catalog, text, message):
    assert CardIndex(catalog, "pokemon").resolve(Entry(1, 1, text), {"base1"}) == (None, message, "unknown-card")


def test_japanese_list_validates(catalog, formats, tmp_path):
    path = _write(tmp_path, "deck.txt", "Format: ippo-4-rounds\n4枚 テストフック\nテストジャブ 4枚\n")
    deck = load_deck(path, catalog, formats)
    assert [(c.count, c.card_id) for c in deck.cards] == [(4, "ippo-test-3"), (4, "ippo-test-1")]


# --- 13: hostile sizes -----------------------------------------------------------------------


def test_suggestions_only_for_the_first_unknown_lines(catalog, formats, monkeypatch):
    import rapidfuzz.process

    calls = []
    real = rapidfuzz.process.extract
    monkeypatch.setattr(rapidfuzz.process, "extract", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    names = [f"Pikachu{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(60)]
    text = "".join(f"1 {n}\n" for n in names) + "1 Pikachuaa\n"
    deck = build_deck(parse_text(text, Path("d.txt")), catalog, formats["pokemon-base"])
    messages = [p.message for p in deck.problems if p.rule == "unknown-card"]
    assert len(calls) == 50  # the 61st line repeats the first name: cached
    assert all("did you mean" in m for m in messages[:50])
    assert messages[50] == 'unknown card "Pikachuby"' and messages[60] == 'unknown card "Pikachuaa"'


def test_copy_limit_lists_ten_lines_at_most(catalog, formats):
    deck = build_deck(parse_text("1 Pikachu\n" * 15 + "45 Fire Energy\n", Path("d.txt")), catalog, formats["pokemon-base"])
    assert _problems(deck) == [(5, "copy-limit", '15 copies of "Pikachu" (limit 4; lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 5 more)')]
    assert line_list([7]) == "line 7" and line_list([1, 2]) == "lines 1, 2"
    assert line_list(range(1, 99_001)).endswith("9, 10 and 98,990 more")


# --- 4, 9, 10, 11, 14: the CLI ---------------------------------------------------------------


def test_deck_list_prints_the_problems(runner, tmp_path):
    path = _write(tmp_path, "deck.txt", "Format: pokemon-base\n52 Lightning Energy\n4 Pikachu\n4 Pikachoo\n")
    result = runner.invoke(app, ["deck", "list", str(path), *TEST_ROOTS])
    assert result.exit_code == 1
    assert f'{path}:4: unknown-card: unknown card "Pikachoo"; did you mean "Pikachu"?' in result.stderr.splitlines()


def test_lang_on_validate_and_stats(runner, tmp_path):
    path = _write(tmp_path, "deck.txt", "Format: pokemon-base\n5 Bill\n51 Fire Energy\n4 Pikachu\n")
    result = runner.invoke(app, ["deck", "validate", str(path), "--lang", "fr", *TEST_ROOTS])
    assert result.exit_code == 1
    assert f"{path}:2: copy-limit: 5 exemplaires de « Léo » (limite 4)" in result.stderr.splitlines()
    result = runner.invoke(app, ["deck", "validate", str(path), "--lang", "en", *TEST_ROOTS])
    assert f'{path}:2: copy-limit: 5 copies of "Bill" (limit 4)' in result.stderr.splitlines()
    unknown = runner.invoke(app, ["deck", "validate", str(path), "--lang", "xx", *TEST_ROOTS])
    assert unknown.exit_code == 2
    assert "--lang: unknown language 'xx'; cardlab knows en (English), fr (Français), de (Deutsch)" in unknown.stderr
    assert runner.invoke(app, ["deck", "stats", str(path), "--lang", "fr", *TEST_ROOTS]).exit_code == 1  # illegal deck
    for command in ("validate", "stats", "list"):
        bad = runner.invoke(app, ["deck", command, str(path), "--lang", "f r", *TEST_ROOTS])
        assert bad.exit_code == 2 and "'f r' is not a language code" in bad.stderr, command
        _no_traceback(bad)


def test_lang_keeps_same_name_rules(catalog, formats, tmp_path):
    # "same name" compares one name whatever the language shown (Bill in English and in French)
    path = _write(tmp_path, "deck.txt", "Format: pokemon-base\n3 Bill\n2 Léo\n51 Fire Energy\n4 Pikachu\n")
    deck = load_deck(path, catalog, formats, langs=["fr"])
    assert _problems(deck) == [(3, "copy-limit", '5 copies of "Léo" (limit 4; lines 2, 3)')]


def test_format_name_any_case(runner, catalog, formats):
    result = runner.invoke(app, ["deck", "validate", str(ZAP), "-f", "POKEMON-BASE", *TEST_ROOTS])
    assert result.exit_code == 0, result.stderr
    assert "under pokemon-base" in result.stdout


@pytest.mark.parametrize(
    ("command", "name", "code"),
    [
        ("validate", "nope.txt", 2),
        ("stats", "nope.txt", 2),
        ("list", "nope.txt", 2),
        ("validate", "empty.txt", 2),
    ],
)
def test_json_errors(runner, tmp_path, command, name, code):
    _write(tmp_path, "empty.txt", "")
    result = runner.invoke(app, ["deck", command, str(tmp_path / name), "-f", "pokemon-base", "--output-format", "json", *TEST_ROOTS])
    assert result.exit_code == code
    data = json.loads(result.stdout)
    assert data["ok"] is False and data["exit_code"] == code and str(tmp_path / name) in data["error"]


def test_formats_not_hard_wrapped_when_piped(runner, monkeypatch):
    from cardlab.catalog.validate import load_formats as load
    from cardlab.render.decks import print_formats

    out = io.StringIO()
    print_formats(list(load([shipped_catalog()]).values()), Console(file=out, width=40))
    source = "seed 001: at most 4 copies of a card other than basic Energy; two cards are the same when they have the same name, whatever their art or set"
    assert f"    {source}" in out.getvalue().splitlines()
    monkeypatch.setenv("COLUMNS", "40")
    result = runner.invoke(app, ["formats", "--game", "monpa"])
    assert "  - section-cards: no commanders and favors in main (type commander or favor)" in result.stdout.splitlines()


def test_a_card_index_remembers_a_bounded_number_of_set_codes(catalog, monkeypatch):
    """Made-up set codes, deck after deck, do not grow a server's card index without bound."""
    from cardlab.decks import resolve

    monkeypatch.setattr(resolve, "MAX_CODES", 8)
    index = CardIndex(catalog, "pokemon")
    for i in range(20):
        found, message, rule = index.resolve(Entry(1, 1, f"Pikachu ZQ{i} 58"), {"base1"})
        assert (found, rule) == (None, "unknown-card") and f'unknown set code "ZQ{i}"' in message
        assert len(index._codes) <= 8
    assert index.resolve(Entry(1, 1, "Pikachu BS 58"), {"base1"}) == ("base1-58", None, "")
    assert index._codes["BS"] is catalog.find_set("BS")


def test_a_card_index_remembers_a_bounded_number_of_collector_numbers(catalog, monkeypatch):
    """Made-up collector numbers of a real set, deck after deck, do not grow the index without
    bound either; a number it forgot is found again."""
    from cardlab.decks import resolve

    monkeypatch.setattr(resolve, "MAX_CODES", 8)
    index = CardIndex(catalog, "pokemon")
    for i in range(1000, 1020):
        assert index.resolve(Entry(1, 1, f"BS {i}"), {"base1"}) == (None, f'no card BS {i} in the catalog ("BS {i}")', "unknown-card")
        assert len(index._numbers) <= 8
    assert index.resolve(Entry(1, 1, "Pikachu BS 058"), {"base1"}) == ("base1-58", None, "")
    assert index._numbers[("base1", "058")] == "base1-58"
    assert index.resolve(Entry(1, 1, "Pikachu BS ５８"), {"base1"}) == ("base1-58", None, "")


def test_a_printed_total_of_5000_digits_is_no_card(catalog):
    """``Pikachu 1/`` and 5,000 digits: no set has that printed total (it was a ValueError past
    Python's integer conversion limit)."""
    text = "Pikachu 1/" + "9" * 5000
    found, message, rule = CardIndex(catalog, "pokemon").resolve(Entry(1, 1, text))
    assert (found, rule) == (None, "unknown-card")
    assert message == f'unknown card "Pikachu 1/{"9" * 30}…" (5,010 characters; no card\'s name is so long)'
    text = "Pikachu 1/" + "9" * 200  # under the line limit: the printed total read, capped
    found, message, rule = CardIndex(catalog, "pokemon").resolve(Entry(1, 1, text))
    assert (found, rule, message) == (None, "unknown-card", f'no card 1/{10**18} in the catalog ("{text}")')
