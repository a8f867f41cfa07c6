"""The write token of ``cardlab serve --allow-writes`` (:mod:`cardlab.core.auth`): where it is read
from, what it must look like."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardlab.core.auth import MAX_TOKEN, MIN_TOKEN, TOKEN_ENV, check_token, serve_token
from cardlab.core.errors import InputError, UsageError

GOOD = "abcdefghijklmnop-0123"


def test_check_token_strips_and_keeps():
    assert check_token(f"  {GOOD}\n", "x") == GOOD
    assert check_token("a" * MIN_TOKEN, "x") == "a" * MIN_TOKEN
    assert check_token("~" * MAX_TOKEN, "x") == "~" * MAX_TOKEN


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("", "the token in src is empty"),
        ("\n\t ", "the token in src is empty"),
        ("a" * (MIN_TOKEN - 1), "the token in src has 15 characters; give 16 to 4,096"),
        ("a" * (MAX_TOKEN + 1), "the token in src has 4,097 characters; give 16 to 4,096"),
        ("abcdefgh ijklmnopq", "the token in src holds spaces or characters other than visible ASCII"),
        ("abcdefghijklmnop\x00", "the token in src holds spaces or characters other than visible ASCII"),
        ("abcdefghijklmnopé", "the token in src holds spaces or characters other than visible ASCII"),
    ],
)
def test_check_token_refuses(token, message):
    with pytest.raises(UsageError) as err:
        check_token(token, "src")
    assert str(err.value).startswith(message)


@given(
    st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=MIN_TOKEN, max_size=200),
    st.sampled_from(["", " ", "\n", "\r\n", "\t "]),
)
def test_any_visible_ascii_token_reads_back(token, space):
    assert check_token(space + token + space, "x") == token


@given(st.text(min_size=0, max_size=40))
def test_check_token_accepts_only_the_pattern(text):
    stripped = text.strip()
    ok = MIN_TOKEN <= len(stripped) <= MAX_TOKEN and all(0x21 <= ord(c) <= 0x7E for c in stripped)
    if ok:
        assert check_token(text, "x") == stripped
    else:
        with pytest.raises(UsageError):
            check_token(text, "x")


def test_serve_token_sources(tmp_path):
    file = tmp_path / "token"
    file.write_text(GOOD + "\n")
    assert serve_token(file, {TOKEN_ENV: "env-token-0123456789"}) == GOOD  # the file wins
    assert serve_token(None, {TOKEN_ENV: "env-token-0123456789"}) == "env-token-0123456789"
    with pytest.raises(UsageError) as err:
        serve_token(None, {})
    assert str(err.value).startswith("--allow-writes needs a token: set CARDLAB_SERVE_TOKEN or give --token-file PATH")
    with pytest.raises(UsageError, match="the token in CARDLAB_SERVE_TOKEN is empty"):
        serve_token(None, {TOKEN_ENV: ""})


def test_serve_token_file_errors(tmp_path):
    with pytest.raises(InputError) as err:
        serve_token(tmp_path / "nothing", {})
    assert str(err.value) == f"{tmp_path / 'nothing'}: cannot read the token file: No such file or directory"
    with pytest.raises(InputError, match="is a folder, not a file"):
        serve_token(tmp_path, {})
    big = tmp_path / "big"
    big.write_text("a" * (MAX_TOKEN + 100))
    with pytest.raises(InputError, match="the token file is 4,196 bytes; the limit is 4,160"):
        serve_token(big, {})
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff" * 20)
    with pytest.raises(InputError, match="not UTF-8 text"):
        serve_token(binary, {})
