"""Language keys of localized maps (cardlab.core.text.is_localized): the memo of keys seen must give
the same answer as the first reading of a key (a key never seen before in this process)."""

from __future__ import annotations

import uuid

from cardlab.core.text import is_localized


def test_a_language_key_never_seen_before_is_one():
    fresh = f"qq-{uuid.uuid4().hex[:8]}"  # a region subtag: a key no other test has used
    assert is_localized({fresh: "Zorb"}) is True
    assert is_localized({fresh: "Zorb"}) is True  # and again, from the memo


def test_a_key_never_seen_before_that_is_no_language_is_none():
    fresh = f"Q{uuid.uuid4().hex[:8]}!"
    assert is_localized({fresh: "Zorb"}) is False
    assert is_localized({fresh: "Zorb"}) is False
