"""core.inputs: bounded reads of any file (special ones too), lines as editors count them, text arguments."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.core.errors import UsageError
from cardlab.core.inputs import LineIndex, LoadError, line_col, read_bytes, read_text, split_lines, text_argument


def _endless_fifo(path):
    os.mkfifo(path)

    def feed():
        try:
            with open(path, "wb") as fh:
                while True:
                    fh.write(b"4 Pikachu\n" * 10000)
        except (BrokenPipeError, OSError):
            pass

    threading.Thread(target=feed, daemon=True).start()


@pytest.mark.parametrize("kind", ["/dev/zero", "/dev/urandom", "fifo", "pipe"])
def test_special_files_are_read_up_to_the_limit(kind, tmp_path):
    """Kind: reading without limit (7 GB from /dev/zero in 7 s): at most limit + 1 bytes are read
    from any file, special or not, then it is refused."""
    if kind == "fifo":
        path = tmp_path / "deck.txt"
        _endless_fifo(path)
    elif kind == "pipe":
        proc = subprocess.Popen([sys.executable, "-c", "import sys\nwhile True: sys.stdout.write('x' * 65536)"], stdout=subprocess.PIPE)
        path = f"/proc/self/fd/{proc.stdout.fileno()}"
    else:
        path = kind
    start = time.perf_counter()
    try:
        with pytest.raises(LoadError) as info:
            read_bytes(path, 1_000_000, "deck file")
    finally:
        if kind == "pipe":
            proc.kill()
            proc.wait()
    assert time.perf_counter() - start < 5
    assert "deck file is more than 1,000,000 bytes; the limit is 1,000,000" in info.value.problem.message
    assert info.value.problem.rule == "file"


def test_regular_file_limits(tmp_path):
    """Kind: bounded reads: a regular file over the limit says its size; one at the limit is read."""
    path = tmp_path / "x"
    path.write_bytes(b"a" * 11)
    with pytest.raises(LoadError, match="file is 11 bytes; the limit is 10"):
        read_bytes(path, 10)
    assert read_bytes(path, 11) == b"a" * 11


@pytest.mark.parametrize(("make", "fragment"), [("missing", "No such file"), ("folder", "is a folder")])
def test_unreadable(make, fragment, tmp_path):
    """Kind: unreadable input: a positioned LoadError with rule file, never an OSError."""
    path = tmp_path / "x"
    if make == "folder":
        path.mkdir()
    with pytest.raises(LoadError, match=fragment) as info:
        read_text(path)
    assert info.value.problem.rule == "file"


@pytest.mark.parametrize(
    ("data", "where"),
    [
        (b"ab\ncd\xffe", (2, 3)),
        (b"a\xe2\x80\xa8b\n\xff", (2, 1)),
        (b"a\xc2\x85b\r\xff", (2, 1)),
        (b"ok\r\nx\x00", (2, 2)),
        (b"\x0cz\n\xc3", (2, 1)),
    ],
)
def test_bad_bytes_positioned_as_editors_count(data, where, tmp_path):
    """Kind: lines as editors count them, in decoding errors (U+2028, NEL, form feed do not start lines)."""
    path = tmp_path / "x"
    path.write_bytes(data)
    with pytest.raises(LoadError) as info:
        read_text(path)
    assert (info.value.problem.pos.line, info.value.problem.pos.col) == where


SPLITS = [
    ("a\nb", ["a", "b"]),
    ("a\r\nb\r\n", ["a", "b"]),
    ("a\rb", ["a", "b"]),
    ("a\n\nb", ["a", "", "b"]),
    ("a\u2028b", ["a\u2028b"]),
    ("a\u2029b", ["a\u2029b"]),
    ("a\x85b", ["a\x85b"]),
    ("a\x0cb", ["a\x0cb"]),
    ("a\x0bb", ["a\x0bb"]),
    ("a\x1cb\x1dc\x1ed", ["a\x1cb\x1dc\x1ed"]),
    ("", []),
    ("\n", [""]),
    ("\r\r\n", ["", ""]),
]


@pytest.mark.parametrize(("text", "lines"), SPLITS)
def test_split_lines(text, lines):
    """Kind: line splitting: only \\n, \\r\\n and \\r end lines (str.splitlines also splits on
    U+2028, NEL, form feed, vertical tab and file/group/record separators)."""
    assert split_lines(text) == lines


@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from("ab\n\r\u2028\x85\x0c\x0b\x1c"), max_size=30))
def test_line_numbers_agree(text):
    """Kind: lines as editors count them (property): split_lines, line_col and LineIndex agree, and
    joining the lines back with their breaks gives the text."""
    assert "".join(split_lines(text, keepends=True)) == text
    index = LineIndex(text)
    for i in range(len(text) + 1):
        line, col = line_col(text, i)
        assert index.line_col(i) == (line, col)
        if text[i - 1 : i + 1] == "\r\n":  # the \n of a \r\n ends the line before
            continue
        before = split_lines(text[:i] + "x", keepends=True)
        assert line == len(before) and col == len(before[-1].rstrip("\r\n"))


@pytest.mark.parametrize(
    ("arg", "fragment"), [("t:\udcff", "(byte 0xff) at character 3"), ("\udce9t\udce9", "byte 0xe9"), ("x\ud800", "not UTF-8")]
)
def test_text_argument(arg, fragment):
    """Kind: command-line text that is not UTF-8 (lone surrogates reached SQLite): a usage error."""
    with pytest.raises(UsageError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        text_argument(arg, "the query")
    assert text_argument("t:fire Pokémon", "the query") == "t:fire Pokémon"


SIZE_ZERO = Path("/proc/sys/kernel/pid_max")


@pytest.mark.skipif(not SIZE_ZERO.is_file() or SIZE_ZERO.stat().st_size != 0, reason="needs Linux's /proc/sys (files of size 0)")
def test_a_regular_file_of_size_zero_is_read_whole():
    """A /proc/sys file says it is a regular file of size 0 and answers only a read from its start:
    its size says nothing, so it is read as a pipe is (it was cut to its first byte)."""
    expected = subprocess.run(["cat", str(SIZE_ZERO)], capture_output=True, check=True).stdout
    assert len(expected) > 1
    assert read_bytes(SIZE_ZERO, 1000) == expected
