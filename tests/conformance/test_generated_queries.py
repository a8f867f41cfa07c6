"""Generated queries (hypothesis) over the vintage Pokémon catalog (cards/pokemon): SQLite and
PostgreSQL give the same ids in the same order, or the same error, for at least 1,000 queries built
of field terms, bare words and prefixes, quoted phrases, negations, OR, parentheses, Japanese
fragments and accented spellings."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.index.sqlite import _texts, data_decoder

EXAMPLES = 1000


@pytest.fixture(scope="module")
def vintage(indexed):
    """The vintage catalog's pair of indexes and its vocabulary (words of names and rules text,
    phrases of rules text, Japanese names, closed-field values)."""
    pair = indexed("vintage")
    con = pair.sqlite
    decode = data_decoder(con)
    rng = random.Random(15)
    rows = con.execute("SELECT data FROM card ORDER BY rowid").fetchall()
    names_words: set[str] = set()
    body_words: set[str] = set()
    phrases: list[str] = []
    for (data,) in rng.sample(rows, min(300, len(rows))):
        names, body, _stems = _texts(decode(data))
        names_words.update(re.findall(r"\w+", names))
        for line in body.split("\n"):
            words = re.findall(r"[a-z]+", line)
            body_words.update(words)
            if len(words) >= 3:
                i = rng.randrange(len(words) - 1)
                phrases.append(" ".join(words[i : i + rng.choice((2, 3))]))
    # the vintage catalog has no Japanese names yet: fragments of these then (none match, both must agree)
    japanese = [r[0] for r in con.execute("SELECT name FROM card_name WHERE lang = 'ja' ORDER BY rowid")] or JAPANESE

    def values(field: str) -> list[str]:
        return [r[0] for r in con.execute("SELECT DISTINCT text FROM facet_text WHERE field = ? ORDER BY text", (field,))]

    vocab = {
        "names": sorted(names_words),
        "body": sorted(body_words),
        "phrases": sorted(set(phrases)),
        "japanese": japanese,
        "sets": [r[0] for r in con.execute("SELECT key FROM set_key ORDER BY key")],
        "artists": values("artist"),
        **{f: values(f) for f in ("type", "rarity", "stage", "weakness", "resistance", "supertype", "evolves")},
    }
    return pair, vocab


JAPANESE = ["リザードン", "ピカチュウ", "ポケモン", "エネルギー", "炎", "ひとかげ", "超能力"]
ACCENTED = ["pokémon", "Pokémon", "énergie", "évoli", "dracaufeu", "Évolution", "élektek", "POKÉMON", "ＰＩＫＡ", "ça", "naïve"]


def queries(vocab: dict) -> st.SearchStrategy[str]:
    """Queries of the search language made from the catalog's own words and values."""

    def pick(key: str) -> st.SearchStrategy[str]:
        return st.sampled_from(vocab[key])

    def quoted(value: str) -> str:
        return f'"{value}"' if " " in value else value

    word = st.one_of(pick("names"), pick("body"), st.sampled_from(ACCENTED))
    prefix = st.tuples(word, st.integers(1, 6)).map(lambda t: t[0][: t[1]])
    fragment = st.tuples(pick("japanese"), st.integers(0, 3), st.integers(1, 4)).map(lambda t: t[0][t[1] : t[1] + t[2]] or t[0])
    op = st.sampled_from([":", "=", "!=", "<", "<=", ">", ">="])
    field_term = st.one_of(
        st.tuples(st.sampled_from(["type", "t", "weakness", "resistance"]), pick("type")).map(lambda t: f"{t[0]}:{quoted(t[1])}"),
        st.tuples(st.sampled_from(["hp", "retreat", "cost", "damage", "level", "number", "dex"]), op, st.integers(0, 130)).map(
            lambda t: f"{t[0]}{t[1]}{t[2]}"
        ),
        pick("sets").map(lambda v: f"set:{quoted(v)}"),
        pick("rarity").map(lambda v: f"rarity:{quoted(v)}"),
        pick("stage").map(lambda v: f"stage:{quoted(v)}"),
        pick("supertype").map(lambda v: f"supertype:{v}"),
        pick("evolves").map(lambda v: f"evolves:{quoted(v)}"),
        pick("artists").map(lambda v: f"artist:{quoted(v[: max(3, len(v) // 2)])}"),
        prefix.map(lambda v: f"name:{v}"),
        word.map(lambda v: f"name={v}"),
        word.map(lambda v: f"text:{v}"),
        fragment.map(lambda v: f"name:{v}"),
        pick("phrases").map(lambda v: f'text:"{v}"'),
        pick("phrases").map(lambda v: f'attack:"{v.split()[0]}"'),
        st.sampled_from(["mana:x", "atk:?", "hp!=120", "energy:basic", "kw:rapide"]),
    )
    atom = st.one_of(field_term, word, prefix, pick("phrases").map(lambda v: f'"{v}"'), fragment, st.sampled_from(ACCENTED))

    def combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            children.map(lambda q: f"-{q}" if not q.startswith("-") else f"not {q}"),
            st.tuples(children, children).map(lambda t: f"{t[0]} {t[1]}"),
            st.tuples(children, children).map(lambda t: f"({t[0]} or {t[1]})"),
            st.tuples(children, children).map(lambda t: f"{t[0]} and {t[1]}"),
        )

    return st.recursive(atom, combine, max_leaves=5)


SORT_CHOICES = st.sampled_from([("number", False), ("name", False), ("hp", True), ("rarity", False), ("artist", True)])


def test_generated_queries_same_on_both_backends(vintage, answer):
    pair, vocab = vintage
    seen: list[str] = []
    matched: list[int] = []

    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(query=queries(vocab), order=SORT_CHOICES, unique=st.sampled_from(["prints", "cards"]))
    def same(query: str, order: tuple[str, bool], unique: str) -> None:
        seen.append(query)
        sort, reverse = order
        expected = answer(pair.sqlite, query, sort=sort, reverse=reverse, unique=unique)
        assert answer(pair.pg, query, sort=sort, reverse=reverse, unique=unique) == expected, query
        if expected[0] == "ok":
            matched.append(len(expected[1]))

    same()
    assert len(seen) >= EXAMPLES
    # the generator makes queries that find cards, not only errors or empty results
    assert sum(1 for n in matched if n > 0) >= EXAMPLES // 4
