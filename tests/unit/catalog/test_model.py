"""cardlab.catalog.model.number_int: the one reading of a collector number's digits."""

from __future__ import annotations

import pytest

from cardlab.catalog.model import number_int


@pytest.mark.parametrize(("number", "value"), [("4", 4), ("012", 12), ("H12", 12), ("4a", 4), ("1/132", 1132), ("SH", None), ("", None)])
def test_number_int(number, value):
    assert number_int(number) == value
