"""Folding keeps a CJK character CJK (issue 12): the index stores for substring search only the
folded lines that hold one, and a query holding one is searched there."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.core.text import fold, has_cjk

CJK_CHARS = [chr(c) for c in range(0x3040, 0x3100)] + [chr(c) for c in range(0xF900, 0xFB00)] + [chr(c) for c in range(0xFF66, 0xFFA0)]


def test_every_cjk_character_of_the_changing_blocks_stays_cjk():
    changed = [ch for ch in CJK_CHARS if has_cjk(ch) and not has_cjk(fold(ch))]
    assert changed == [ch for ch in CJK_CHARS if has_cjk(ch) and not unicodedata.normalize("NFKC", ch).strip()]


@settings(max_examples=2000)
@given(st.text(alphabet=st.sampled_from(CJK_CHARS) | st.characters(exclude_categories=["Cs"]), max_size=8))
def test_fold_keeps_cjk(text):
    if has_cjk(text) and any(unicodedata.normalize("NFKC", ch).strip() for ch in text if has_cjk(ch)):
        assert has_cjk(fold(text))


def test_compatibility_ideograph_folds_into_the_supplementary_plane():
    assert fold("\ufa6c") == "\U000242ee" and has_cjk(fold("\ufa6c"))
