"""The problem sentences in the player's language (issue 32, item 1): query errors, deck problems,
unreadable input files and the usage line, in French with no English word left but names, and
German and Italian spot checks. The detector is tests/english_words.py's."""

from __future__ import annotations

import pytest

from cardlab.cli.whole import app
from tests.english_words import leftover

DECK = "Pokemon: 3\n4 Pikachoo\n2 Pikachu BS 100\nSideboard:\n1 Bill\n"
"""A text list with a header total its lines contradict, an unknown card, a number naming another
card and a sideboard the format does not have."""


def run(runner, argv):
    result = runner.invoke(app, argv)
    return result.exit_code, result.stdout + result.stderr


SORT = {"sort", "key", "number", "name", "set", "rarity", "artist", "hp"}
"""The words of ``--sort KEY (number, name, ...)``: an option and its values, syntax."""


@pytest.mark.parametrize(
    ("query", "sentence", "syntax"),
    [
        ("is:1st", "erreur: is:1st demande une édition (1re édition, sans ombre, illimitée)", set()),
        ("hp>abc", "erreur: 'hp' prend un nombre, pas 'abc'\n", {"hp"}),
        ("name:", "erreur: 'name:' veut une valeur\n", {"name"}),
        ("(type:fire", "erreur: cette parenthèse n'est jamais fermée\n", set()),
        ("type:fire or", "erreur: 'or' veut un terme de chaque côté\n", {"or"}),
        ('"fire', "erreur: ce guillemet n'est jamais fermé\n", set()),
        ("order:name", "erreur: 'order:' règle l'ordre des résultats, pas un filtre dans cardlab : indiquez --sort KEY", SORT | {"order"}),
    ],
)
def test_a_query_error_in_french(runner, query, sentence, syntax):
    code, out = run(runner, ["search", query, "--lang", "fr"])
    assert code == 2
    out = out[out.index("erreur: ") :]  # after the index's build line, on a first run
    assert out.startswith(sentence)
    message, echoed, _caret = out.splitlines()
    assert echoed == query  # the query as typed, under it the caret
    assert leftover(message.replace(query, " "), syntax) == set()  # the query quoted is the player's


def test_deck_problems_in_french_quote_the_french_way(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.txt").write_text(DECK, encoding="utf-8")
    code, out = run(runner, ["deck", "validate", "d.txt", "-f", "pokemon-base", "--lang", "fr"])
    assert code == 1
    assert "d.txt:1: section-total: « Pokemon: 3 » annonce 3 cartes mais ses lignes en contiennent 6\n" in out
    assert "d.txt:2: unknown-card: carte inconnue « Pikachoo » ; vouliez-vous dire « Pikachu » ?\n" in out
    assert "d.txt:3: unknown-card: BS 100 est « Énergie Électrique », pas « Pikachu »\n" in out
    assert (
        "d.txt:4: unknown-section: les réserves ne font pas partie de pokemon-base ; retirez ces lignes (1 carte, ligne 5, non comptée)\n"
    ) in out
    assert '"' not in out  # every quotation in « »
    assert leftover(out, {"pokemon", "bill"}) == set()


def test_an_unknown_yaml_section_in_french(runner, tmp_path):
    deck = tmp_path / "d.yaml"
    deck.write_text("name: x\nformat: pokemon-base\nmain: [4 Pikachu]\nsideboard: [1 Bill]\n", encoding="utf-8")
    code, out = run(runner, ["deck", "validate", str(deck), "--lang", "fr"])
    assert code == 1
    assert "unknown-section: la section 'sideboard' ne fait pas partie de pokemon-base (sections : main)\n" in out
    assert leftover(out, {"sideboard", "main"}) == set()


@pytest.mark.parametrize(
    ("content", "sentence"),
    [
        (
            b"",
            "d.txt:1: le fichier est vide : la liste de deck ne contient aucune carte ; une liste de deck a des lignes comme '4 Pikachu'",
        ),
        (b"4 Pikachu\n\xff\xfe", "d.txt:2:1: fichier binaire ou texte qui n'est pas en UTF-8 ; une liste de deck est du texte brut"),
        (None, "d.txt:1:1: impossible de lire le fichier : fichier ou dossier introuvable"),
    ],
)
def test_an_unreadable_deck_file_in_french(runner, tmp_path, monkeypatch, content, sentence):
    monkeypatch.chdir(tmp_path)
    if content is not None:
        (tmp_path / "d.txt").write_bytes(content)
    code, out = run(runner, ["deck", "validate", "d.txt", "--lang", "fr"])
    assert code == 2
    assert out == f"erreur: {sentence}\n"
    assert leftover(out) == set()


def test_an_unknown_card_in_french(runner):
    code, out = run(runner, ["show", "Pikachoo", "--lang", "fr"])
    assert code == 1
    assert out.startswith("erreur: aucune carte « Pikachoo » ; vouliez-vous dire : Pikachu, ")
    assert leftover(out) == set()


def test_german_and_italian_spot_checks(runner, tmp_path):
    assert run(runner, ["search", "hp>abc", "--lang", "de"])[1].startswith("Fehler: 'hp' nimmt eine Zahl, nicht 'abc'\n")
    assert run(runner, ["show", "Pikachoo", "--lang", "de"])[1].startswith("Fehler: keine Karte 'Pikachoo'; meintest du: Pikachu")
    deck = tmp_path / "d.txt"
    deck.write_text("", encoding="utf-8")
    code, out = run(runner, ["deck", "validate", str(deck), "--lang", "it"])
    assert code == 2
    assert f"errore: {deck}:1: il file è vuoto: la lista del mazzo non contiene carte; " in out
    deck.write_text(DECK, encoding="utf-8")
    out = run(runner, ["deck", "validate", str(deck), "-f", "pokemon-base", "--lang", "it"])[1]
    assert "unknown-card: carta sconosciuta «Pikachoo»; forse intendevi «Pikachu»?\n" in out
    assert "section-total: «Pokemon: 3» dichiara 3 carte ma le sue righe ne contengono 6\n" in out


@pytest.mark.parametrize(("lang", "usage"), [("en", "Usage: "), ("fr", "Utilisation : "), ("de", "Aufruf: ")])
def test_the_usage_line_names_its_argument_in_capitals(runner, lang, usage):
    result = runner.invoke(app, ["deck", "validate", "--lang", lang])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{usage}cardlab deck validate [OPTIONS] FILE\n")
    assert runner.invoke(app, ["i18n", "import"]).stderr.startswith("Usage: cardlab i18n import [OPTIONS] PO_FILE\n")


def test_a_cockatrice_deck_problem_in_french(runner, tmp_path):
    deck = tmp_path / "d.cod"
    cod = '<?xml version="1.0"?>\n<cockatrice_deck version="1">\n<zone name="main">\n<card number="60" name="Pikachu"/>\n</zone>\n'
    deck.write_text(cod + '<zone name="extra">\n<card number="1" name="Bill"/>\n</zone>\n</cockatrice_deck>\n', encoding="utf-8")
    code, out = run(runner, ["deck", "validate", str(deck), "-f", "pokemon-base", "--lang", "fr"])
    assert code == 1
    assert (
        '7: unknown-section: <card name="Bill"> est dans la zone « extra », qui ne fait pas partie du deck (zones : main, side) ; non comptée\n'
    ) in out


def test_a_collection_write_of_an_unknown_card_in_french(runner, tmp_path):
    """The collection's refusals (an unknown name with its suggestions, an id no card has, a card of
    another game) and "nothing was changed", in French, with no English word left."""
    env = {"CARDLAB_DATA": str(tmp_path / "data"), "CARDLAB_LANG": "fr"}
    unknown = runner.invoke(app, ["collection", "add", "Pikachuu"], env=env)
    assert unknown.exit_code == 1
    assert unknown.stderr.strip().startswith("erreur: carte inconnue « Pikachuu » ; vouliez-vous dire « Pikachu »")
    assert unknown.stderr.strip().endswith(" ; rien n'a été modifié")
    by_id = runner.invoke(app, ["collection", "add", "base1-999"], env=env)
    assert by_id.stderr.strip() == "erreur: carte inconnue « base1-999 » ; rien n'a été modifié"
    assert leftover(unknown.stderr + by_id.stderr, {"pikachuu", "pikachu", "base1-999", "'s"}) == set()  # _____'s Pikachu: a name
