"""The mini-games' forum posts in the player's language (issue 32): a French Los Lobos thread with no
English word left but proper names, verified from its French text alone; a French thread with an
edited winner fails at its post and line; German and Italian spot checks; a thread pasted in two
languages; the engine's English texts translated when shown, never stored translated."""

from __future__ import annotations

import re

import pytest

from cardlab.cli.whole import app
from cardlab.core import l10n
from cardlab.play import rng, thread
from tests.cli.test_cli_lang import _leftover

SEED = "5a" * 32


def leftover(text: str) -> set[str]:
    """The English words of ``text`` (:func:`tests.cli.test_cli_lang._leftover`) once its hex
    digests (commitment, game hash, seed: letters a-f that are no words) are taken out."""
    return _leftover(re.sub(r"\b[0-9a-f]{16,}\b", " ", text))


@pytest.fixture
def env(monkeypatch, forum_roots):
    monkeypatch.setenv("CARDLAB_CATALOG", forum_roots)


def run(runner, *args, code=0):
    out = runner.invoke(app, list(args))
    assert out.exit_code == code, (args, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr
    return out


@pytest.fixture
def lobos(runner, env):
    """A Los Lobos game played to the end (alice replaces two cards, bob keeps his hand): game 1."""
    run(runner, "play", "new", "los-lobos", "-p", "alice", "-p", "bob", "--set", "ftcg-test", "--seed", SEED)
    for p in ("alice", "bob"):
        run(runner, "play", "accept", "1", "-p", p, "--contribution", f"{p}-word")
    run(runner, "play", "replace", "1", "-p", "alice", "--cards", "2,5")
    run(runner, "play", "replace", "1", "-p", "bob", "--keep")
    return 1


def test_a_french_thread_has_no_english_word_but_names(runner, lobos):
    out = run(runner, "play", "show", "1", "-O", "bbcode", "--lang", "fr").stdout
    assert out.startswith("[b]partie cardlab ")
    assert "[i]bob garde sa main[/i]" in out  # an engine note stored in English, shown in French
    assert "[b]Résultat : " in out and "[i]joueur 1 : alice[/i]" in out
    assert leftover(out) == set()
    english = run(runner, "play", "show", "1", "-O", "bbcode").stdout
    assert {"keeps", "hand", "result", "wins", "draws", "replaces"} <= leftover(english)  # the detector sees English


def test_cardlab_lang_chooses_the_thread_language(runner, lobos, monkeypatch):
    monkeypatch.setenv("CARDLAB_LANG", "fr")
    assert run(runner, "play", "show", "1").stdout.startswith("partie cardlab ")
    listed = run(runner, "play", "list").stdout
    assert re.fullmatch(r"#1  Los Lobos     alice, bob  (?:alice a gagné|bob a gagné|égalité)  \S+Z\n", listed), listed


def test_a_french_thread_verifies_and_an_edited_winner_fails(runner, lobos, tmp_path):
    french = run(runner, "play", "show", "1", "-O", "bbcode", "--lang", "fr").stdout
    path = tmp_path / "fil.txt"
    path.write_text(french, encoding="utf-8")
    done = run(runner, "play", "verify", str(path), "--lang", "fr")
    gid = french.split()[2].rstrip(",")
    assert done.stdout == f"vérifiée : partie {gid}, les messages 1 à 5 découlent de la graine révélée\n"
    assert leftover(done.stdout) == set()
    english = run(runner, "play", "show", "1").stdout
    assert f"cardlab game {gid} post 1" in english  # one game, one id, in every language
    result = next(line for line in french.splitlines() if line.startswith("[b]Résultat : "))
    winner = result.split()[2]
    loser = "bob" if winner == "alice" else "alice"
    path.write_text(french.replace(result, result.replace(f": {winner} gagne", f": {loser} gagne")), encoding="utf-8")
    bad = run(runner, "play", "verify", str(path), "--lang", "fr", code=1)
    line = french.splitlines().index(result) + 1
    assert f"partie {gid} : post 5, line " in bad.stderr and f"(file line {line}): expected '{result[3:-4]}'" in bad.stderr


def test_an_edited_start_post_fails_in_french_too(runner, lobos, tmp_path):
    french = run(runner, "play", "show", "1", "--lang", "fr").stdout
    path = tmp_path / "fil.txt"
    path.write_text(french.replace("joueur 2 : bob", "joueur 2 : eve", 1), encoding="utf-8")
    bad = run(runner, "play", "verify", str(path), code=1)
    assert "post 1 (file line 1): its rules hash to game " in bad.stderr and "a field of post 1 was changed" in bad.stderr


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", ["cardlab-Spiel ", "Spieler 1: alice", "behält das Blatt", "Ergebnis: ", "Startwert: "]),
        ("it", ["partita cardlab ", "giocatore 1: alice", "bob tiene la mano", "Risultato: ", "seme: "]),
    ],
)
def test_german_and_italian_threads_verify(runner, lobos, tmp_path, lang, words):
    out = run(runner, "play", "show", "1", "-O", "markdown", "--lang", lang).stdout
    assert all(w in out for w in words), out
    path = tmp_path / "thread.md"
    path.write_text(out, encoding="utf-8")
    assert run(runner, "play", "verify", str(path)).stdout.startswith("verified: game ")


def test_a_thread_pasted_in_two_languages_verifies(runner, lobos, tmp_path):
    french = run(runner, "play", "show", "1", "-O", "bbcode", "--lang", "fr").stdout.split("\n\n")
    english = run(runner, "play", "show", "1", "-O", "bbcode").stdout.split("\n\n")
    assert len(french) == len(english) == 5
    mixed = [english[0], french[1], english[2], french[3], french[4]]  # each player posts in their own language
    path = tmp_path / "thread.txt"
    path.write_text("\n\n".join(mixed), encoding="utf-8")
    assert run(runner, "play", "verify", str(path)).stdout.startswith("verified: game ")


def test_a_claim_refusal_names_its_date_in_french(runner, lobos):
    run(runner, "play", "new", "los-lobos", "-p", "alice", "-p", "bob", "--set", "ftcg-test")
    run(runner, "play", "accept", "2", "-p", "alice")
    refused = run(runner, "play", "claim", "2", "-p", "alice", "--lang", "fr", code=1)
    assert "refusé : la partie n°2 n'a pas commencé (en attente d'accords) ; rien à réclamer" in refused.stderr


def test_engine_texts_are_stored_english_and_shown_translated():
    seed = bytes.fromhex(SEED)
    setup = {"kind": "zangetsu", "players": ["alice", "bob"], "options": {}, "scheme": thread.SCHEME, "set": "x", "replacement": True}
    setup["pool"] = [{"id": f"x-{i}", "name": f"Carte {i}", "value": 1 + i % 5, "faction": "neutral"} for i in range(10)]
    log = [{"move": "accept", "player": p, "contribution": f"{p}-w", "at": ""} for p in ("alice", "bob")]
    with l10n.speaking("fr"):
        fr = thread.play(setup, {}, rng.commitment(seed), seed, log, "")
    en = thread.play(setup, {}, rng.commitment(seed), seed, log, "")
    assert fr.outcome.events == en.outcome.events  # the record is the same in every language
    assert fr.posts[0].title.split(",")[0] == en.posts[0].title.split()[2].join(["partie cardlab ", ""])
    with l10n.speaking("fr"):
        assert thread.said("tie at 9: alice, bob draw again") == "égalité à 9 : alice, bob tirent à nouveau"
        assert thread.said("full house 3 over 1, sum 11") == "full de 3 par 1, somme 11"
        assert thread.said("first to 3 points") == "premier à 3 points"
        assert thread.said("Los Lobos") == "Los Lobos"  # a name stays as it is
    with l10n.speaking("de"):
        assert thread.said("two pairs 5 and 2, sum 15") == "zwei Paare 5 und 2, Summe 15"
    with l10n.speaking("it"):
        assert thread.said("alice keeps the hand") == "alice tiene la mano"


def test_a_french_ryujin_jakka_thread_with_its_options(runner, env, tmp_path):
    owned = tmp_path / "own.csv"
    owned.write_text("card_id,count\n" + "".join(f"ftcg-test-{i},2\n" for i in range(1, 26)))
    for p in ("alice", "bob"):
        run(runner, "collection", "import", str(owned), "--player", p)
    la, lb = tmp_path / "a.txt", tmp_path / "b.txt"
    la.write_text("2 FT 1\n2 FT 7\n2 FT 13\n2 FT 19\n2 FT 25\n")
    lb.write_text("".join(f"1 FT {i}\n" for i in range(6, 16)))
    new = ["play", "new", "ryujin-jakka", "-p", "alice", "-p", "bob", "--list", f"alice:{la}", "--list", f"bob:{lb}"]
    run(runner, *new, "--best-of", "3", "--seed", SEED)
    for p in ("alice", "bob"):
        run(runner, "play", "accept", "1", "-p", p, "--contribution", f"{p}-word")
    run(runner, "play", "roll", "1", "--to-end", "-p", "alice")
    out = run(runner, "play", "show", "1", "-O", "bbcode", "--lang", "fr").stdout
    assert '[i]options : {"victoire": {"manches": 3, "mode": "au-meilleur-de", "points": 3}}[/i]' in out
    assert "[b]Résultat : " in out and " (au meilleur de 3)[/b]" in out
    assert leftover(out) == set()
    path = tmp_path / "fil.txt"
    path.write_text(out, encoding="utf-8")
    assert run(runner, "play", "verify", str(path), "--lang", "fr").stdout.startswith("vérifiée : partie ")
    path.write_text(out.replace('"manches": 3', '"manches": 5'), encoding="utf-8")  # a rule changed after the fact
    assert "a field of post 1 was changed" in run(runner, "play", "verify", str(path), code=1).stderr


def test_options_read_back_in_every_language():
    options = {"win": {"mode": "best-of", "games": 3, "points": 3}, "independent_reroll": True}
    for lang in ("en", "fr", "de", "it"):
        with l10n.speaking(lang):
            assert thread.read_options(thread.options_text(options)) == options
    with l10n.speaking("en"):
        assert thread.options_text(options) == '{"independent_reroll": true, "win": {"games": 3, "mode": "best-of", "points": 3}}'
