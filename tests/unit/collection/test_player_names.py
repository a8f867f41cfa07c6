"""Collection names in one canonical spelling (cardlab.collection.owned.check_player)."""

from __future__ import annotations

import pytest

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
