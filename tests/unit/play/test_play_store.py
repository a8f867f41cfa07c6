"""Saved games and stakes through the library (issue 13 §3, "Stakes")."""

from __future__ import annotations

import json

import pytest

from cardlab.collection import db, owned
from cardlab.core.errors import CardlabError
from cardlab.play import store
from cardlab.render.forum import game_json


def pool(*values):
    return [{"id": f"ftcg-test-{i + 1}", "name": f"C{i}", "value": v, "faction": "neutral"} for i, v in enumerate(values)]


@pytest.fixture
def con(backend):
    c = db.connect()
    for p in ("alice", "bob"):
        owned.change(c, p, [("add", "ftcg-test-30", 1), ("add", "ftcg-test-32", 1)])
    return c


def test_a_draw_moves_no_stake(con):
    setup = {"kind": "los-lobos", "players": ["alice", "bob"], "pool": pool(3), "replacement": True}
    rec, out = store.create(con, setup, {"alice": "ftcg-test-30", "bob": "ftcg-test-32"})
    assert out.over and out.draw and rec.status == "over"
    assert rec.result["stakes_moved"] == []
    assert owned.counts(con, "alice") == owned.counts(con, "bob") == {"ftcg-test-30": 1, "ftcg-test-32": 1}


def test_the_losers_stake_goes_to_the_winner_in_the_same_transaction(con):
    setup = {"kind": "zangetsu", "players": ["alice", "bob"], "pool": pool(1, 9), "replacement": True}
    rec, out = store.create(con, setup, {"alice": "ftcg-test-30", "bob": "ftcg-test-32"}, seed=bytes(32))
    winner = out.winner
    loser = "bob" if winner == "alice" else "alice"
    staked = {"alice": "ftcg-test-30", "bob": "ftcg-test-32"}[loser]
    assert owned.owned(con, winner, staked) == 2 and owned.owned(con, loser, staked) == 0
    assert store.load(con, rec.id).result["stakes_moved"] == [{"card": staked, "from": loser, "to": winner}]


def test_a_stake_no_longer_owned_is_recorded_not_invented(con):
    setup = {"kind": "zangetsu", "players": ["alice", "bob"], "pool": pool(1, 9), "replacement": True}
    owned.change(con, "alice", [("remove", "ftcg-test-30", 1)])
    owned.change(con, "bob", [("remove", "ftcg-test-32", 1)])
    rec, out = store.create(con, setup, {"alice": "ftcg-test-30", "bob": "ftcg-test-32"}, seed=bytes(32))
    assert rec.result["stakes_moved"] == [] and len(rec.result["stakes_not_moved"]) == 1


def test_reveal_only_after_the_end_and_verify(con):
    lists = {p: [{"id": str(i), "name": str(i), "value": i, "faction": "neutral"} for i in range(1, 11)] for p in ("alice", "bob")}
    setup = {"kind": "ryujin-jakka", "players": ["alice", "bob"], "lists": lists, "options": {"win": {"mode": "points", "points": 3}}}
    rec, _ = store.create(con, setup, seed=bytes(range(32)))
    with pytest.raises(CardlabError, match="still on"):
        store.reveal(con, rec.id)
    rec, out = store.play_move(con, rec.id, {"move": "roll"}, until_over=True)
    seed = store.reveal(con, rec.id)
    assert seed == bytes(range(32)).hex()
    record = json.loads(json.dumps(game_json(rec, out)))
    assert store.verify(record, seed) == (True, [])
    ok, findings = store.verify(record, "00" * 32)
    assert not ok and "commitment" in findings[0]
