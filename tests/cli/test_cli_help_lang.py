"""``--help`` in the player's language (issue 32): every command's help in French leaves no
English word but names and the command line's own tokens; the language from --lang, CARDLAB_LANG,
the locale; click's words (Usage, Options, errors) through the help catalog; English string by
string where a catalog lacks one; an unknown CARDLAB_LANG refused by every command."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import typer.main

from cardlab.cli import helptext
from cardlab.cli.whole import app
from cardlab.core import l10n
from cardlab.search.fields import FIELDS
from tests.english_words import ALLOWED, help_english_words, words


def _paths(command, path=()):
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from _paths(sub, (*path, name))


ROOT = typer.main.get_command(app)
PATHS = list(_paths(ROOT))
"""Every command and group of the command line, as the words after ``cardlab``."""


def _tokens(command) -> set[str]:
    """The command line's own words (command and option names, metavars, choices): syntax, not English."""
    out: set[str] = set()
    for name, sub in getattr(command, "commands", {}).items():
        out |= words(name.replace("-", " ")) | _tokens(sub)
    for p in command.params:
        for opt in (*p.opts, *p.secondary_opts, p.name or "", str(getattr(p, "metavar", "") or "")):
            out |= words(opt.replace("-", " ").replace("_", " "))
        out |= {w for c in getattr(p.type, "choices", ()) or () for w in words(str(getattr(c, "value", c)).replace("-", " "))}
    return out


FRENCH = help_english_words("fr")
SYNTAX = (
    _tokens(ROOT)
    | set(FIELDS)
    | {"help", "options", "command", "args", "query", "str", "int", "float", "range", "path", "text", "json", "csv", "id", "file"}
)
# the option and command names, the query's field names (the first column of search's table) and click's metavars (<int range>)
NAMES = ALLOWED | {
    "cockatrice",
    "moxfield",
    "tcgplayer",
    "dragon",
    "shield",
    "collectr",
    "pikachu",
    "bill",
    "postgresql",
    "sqlite",
    "yaml",
    "ascii",
    "pdf",
    "api",
    "hex",
    "sha",
    "retry",
    "after",
    "authorization",
    "bearer",
    "token",
    "live",
    "los",
    "lobos",
    "ryūjin",
    "jakka",
    "zangetsu",
    "fire",
    "spin",
    "lame",
    "errante",
    "zap",
    "haymaker",
    "alice",
    "bob",
}
# names and syntax: apps, formats, protocols, HTTP headers ("Retry-After", "Authorization: Bearer TOKEN"), the
# mini-games, query values ("fire spin") and the example files and players of the examples


def _leftover(text: str) -> set[str]:
    return (words(text) & FRENCH) - NAMES - SYNTAX


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "cardlab")
def test_every_help_in_french_leaves_no_english_word(runner, path):
    result = runner.invoke(app, [*path, "--help", "--lang", "fr"])
    assert result.exit_code == 0, result.stderr
    assert "Options" in result.stdout and "Afficher ce message et quitter." in result.stdout
    assert _leftover(result.stdout) == set()


def test_the_detector_catches_english_help(runner):
    out = runner.invoke(app, ["deck", "validate", "--help"]).stdout
    assert {"check", "against", "reporting", "every", "exit"} <= _leftover(out)


def test_french_help_words(runner):
    out = runner.invoke(app, ["deck", "validate", "--help", "--lang", "fr"]).stdout
    assert out.startswith("Utilisation : cardlab deck validate [OPTIONS] FILE")
    assert "Vérifier une liste de deck selon les règles d'un format, chaque problème" in out
    assert "Arguments:" in out and "[obligatoire]" in out and "[par défaut :" in out
    top = runner.invoke(app, ["--help", "--lang", "fr"]).stdout
    assert "Commandes:" in top and "search      Chercher des cartes." in top


def test_german_and_italian_help(runner):
    de = runner.invoke(app, ["deck", "--help", "--lang", "de"]).stdout
    assert de.startswith("Aufruf: cardlab deck") and "Befehle:" in de and "Decklisten gegen ein Format prüfen" in de
    it = runner.invoke(app, ["search", "--help", "--lang", "it"]).stdout
    assert it.startswith("Uso: cardlab search") and "Opzioni:" in it and "Campi:" in it and "Forme brevi:" in it
    assert "Linguaggio di ricerca: parole singole" in it


def test_the_help_language_from_cardlab_lang_then_the_locale(runner, monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert runner.invoke(app, ["deck", "--help"]).stdout.startswith("Aufruf:")
    monkeypatch.setenv("CARDLAB_LANG", "it")
    assert runner.invoke(app, ["deck", "--help"]).stdout.startswith("Uso:")
    assert runner.invoke(app, ["deck", "--help", "--lang", "fr"]).stdout.startswith("Utilisation :")
    monkeypatch.setenv("CARDLAB_LANG", "ja")  # no help catalog to speak of: English, string by string
    out = runner.invoke(app, ["deck", "--help"]).stdout
    assert out.startswith("Usage: cardlab deck") and "Check deck lists against a format" in out


def test_a_group_without_its_command_shows_its_help_in_french(runner):
    result = runner.invoke(app, ["deck", "--lang", "fr"])
    assert result.exit_code == 2
    assert "Vérifier des listes de deck selon un format" in result.stdout + result.stderr


def test_english_help_is_unchanged(runner):
    out = runner.invoke(app, ["deck", "validate", "--help"]).stdout
    assert out.startswith("Usage: cardlab deck validate [OPTIONS] FILE")
    assert "Show this message and exit." in out and "[required]" in out


def test_usage_errors_in_french(runner):
    result = runner.invoke(app, ["search", "--bogus", "--lang", "fr"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "Utilisation : cardlab search [OPTIONS] [QUERY...]",
        "Essayez 'cardlab search -h' pour l'aide.",
        "",
        "Erreur : Option inconnue : --bogus",
    ]
    result = runner.invoke(app, ["search", "x", "--limit", "zero", "--lang", "de"])
    assert result.exit_code == 2
    assert "Fehler: Ungültiger Wert für '--limit': 'zero' ist keine gültige ganze Zahl." in result.stderr


def test_translate_help_pieces():
    said = helptext.translate_help(
        "First  paragraph\n   wrapped.\n\n\b\nRaw line one\nraw line two\n  name       a meaning\n\b\nShort: x", lambda m: f"<{m}>"
    )
    assert said == "<First paragraph wrapped.>\n\n\b\n<Raw line one\nraw line two>\n  name       <a meaning>\n\b\n<Short: x>"


def test_click_messages_are_matched_with_their_values():
    with l10n.speaking("it"):
        assert helptext.translate_message("Missing argument 'FILE'.") == "Argomento 'FILE' mancante."
        assert helptext.translate_message("Invalid value for '-n': 'x' is not a valid int.") == (
            "Valore non valido per '-n': 'x' non è un numero intero valido."
        )
        assert helptext.translate_message("something else") == "something else"


@pytest.mark.parametrize("argv", [["i18n", "hash", "Fire Spin"], ["card", "new", "--help"], ["play", "list"]])
def test_an_unknown_cardlab_lang_is_refused_by_every_command(runner, monkeypatch, argv):
    monkeypatch.setenv("CARDLAB_LANG", "zz")
    result = runner.invoke(app, argv)
    message = "CARDLAB_LANG: unknown language 'zz'; cardlab knows en (English), fr (Français)"
    if "--help" in argv:  # help is still shown, in English, with the warning
        assert result.exit_code == 0 and f"warning: {message}" in result.stderr and "Usage:" in result.stdout
    else:
        assert result.exit_code == 2 and f"error: {message}" in result.stderr
    monkeypatch.setenv("CARDLAB_LANG", "fr!")
    result = runner.invoke(app, ["i18n", "hash", "Fire Spin"])
    assert result.exit_code == 2 and "error: CARDLAB_LANG: 'fr!' is not a language code" in result.stderr


def test_french_help_in_a_real_process(repo, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARDLAB_", "LC_"))}
    env.update(CARDLAB_CACHE_DIR=str(tmp_path / "cache"), LANG="fr_FR.UTF-8")
    done = subprocess.run([sys.executable, "-m", "cardlab", "--help"], capture_output=True, text=True, env=env, timeout=60, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Utilisation : cardlab [OPTIONS] COMMAND [ARGS]...")
    assert "Commandes:" in done.stdout and _leftover(done.stdout) == set()


def test_a_command_without_help_loads_no_help_catalog(runner):
    l10n.help_translations.cache_clear()
    result = runner.invoke(app, ["search", "charizard", "--lang", "fr"])
    assert result.exit_code == 0 and "Dracaufeu" in result.stdout
    assert l10n.help_translations.cache_info().currsize == 0
    runner.invoke(app, ["search", "--help", "--lang", "fr"])
    assert l10n.help_translations.cache_info().currsize == 1


def test_the_help_template_holds_every_help_piece():
    from babel.messages.pofile import read_po

    held: set[str] = set()
    for domain in ("cardlab", "cardlab-help"):
        with (l10n.LOCALE_DIR / f"{domain}.pot").open("rb") as f:
            held |= {m.id for m in read_po(f) if isinstance(m.id, str)}
    missing = {message for message, _where in helptext.help_pieces(ROOT)} - held
    assert missing == set(), "run python tools/i18n_catalogs.py extract (then update, compile)"
    assert set(helptext.CLICK_WORDS) <= held


@pytest.mark.parametrize(
    "argv",
    [["--lang", "xx", "--help"], ["search", "--help", "--lang", "xx"], ["deck", "--help", "--lang=xx"], ["--help", "--lang", "fr,xx"]],
)
def test_help_with_an_unknown_lang_is_refused_like_every_command(runner, argv):
    result = runner.invoke(app, argv)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: --lang: unknown language 'xx'; cardlab knows en (English), fr (Français), de (Deutsch)")


def test_the_root_lang_is_the_language_of_every_command(runner, repo):
    deck = str(repo / "examples/decks/zap-theme-deck.txt")
    result = runner.invoke(app, ["--lang", "fr", "deck", "validate", deck])
    assert result.exit_code == 0, result.stderr
    assert "aucun format nommé ; légalité dans chaque format pokemon" in result.stdout
    result = runner.invoke(app, ["--lang=fr", "search", "charizard", "--limit", "1"])
    assert result.exit_code == 0 and "Dracaufeu" in result.stdout  # given to search as its own --lang
    result = runner.invoke(app, ["--lang", "fr", "search", "charizard", "--limit", "1", "--lang", "de"])
    assert result.exit_code == 0 and "Glurak" in result.stdout  # the command's own --lang wins
    result = runner.invoke(app, ["--lang", "xx", "deck", "validate", deck])
    assert result.exit_code == 2 and result.stderr.startswith("error: --lang: unknown language 'xx'; cardlab knows en (English)")


def test_the_root_lang_without_a_value_is_the_usual_missing_value_error(runner):
    result = runner.invoke(app, ["--help", "--lang"])
    assert result.exit_code == 2
    assert "Error: Option '--lang' requires an argument." in result.stderr


def test_the_root_lang_in_a_real_process(repo, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARDLAB_", "LC_", "LANG"))}
    env.update(CARDLAB_CACHE_DIR=str(tmp_path / "cache"))
    refused = subprocess.run(
        [sys.executable, "-m", "cardlab", "--lang", "xx", "--help"], capture_output=True, text=True, env=env, timeout=60, cwd=repo
    )
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr.startswith("error: --lang: unknown language 'xx'; cardlab knows en (English)")
    said = subprocess.run(
        [sys.executable, "-m", "cardlab", "--lang", "de", "i18n", "hash", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd=repo,
    )
    assert said.returncode == 0, said.stderr
    assert said.stdout.startswith("Aufruf: cardlab i18n hash")
