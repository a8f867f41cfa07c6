"""The deck builder's cookie (:class:`cardlab.web.saved.Draft`): a parser of what a client sends, held
to round-trip every draft it writes and to read any text without an error (hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cardlab.web.saved import MAX_COPIES, MAX_DRAFT_CARDS, Draft

IDS = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,20}", fullmatch=True)
DRAFTS = st.builds(
    Draft,
    cards=st.dictionaries(IDS, st.integers(1, MAX_COPIES), max_size=40),
    deck_id=st.one_of(st.none(), st.from_regex(r"[A-Za-z0-9_-]{8}", fullmatch=True)),
    version=st.integers(1, 10**6),
)


@given(DRAFTS)
def test_a_draft_reads_back_from_its_cookie(draft):
    if draft.deck_id is None:
        draft.version = 0
    again = Draft.from_cookie(draft.cookie())
    assert (again.cards, again.deck_id, again.version) == (draft.cards, draft.deck_id, draft.version)
    assert list(again.cards) == list(draft.cards)  # the order cards were added in


@given(st.text(max_size=2000))
def test_any_cookie_text_reads_as_a_bounded_draft(text):
    draft = Draft.from_cookie(text)
    assert len(draft.cards) <= MAX_DRAFT_CARDS
    assert all(1 <= n <= MAX_COPIES for n in draft.cards.values())


def test_a_quoted_cookie_value_is_read():
    assert Draft.from_cookie('"!AbCdEfGh.2~base1-7*4"') == Draft({"base1-7": 4}, "AbCdEfGh", 2)


def test_a_cookie_of_too_many_cards_keeps_the_first_150():
    draft = Draft.from_cookie("~".join(f"c{i}*1" for i in range(400)))
    assert list(draft.cards) == [f"c{i}" for i in range(MAX_DRAFT_CARDS)]
