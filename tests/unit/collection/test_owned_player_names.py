"""Collection names in one canonical spelling (cardlab.collection.owned.check_player)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardlab.collection.owned import check_player
from cardlab.core.errors import UsageError


def test_a_name_is_returned_composed():
    assert check_player("Zoe\u0308") == "Zo\u00eb"  # e + combining diaeresis: the same name as ë
    assert check_player(" アリス ") == "アリス"
    assert check_player("Zoë") == "Zoë"


@pytest.mark.parametrize(
    ("name", "plain"),
    [("\uff41lice", "alice"), ("ｱﾘｽ", "アリス"), ("x\u00b2", "x2"), ("\ufb01re", "fire"), ("①", "1")],
)
def test_compatibility_look_alikes_are_refused_with_the_plain_spelling(name, plain):
    with pytest.raises(UsageError) as err:
        check_player(name)
    assert str(err.value) == (
        f"bad player name {name!r}: full-width and other compatibility characters would make two names look alike; write {plain!r}"
    )


INVISIBLE = "a name holds no control, invisible (zero-width, bidi) or line-separator character, and no U+FFFD (bytes that were not UTF-8)"


@pytest.mark.parametrize("ch", ["\u034f", "\u115f", "\u1160", "\u3164", "\ufe0f", "\U000e0100", "\u17b4", "\u180b", "\u2800", "\u00ad"])
def test_characters_shown_as_nothing_are_refused(ch):
    name = f"ali{ch}ce"
    with pytest.raises(UsageError) as err:
        check_player(name)
    assert str(err.value) == f"bad player name {name!r}: {INVISIBLE}"


def test_the_length_is_counted_once_composed():
    assert check_player("\u0958" * 32) == "\u0915\u093c" * 32  # 32 typed, 64 composed: the most there is
    with pytest.raises(UsageError) as err:
        check_player("\u0958" * 33)
    assert str(err.value).endswith(": at most 64 characters (it has 66 once composed as Unicode NFC)")


@given(st.text(max_size=80))
def test_a_name_accepted_is_accepted_again_as_itself(text):
    try:
        name = check_player(text)
    except UsageError:
        return
    assert check_player(name) == name


@pytest.mark.parametrize("name", ['=HYPERLINK("x")', "@SUM(1)", "+1", "-cmd"])
def test_a_name_a_spreadsheet_would_run_is_refused(name):
    """Finding: such names were written to collection exports, where a spreadsheet runs them."""
    with pytest.raises(UsageError) as err:
        check_player(name)
    assert str(err.value) == f"bad player name {name!r}: a name does not start with =, +, - or @ (a spreadsheet would run it)"
    assert check_player("a-b@c") == "a-b@c"  # inside a name they are plain characters
