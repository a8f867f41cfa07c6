"""The mini-games from the command line (issue 13, "Done when"; issue 33): a Los Lobos game with one
replacement, a Doll House game with stakes, a Ryūjin Jakka game to 3 points and a Zangetsu game with
a tie, each accepted by both players, replayed bit-for-bit from its revealed seed and from its
BBCode thread alone."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from cardlab.catalog.validate import load_catalog
from cardlab.cli.whole import app
from cardlab.collection import db
from cardlab.play import rng, store, thread
from cardlab.play.setup import draw_pool


@pytest.fixture
def env(monkeypatch, forum_roots, tmp_path, backend):
    monkeypatch.setenv("CARDLAB_CATALOG", forum_roots)


def run(runner, *args, code=0):
    out = runner.invoke(app, list(args))
    assert out.exit_code == code, (args, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr
    return out


def accept(runner, game, *players):
    for p in players:
        run(runner, "play", "accept", str(game), "-p", p, "--contribution", f"{p}-word")


def verify(runner, game, tmp_path):
    """Export the game as JSON, reveal its seed, re-run it: every event must match; then the
    BBCode thread alone verifies, and a forged winner in either is caught."""
    record = tmp_path / f"game{game}.json"
    run(runner, "play", "show", str(game), "-O", "json", "-o", str(record))
    # an existing file is kept unless --overwrite, the option its message names (a finding: play
    # show had no --overwrite, so the message pointed at nothing)
    again = run(runner, "play", "show", str(game), "-O", "json", "-o", str(record), code=2)
    assert "--overwrite" in again.stderr
    run(runner, "play", "show", str(game), "-O", "json", "-o", str(record), "--overwrite")
    seed = run(runner, "play", "reveal", str(game)).stdout.strip()
    assert "verified" in run(runner, "play", "verify", str(record), "--seed", seed).stdout
    data = json.loads(record.read_text())
    assert data["seed"] == seed
    forged = json.loads(json.dumps(data))
    next(e for e in forged["events"] if "card" in e)["card"]["value"] += 1  # a forged draw is caught
    record.write_text(json.dumps(forged))
    assert "differ" in run(runner, "play", "verify", str(record), "--seed", seed, code=1).stderr
    if data["result"]["winner"]:
        forged = json.loads(json.dumps(data))
        forged["result"]["winner"] = next(p for p in data["players"] if p != data["result"]["winner"])
        record.write_text(json.dumps(forged))  # a winner edited by hand (issue 33)
        assert "'result' is " in run(runner, "play", "verify", str(record), code=1).stderr
    for key, value in (("kind", "zangetsu" if data["kind"] != "zangetsu" else "los-lobos"), ("algorithm", "dice-v0")):
        forged = {**data, key: value}  # a finding: these top-level fields were not checked
        record.write_text(json.dumps(forged))
        assert f"'{key}' is " in run(runner, "play", "verify", str(record), code=1).stderr
    bbcode = run(runner, "play", "show", str(game), "-O", "bbcode").stdout
    assert bbcode.startswith("[b]cardlab game ") and "Result" in bbcode
    thread = tmp_path / f"thread{game}.txt"
    thread.write_text(bbcode)
    out = run(runner, "play", "verify", str(thread)).stdout
    assert out.startswith("verified: game ") and out.endswith(f"posts 1 to {len(data['posts'])} follow from the revealed seed\n")
    return data


def test_los_lobos_with_one_replacement(runner, env, tmp_path):
    out = run(runner, "play", "new", "los-lobos", "-p", "alice", "-p", "bob", "--set", "ftcg-test", "--commit", "--seed", "11" * 32)
    assert out.stdout.startswith("commitment (SHA-256 of the seed): ")
    commitment = out.stdout.split(": ")[1].split()[0]
    run(runner, "play", "replace", "1", "-p", "alice", "--cards", "2,5", code=1)  # no move before both accept
    accept(runner, 1, "alice", "bob")
    run(runner, "play", "reveal", "1", code=1)  # not before the end
    run(runner, "play", "replace", "1", "-p", "alice", "--cards", "2,5")
    run(runner, "play", "replace", "1", "-p", "alice", "--keep", code=1)  # once only
    last = run(runner, "play", "replace", "1", "-p", "bob", "--keep").stdout
    assert "Result:" in last
    data = verify(runner, 1, tmp_path)
    assert data["commitment"] == commitment
    assert [e["slot"] for e in data["events"] if e.get("phase") == "replace"] == [2, 5]


def _own(runner, player, tmp_path, n=2):
    path = tmp_path / f"own-{player}.csv"
    path.write_text("card_id,count\n" + "".join(f"ftcg-test-{i},{n}\n" for i in range(1, 33)))
    run(runner, "collection", "import", str(path), "--player", player)


def _list(tmp_path, name, lines):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def test_doll_house_with_stakes(runner, env, tmp_path):
    _own(runner, "alice", tmp_path)
    _own(runner, "bob", tmp_path)
    la = _list(tmp_path, "a.txt", ["2 FT 1", "2 FT 2", "2 FT 3", "2 FT 4", "1 FT 5", "1 FT 26"])
    lb = _list(tmp_path, "b.txt", [f"1 FT {i}" for i in range(6, 16)])
    run(
        runner,
        "play",
        "new",
        "doll-house",
        "-p",
        "alice",
        "-p",
        "bob",
        "--list",
        f"alice:{la}",
        "--list",
        f"bob:{lb}",
        "--stake",
        "alice:ftcg-test-30",
        "--stake",
        "bob:Perle pâle",
        "--seed",
        "22" * 32,
    )
    accept(runner, 1, "alice", "bob")
    run(runner, "play", "roll", "1")
    run(runner, "play", "roll", "1", "--to-end")
    data = verify(runner, 1, tmp_path)
    winner = data["result"]["winner"]
    assert winner in ("alice", "bob")
    loser = "bob" if winner == "alice" else "alice"
    staked = {"alice": "ftcg-test-30", "bob": "ftcg-test-32"}
    mine = json.loads(run(runner, "collection", "list", "-p", winner, "-O", "json").stdout)
    theirs = json.loads(run(runner, "collection", "list", "-p", loser, "-O", "json").stdout)
    assert {d["id"]: d["count"] for d in mine}[staked[loser]] == 3
    assert {d["id"]: d["count"] for d in theirs}[staked[loser]] == 1
    assert data["result"]["stakes_moved"] == [{"card": staked[loser], "from": loser, "to": winner}]


def test_doll_house_refuses_unowned_lists_and_stakes(runner, env, tmp_path):
    la = _list(tmp_path, "a.txt", [f"1 FT {i}" for i in range(1, 11)])
    out = run(runner, "play", "new", "doll-house", "-p", "alice", "-p", "bob", "--list", f"alice:{la}", "--list", f"bob:{la}", code=1)
    assert "does not own" in out.stderr
    _own(runner, "alice", tmp_path)
    _own(runner, "bob", tmp_path)
    out = run(
        runner,
        "play",
        "new",
        "doll-house",
        "-p",
        "alice",
        "-p",
        "bob",
        "--list",
        f"alice:{la}",
        "--list",
        f"bob:{la}",
        "--stake",
        "alice:ftcg-test-30",
        "--stake",
        "alice:ftcg-test-31",
        code=2,
    )
    assert "one per player" in out.stderr


def test_ryujin_jakka_to_three_points(runner, env, tmp_path):
    _own(runner, "alice", tmp_path)
    _own(runner, "bob", tmp_path)
    la = _list(tmp_path, "a.txt", ["2 FT 1", "2 FT 7", "2 FT 13", "2 FT 19", "2 FT 25"])
    lb = _list(tmp_path, "b.txt", [f"1 FT {i}" for i in range(6, 16)])
    run(
        runner,
        "play",
        "new",
        "ryujin-jakka",
        "-p",
        "alice",
        "-p",
        "bob",
        "--list",
        f"alice:{la}",
        "--list",
        f"bob:{lb}",
        "--seed",
        "33" * 32,
    )
    accept(runner, 1, "alice", "bob")
    run(runner, "play", "roll", "1", "--to-end")
    data = verify(runner, 1, tmp_path)
    assert max(data["scores"].values()) == 3
    assert data["result"]["reason"] == "first to 3 points"
    run(runner, "play", "roll", "1", code=1)


def test_ryujin_jakka_is_for_two(runner, env, tmp_path):
    la = _list(tmp_path, "a.txt", [f"1 FT {i}" for i in range(1, 11)])
    out = run(runner, "play", "new", "ryujin-jakka", "-p", "a", "-p", "b", "-p", "c", "--list", f"a:{la}", code=2)
    assert "exactly 2 players" in out.stderr


def test_zangetsu_with_a_tie(runner, env, forum_catalog, tmp_path):
    pool = draw_pool(load_catalog([forum_catalog]), "ftcg-test")
    setup = {"kind": "zangetsu", "players": ["alice", "bob"], "pool": pool, "replacement": True}
    setup |= {"set": "ftcg-test", "options": {}, "scheme": thread.SCHEME}

    def tied(seed):
        log = [{"move": "accept", "player": p, "contribution": f"{p}-word", "at": ""} for p in ("alice", "bob")]
        return any(e["type"] == "round" for e in thread.play(setup, {}, rng.commitment(seed), seed, log, "").outcome.events)

    seed = next(bytes([i]) * 32 for i in range(256) if tied(bytes([i]) * 32))
    run(runner, "play", "new", "zangetsu", "-p", "alice", "-p", "bob", "--set", "FT", "--seed", seed.hex())
    run(runner, "play", "accept", "1", "-p", "alice", "--contribution", "alice-word")
    out = run(runner, "play", "accept", "1", "-p", "bob", "--contribution", "bob-word")
    assert "draw again" in out.stdout and "Result: " in out.stdout and out.stdout.startswith("cardlab game ")
    verify(runner, 1, tmp_path)


def test_markdown_and_text_output(runner, env, tmp_path):
    run(runner, "play", "new", "zangetsu", "-p", "alice", "-p", "bob", "--set", "ftcg-test")
    accept(runner, 1, "alice", "bob")
    md = run(runner, "play", "show", "1", "-O", "markdown").stdout
    assert md.startswith("**cardlab game ") and "**Result:" in md
    assert "Zangetsu" in run(runner, "play", "list").stdout
    run(runner, "play", "show", "1", "-O", "html", code=2)
    run(runner, "play", "show", "9", code=1)


def test_odds_commands(runner, env, tmp_path):
    out = run(runner, "odds", "los-lobos", "--set", "ftcg-test")
    assert "Los Lobos" in out.stdout and "1/625" in out.stdout  # 5 Values, 5 Commons each: 5·(1/5)^5
    data = json.loads(run(runner, "odds", "zangetsu", "--set", "ftcg-test", "-O", "json").stdout)
    assert data["rows"][0] == {"label": "sum 3", "fraction": "1/125", "value": 0.008}
    la = _list(tmp_path, "a.txt", ["2 FT 1", "2 FT 2", "2 FT 3", "2 FT 4", "1 FT 5", "1 FT 26"])
    assert "Doll House on the first 4 rolls" in run(runner, "odds", "doll-house", "--list", str(la)).stdout
    run(runner, "odds", "los-lobos", "--set", "nope", code=2)


@pytest.mark.parametrize(
    "record",
    [
        "[1, 2]",
        '{"setup": {"kind": "los-lobos", "players": ["a", "b"], "pool": [{"x": 1}]}, "moves": [], "events": [], "commitment": "00"}',
        "not json",
    ],
)
def test_verify_hostile_records_exit_2(runner, env, tmp_path, record):
    f = tmp_path / "bad.json"
    f.write_text(record)
    out = run(runner, "play", "verify", str(f), "--seed", "11" * 32, code=2)
    assert "Traceback" not in out.stderr


def test_play_game_shortcut_is_play_new(runner, env):
    out = run(runner, "play", "zangetsu", "-p", "alice", "-p", "bob", "--set", "ftcg-test", "--seed", "44" * 32)
    again = run(runner, "play", "new", "zangetsu", "-p", "alice", "-p", "bob", "--set", "ftcg-test", "--seed", "44" * 32)
    assert out.stdout.startswith("cardlab game ") and "Waiting for: alice, bob to accept" in out.stdout
    same = re.compile(r" post 1 at \S+:")  # the same rules, stakes and seed: the same game hash
    assert same.sub("", out.stdout) == same.sub("", again.stdout)


def test_consent_claim_and_decline(runner, env, tmp_path):
    _own(runner, "alice", tmp_path, n=1)
    _own(runner, "bob", tmp_path, n=1)
    la = _list(tmp_path, "a.txt", ["2 FT 1", "2 FT 7", "2 FT 13", "2 FT 19", "2 FT 25"])
    new = ["play", "new", "ryujin-jakka", "-p", "alice", "-p", "bob", "--list", f"alice:{la}", "--list", f"bob:{la}"]
    out = run(runner, *new, "--stake", "alice:ftcg-test-30", "--stake", "bob:ftcg-test-32", code=1)
    assert out.stderr.startswith("error: alice's list holds cards alice does not own: ftcg-test-1 (lists 2, owns 1)")
    _own(runner, "alice", tmp_path, n=1)  # an import adds: 2 copies of each now
    _own(runner, "bob", tmp_path, n=1)
    run(runner, *new, "--stake", "alice:ftcg-test-30", "--stake", "bob:ftcg-test-32")
    out = run(runner, *new, "--stake", "alice:ftcg-test-30", code=0)  # alice owns 2 copies: a second game may hold one
    out = run(runner, *new, "--stake", "alice:ftcg-test-30", code=1)
    assert out.stderr == "error: refused: alice's 2 copies of ftcg-test-30 are staked in running game(s) #1, #2\n"
    run(runner, "play", "roll", "1", code=1)  # pending: no draw
    out = run(runner, "play", "accept", "1", "-p", "carol", code=1)
    assert "refused: carol does not play game #1" in out.stderr
    run(runner, "play", "accept", "1", "-p", "alice", "--contribution", "no spaces", code=2)
    run(runner, "play", "decline", "2", "-p", "bob")
    assert "#2  Ryūjin Jakka  alice, bob  cancelled" in run(runner, "play", "list").stdout
    # game 3, the same rules, started and accepted ten days ago; alice rolled last: she claims it
    con = db.connect()
    then = datetime.now(UTC) - timedelta(days=10)
    store.create(con, store.load(con, 1).setup, {"alice": "ftcg-test-30", "bob": "ftcg-test-32"}, now=then)
    store.accept(con, 3, "alice", "alice-word", now=then)
    store.accept(con, 3, "bob", "bob-word", now=then)
    out = run(runner, "play", "claim", "3", "-p", "carol", code=1)
    assert "refused: carol does not play this game (players: alice, bob); only a player may claim it" in out.stderr
    run(runner, "play", "roll", "3", "-p", "alice")
    out = run(runner, "play", "claim", "3", "-p", "bob", code=1)
    assert "refused: alice answered last" in out.stderr
    out = run(runner, "play", "claim", "3", "-p", "alice", "-O", "bbcode").stdout
    assert "alice claims the win" in out and "[b]Result: alice wins (forfeit: no answer from bob for more than 7 days)[/b]" in out
    assert "[b]Stake: ftcg-test-32 goes from bob to alice[/b]" in out
    assert "alice claims the win" in run(runner, "play", "show", "3").stdout
    out = run(runner, "play", "claim", "1", "-p", "alice", code=1)
    assert "refused: game #1 has not started (waiting for acceptances); nothing to claim" in out.stderr
    thread_file = tmp_path / "thread.txt"
    thread_file.write_text(run(runner, "play", "show", "3", "-O", "bbcode").stdout)
    assert run(runner, "play", "verify", str(thread_file)).stdout.startswith("verified: game ")
    mine = {d["id"]: d["count"] for d in json.loads(run(runner, "collection", "list", "-p", "alice", "-O", "json").stdout)}
    assert mine["ftcg-test-32"] == 3


def test_verify_a_thread_as_a_real_subprocess(runner, env, tmp_path):
    run(runner, "play", "new", "zangetsu", "-p", "alice", "-p", "bob", "--set", "ftcg-test", "--seed", "55" * 32)
    accept(runner, 1, "alice", "bob")
    posts = tmp_path / "posts.txt"
    posts.write_text(run(runner, "play", "show", "1", "-O", "markdown").stdout)
    cmd = [sys.executable, "-m", "cardlab", "play", "verify", str(posts)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout.startswith("verified: game ")) == (0, True)
    posts.write_text(posts.read_text().replace("alice-word", "alice-wore"))
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1 and "post 3, line " in done.stderr and "expected '" in done.stderr
    done = subprocess.run([*cmd[:-1], str(tmp_path / "missing.txt")], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def _wrap_as_forum(posts: list[str]) -> str:
    """The posts as a forum page shows them: out of order, a header and a signature around each, one
    quoted again inside a reply."""
    order = [posts[i] for i in (2, 0, 3, *range(4, len(posts)), 1)]
    chrome = [
        f"Re: Ryūjin Jakka for a card\nPosted by {('alice', 'bob')[i % 2]} on Tue Dec 01 2026 21:0{i % 10}\n{p}\n_____\n[i]Forged in the Gotei, since 2009[/i]"
        for i, p in enumerate(order)
    ]
    return "\n\n".join(chrome) + "\n\n[quote=bob]" + posts[0] + "[/quote]\nnice game\n"


def test_two_players_who_do_not_trust_each_other_settle_a_staked_game_by_its_posts(runner, env, tmp_path):
    """Issue 33, 'Done when': a Ryūjin Jakka with a card at stake from each player, its seed committed
    before any draw and mixed with both players' own words; the thread as pasted on the forum proves
    the result to either player, the loser's staked card moved in the game's last transaction, and an
    edited copy, a truncated one or a forged reply fails with the post and field named (exit 1)."""
    _own(runner, "alice", tmp_path)
    _own(runner, "bob", tmp_path)
    lists = _list(tmp_path, "a.txt", ["2 FT 1", "2 FT 7", "2 FT 13", "2 FT 19", "2 FT 25"])
    new = ["play", "new", "ryujin-jakka", "-p", "alice", "-p", "bob", "--list", f"alice:{lists}", "--list", f"bob:{lists}"]
    run(runner, *new, "--stake", "alice:ftcg-test-30", "--stake", "bob:ftcg-test-32")  # the host (alice) picks no seed
    run(runner, "play", "roll", "1", code=1)  # no draw before both accept
    run(runner, "play", "accept", "1", "-p", "alice", "--contribution", "alice-secret-word")
    run(runner, "play", "accept", "1", "-p", "bob", "--contribution", "bob-own-word")
    early = run(runner, "play", "claim", "1", "-p", "bob", code=1)  # bob cannot win by forfeit at once
    assert re.search(r"refused: bob may claim game #1 after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", early.stderr), early.stderr
    run(runner, "play", "roll", "1", "--to-end")
    record = json.loads(run(runner, "play", "show", "1", "-O", "json").stdout)
    winner = record["result"]["winner"]
    loser = next(p for p in ("alice", "bob") if p != winner)
    stake = {"alice": "ftcg-test-30", "bob": "ftcg-test-32"}[loser]
    counts = {
        p: {d["id"]: d["count"] for d in json.loads(run(runner, "collection", "list", "-p", p, "-O", "json").stdout)}
        for p in ("alice", "bob")
    }
    assert (counts[winner][stake], counts[loser][stake]) == (3, 1)  # two copies each before
    bbcode = run(runner, "play", "show", "1", "-O", "bbcode").stdout
    posts = ["[b]cardlab game " + p for p in bbcode.split("[b]cardlab game ")[1:]]
    assert len(posts) == len(record["posts"]) >= 4
    pasted = tmp_path / "thread.txt"
    pasted.write_text(_wrap_as_forum(posts), encoding="utf-8")
    out = run(runner, "play", "verify", str(pasted)).stdout
    assert out.startswith("verified: game ") and out.endswith(f"posts 1 to {len(posts)} follow from the revealed seed\n")
    last = len(posts)
    edited = _wrap_as_forum([*posts[:-1], posts[-1].replace(f"Result: {winner} wins", f"Result: {loser} wins")])
    pasted.write_text(edited, encoding="utf-8")
    out = run(runner, "play", "verify", str(pasted), code=1)
    assert re.fullmatch(
        rf"game [0-9a-f]{{16}}: post {last}, line \d+ \(file line \d+\): expected 'Result: {winner} wins \(first to 3 points\)', "
        rf"found 'Result: {loser} wins \(first to 3 points\)'\n",
        out.stderr,
    ), out.stderr
    pasted.write_text("\n".join(posts[:-1]) + "\n" + posts[-1][: len(posts[-1]) // 2], encoding="utf-8")
    out = run(runner, "play", "verify", str(pasted), code=1)
    assert f"post {last} (file line" in out.stderr and "is cut short" in out.stderr
    pasted.write_bytes(b"\xff\xfe not a thread \x00")
    run(runner, "play", "verify", str(pasted), code=2)
