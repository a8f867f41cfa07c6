"""cardlab.search.request: the one frozen request the engine passes through its steps."""

from __future__ import annotations

import dataclasses

import pytest

from cardlab.search.request import UNIQUE, SearchRequest


def test_defaults_are_search_defaults():
    request = SearchRequest("charizard")
    assert (request.langs, request.sort, request.reverse, request.limit, request.offset) == ((), "number", False, None, 0)
    assert (request.timeout, request.unique, request.with_total) == (None, "prints", False)
    assert UNIQUE == ("prints", "cards")


def test_langs_are_kept_as_a_tuple_and_the_request_is_frozen():
    request = SearchRequest("charizard", langs=["fr", "de"])
    assert request.langs == ("fr", "de")
    assert hash(request) == hash(SearchRequest("charizard", langs=("fr", "de")))
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.limit = 3  # type: ignore[misc]
