"""The interface in the player's language (issue 32): a French run leaves no English word but
proper names; German and Italian spot checks; unknown languages refused; English string by string
where a catalog lacks one; the language from --lang, CARDLAB_LANG, the locale."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from cardlab.cli.whole import app
from cardlab.core import l10n
from tests.english_words import leftover as _leftover

REPO_LOCALE = l10n.LOCALE_DIR


def test_the_english_word_list_catches_english(runner):
    # the detector itself: the same commands in English leave many English words
    out = runner.invoke(app, ["show", "base1-4"]).stdout
    assert {"weakness", "retreat", "evolves", "from"} <= _leftover(out)


@pytest.mark.parametrize(
    "argv",
    [
        ["show", "base1-4", "--lang", "fr"],
        ["search", "charizard", "--lang", "fr"],
        ["search", "supertype:energy", "set:base1", "--lang", "fr"],
        ["deck", "validate", "examples/decks/zap-theme-deck.txt", "--lang", "fr"],
        ["deck", "validate", "examples/decks/zap-theme-deck.txt", "-f", "pokemon-prop-15-3", "--lang", "fr"],
        ["deck", "stats", "examples/decks/zap-theme-deck.txt", "-f", "pokemon-base", "--lang", "fr"],
        ["sets", "--lang", "fr"],
        ["formats", "--game", "pokemon", "--lang", "fr"],
        ["deck", "have", "examples/decks/zap-theme-deck.txt", "-p", "zed", "--lang", "fr"],
    ],
)
def test_a_french_run_leaves_no_english_word_but_names(runner, repo, monkeypatch, argv):
    monkeypatch.chdir(repo)
    result = runner.invoke(app, argv)
    assert result.exit_code in (0, 1), result.stderr
    assert _leftover(result.stdout + result.stderr) == set()


def test_french_show_words(runner):
    out = runner.invoke(app, ["show", "base1-4", "--lang", "fr"]).stdout
    assert "Pokémon · Niveau 2 · Feu" in out
    assert re.search(r"Évolue de\s+Reptincel", out)  # the name of base1-24 in French, not "Charmeleon"
    assert re.search(r"Faiblesse\s+W ×2", out) and re.search(r"Retraite\s+C C C", out)
    assert "base1-4 (celle-ci)" in out


def test_french_deck_problem_and_verdict(runner, repo, monkeypatch):
    monkeypatch.chdir(repo)
    result = runner.invoke(app, ["deck", "validate", "examples/decks/zap-theme-deck.txt", "-f", "pokemon-prop-15-3", "--lang", "fr"])
    assert result.exit_code == 1
    assert "examples/decks/zap-theme-deck.txt:1: copy-limit: 4 exemplaires de « Pikachu » (limite 3)" in result.stderr
    assert "non légal: 1 problème dans examples/decks/zap-theme-deck.txt selon pokemon-prop-15-3" in result.stderr


def test_german_and_italian_spot_checks(runner, repo, monkeypatch):
    de = runner.invoke(app, ["show", "base1-4", "--lang", "de"]).stdout
    assert "Pokémon · Phase 2 · Feuer" in de and re.search(r"Entwickelt sich aus\s+Glutexo", de) and "Schwäche" in de
    it = runner.invoke(app, ["show", "base1-4", "--lang", "it"]).stdout
    assert "Pokémon · Fase 2 · Fuoco" in it and re.search(r"Si evolve da\s+Charmeleon", it) and "Debolezza" in it
    monkeypatch.chdir(repo)
    stats = runner.invoke(app, ["deck", "stats", "examples/decks/zap-theme-deck.txt", "-f", "pokemon-base", "--lang", "de"]).stdout
    assert "pokemon-base: 60 Karten im Deck" in stats and "Energiekarten nach geliefertem Typ" in stats


def test_spanish_and_japanese_speak_the_vocabulary(runner):
    es = runner.invoke(app, ["search", "charizard", "set:base1", "--lang", "es"]).stdout
    assert "Pokémon · Fase 2 · Fuego" in es and "120 PS · Poder · 1 ataque · retirada 3" in es
    ja = runner.invoke(app, ["show", "base1-4", "--lang", "ja"]).stdout
    assert "ポケモン · 2進化 · 炎" in ja and "弱点" in ja


@pytest.mark.parametrize("argv", [["show", "base1-4", "--lang", "xx"], ["search", "pikachu", "--lang", "fr,pt"], ["sets", "--lang", "tlh"]])
def test_an_unknown_language_is_refused_naming_the_known_ones(runner, argv):
    result = runner.invoke(app, argv)
    assert result.exit_code == 2
    code = argv[-1].split(",")[-1]
    assert (
        f"error: --lang: unknown language '{code}'; cardlab knows en (English), fr (Français), de (Deutsch), it (Italiano), es (Español), ja (日本語)"
        in result.stderr
    )
    assert "Traceback" not in result.stderr


def test_an_unknown_cardlab_lang_is_refused(runner, monkeypatch):
    monkeypatch.setenv("CARDLAB_LANG", "xx")
    result = runner.invoke(app, ["show", "base1-4"])
    assert result.exit_code == 2
    assert "CARDLAB_LANG: unknown language 'xx'" in result.stderr


def test_language_from_cardlab_lang_then_the_locale(runner, monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert "Schwäche" in runner.invoke(app, ["show", "base1-4"]).stdout  # the locale
    monkeypatch.setenv("CARDLAB_LANG", "it")
    assert "Debolezza" in runner.invoke(app, ["show", "base1-4"]).stdout  # CARDLAB_LANG before the locale
    assert "Faiblesse" in runner.invoke(app, ["show", "base1-4", "--lang", "fr"]).stdout  # --lang first
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")  # a locale cardlab does not speak is no error
    monkeypatch.delenv("CARDLAB_LANG")
    result = runner.invoke(app, ["show", "base1-4"])
    assert result.exit_code == 0 and "Weakness" in result.stdout


def test_a_missing_string_falls_back_to_english_alone(monkeypatch):
    # the Japanese catalog holds the vocabulary but not the sentences: each missing one is English
    with l10n.speaking("ja"):
        assert l10n._("Weakness") == "弱点"
        assert l10n._("no formats found") == "no formats found"
        assert l10n.words("120 HP · Power · 1 attack · retreat 3") == "HP120 · パワー · ワザ1 · にげる3"
        assert l10n._("") == ""  # never the catalog's header
    with l10n.speaking("fr"):
        assert l10n.words("Energy · basic · Fire") == "Énergie · de base · Feu"
        assert l10n.words("Nothing · 7 things") == "Nothing · 7 things"  # unknown pieces stay as they are
    assert l10n._("Weakness") == "Weakness"


def test_the_compiled_catalogs_are_those_of_the_po_files():
    sys.path.insert(0, str(REPO_LOCALE.parents[1] / "tools"))
    import i18n_catalogs  # noqa: PLC0415 - the tools folder is not a package

    for lang in ("fr", "de", "it", "es", "ja"):
        for domain in ("cardlab", "cardlab-help"):
            mo = REPO_LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo"
            assert mo.read_bytes() == i18n_catalogs.compiled(lang, domain), f"{mo}: run python tools/i18n_catalogs.py compile"


def test_a_real_french_process(repo, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARDLAB_", "LC_"))}
    env.update(CARDLAB_CACHE_DIR=str(tmp_path / "cache"), LANG="fr_FR.UTF-8")
    done = subprocess.run(
        [sys.executable, "-m", "cardlab", "search", "charizard", "set:base1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=repo,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Réf.     Nom        Type                      Statistiques                               Rareté",
        "base1-4  Dracaufeu  Pokémon · Niveau 2 · Feu  120 PV · Pouvoir · 1 attaque · retraite 3  Rare Holo",
        "1 carte",
    ]


def test_a_po_file_in_an_unknown_language_is_refused(runner, tmp_path):
    po = tmp_path / "pt.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: pt\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "base1-4 name"\nmsgid "Charizard"\nmsgstr "Charizard"\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["i18n", "import", str(po), "--dry-run"])
    assert result.exit_code == 2
    assert f"error: {po}: the PO file's language: unknown language 'pt'; cardlab knows en (English), fr (Français)" in result.stderr


def test_the_web_language_choice():
    from cardlab.i18n.negotiate import from_headers, page_language

    assert page_language("de", "it", "fr") == "de"  # ?lang= first
    assert page_language(None, "it", "fr") == "it"  # then the cookie
    assert page_language(None, None, "pt-BR, fr-CH;q=0.9, de;q=0.95, *;q=0.5") == "de"  # then the best known weight
    assert page_language("xx", None, "fr;q=0, it") == "it"  # unknown and q=0 passed over
    assert page_language(None, None, "en-GB;q=abc, ja") == "ja"
    for bad in ("nan", "inf", "-1", "2", "1.5", "0.5000", "+1", "1e0", "NaN", "Infinity", ""):  # invalid weights: left out
        assert page_language(None, None, f"de;q={bad}, it;q=0.1") == "it", bad
    assert page_language(None, None, "de;q=0.001, it;q=0.0001, fr;q=1.000") == "fr"
    assert page_language(None, None, None) == "en"
    assert from_headers({"lang": "fr"}, {}, {}) == "fr"
    assert from_headers({}, {"lang": "it"}, {"accept-language": "de"}) == "it"


def test_the_outdated_mark():
    from cardlab.core.text import outdated_mark, source_hash

    text = {"en": "Draw 2 cards.", "fr": "Piochez 2 cartes.", "_source": {"fr": source_hash("Draw 3 cards.")}}
    with l10n.speaking("fr"):
        assert outdated_mark(text, ["fr"]) == " [peut-être périmé]"
    assert outdated_mark(text, ["fr"]) == " [may be outdated]"
    assert outdated_mark({**text, "_source": {"fr": source_hash("Draw 2 cards.")}}, ["fr"]) == ""  # current
    assert outdated_mark(text, ["en"]) == ""  # the source itself
    assert outdated_mark(text, ["de"]) == ""  # not translated: the English is shown, never outdated


def test_the_templates_speak_the_page_language(repo):
    import jinja2

    from cardlab.i18n.negotiate import template_globals

    folder = repo / "cardlab" / "web" / "templates"
    bare = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)), autoescape=True)
    page = bare.get_template("sets.html").render(rows=[], langs=[], site={}, title="t")
    assert '<html lang="en">' in page and ">Sets</h1>" in page  # no tr() installed: English
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)), autoescape=True)
    env.globals.update(template_globals())
    with l10n.speaking("fr"):
        page = env.get_template("sets.html").render(rows=[], langs=[], site={}, title="t")
    assert '<html lang="fr">' in page and ">Extensions</h1>" in page and ">Rechercher</a>" in page
    assert "<th>numéros manquants</th>" in page


@pytest.mark.parametrize("lang", ["de", "it"])
def test_formats_in_german_and_italian_leave_no_english_word(runner, lang):
    from tests.english_words import ALLOWED, help_english_words, words

    out = runner.invoke(app, ["formats", "--lang", lang]).stdout
    sections = {"commander", "favor"}  # Monpa's section names: ids of the format files, as in French
    assert (words(out) & help_english_words(lang)) - ALLOWED - sections == set()


def test_quoted_rule_texts_keep_their_quotation_with_a_gloss(runner):
    de = runner.invoke(app, ["formats", "--game", "ippo", "--lang", "de"]).stdout
    assert "Regel 000: 4 Runden = 40 Karten (französisch: « 4 Rounds = 40 cartes »)" in de
    it = runner.invoke(app, ["formats", "--game", "monpa", "--lang", "it"]).stdout
    assert "regola 004 « Commandant » (in francese: comandante): la zona del comandante contiene il comandante" in it
    assert "Hajime no Ippo — 10 Runden" in runner.invoke(app, ["formats", "--game", "ippo", "--lang", "de"]).stdout
