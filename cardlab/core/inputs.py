"""Reading input files, and lines as editors count them: the one home of both.

- :func:`read_bytes` reads at most ``limit + 1`` bytes from any path, a regular file or not
  (``/dev/zero``, a FIFO, a pipe): a larger input is refused after reading one byte too many,
  never read to its end.
- :func:`read_text` adds UTF-8 decoding (or a declared charset), with the position of the
  first bad byte and of a NUL byte.
- :func:`split_lines`, :func:`line_col`: a line ends at ``\\n``, ``\\r\\n`` or ``\\r`` only, as in
  every editor and in YAML 1.2; Python's ``str.splitlines`` also breaks at U+2028, NEL, form feed
  and other separators, which shifts every later line number.
"""

from __future__ import annotations

import bisect
import codecs
import errno
import os
import re
import stat
from pathlib import Path

from cardlab.core.errors import Problem, SourcePos, UsageError
from cardlab.core.l10n import N_, _

MAX_FILE_BYTES = 1_000_000
"""A card or set file larger than this (1 MB) is refused."""

LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""A line break as editors and YAML 1.2 count them."""


def as_path(path: Path | str) -> Path:
    """``path`` as a :class:`~pathlib.Path`, the same object when it is one already (a deck check
    passes one path through several readers: no re-parse of it at each)."""
    return path if isinstance(path, Path) else Path(path)


class LoadError(Exception):
    """A file that cannot be turned into data; ``problem`` says where and why (rule ``file`` for
    a file that cannot be read at all, ``encoding`` for bytes that are not text, else the
    format's own rule)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def split_lines(text: str, keepends: bool = False) -> list[str]:
    """Split ``text`` into lines at ``\\n``, ``\\r\\n`` and ``\\r`` only (a final break ends the
    last line; it does not start an empty one), like ``str.splitlines`` otherwise."""
    if not text:
        return []
    if not keepends and "\r" not in text:  # most texts: str.split is the same, and faster
        out = text.split("\n")
        if not out[-1]:
            out.pop()  # a final break ends the last line
        return out
    out = []
    start = 0
    for m in LINE_BREAK.finditer(text):
        out.append(text[start : m.end() if keepends else m.start()])
        start = m.end()
    if start < len(text):
        out.append(text[start:])
    return out


class LineIndex:
    """Offsets -> 1-based (line, column) in one text, as an editor counts them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] | None = None  # computed on first use

    def line_col(self, index: int) -> tuple[int, int]:
        """The 1-based line and column of the character at ``index``."""
        if self.starts is None:
            self.starts = [0] + [m.end() for m in LINE_BREAK.finditer(self.text)]
        i = bisect.bisect_right(self.starts, index) - 1
        return i + 1, index - self.starts[i] + 1


def line_col(text: str, index: int) -> tuple[int, int]:
    """Return the 1-based (line, column) of the character at ``index`` of ``text``."""
    return LineIndex(text[: index + 1]).line_col(index)


_OS_ERRORS = {
    errno.EISDIR: N_("is a folder, not a file"),
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.ENOTDIR: N_("Not a directory"),
}
"""The usual reasons a file cannot be read, in the system's English words the catalogs translate
(any other reason: the system's own words)."""


def _describe(err: OSError) -> str:
    known = _OS_ERRORS.get(err.errno or 0)
    return _(known) if known else err.strerror or str(err)


def _cannot_read(path: Path, what: str, why: str) -> LoadError:
    return LoadError(Problem(SourcePos(path, 1, 1), _("cannot read {what}: {why}").format(what=_(what), why=why), "file"))


def read_bytes(path: Path, limit: int, what: str = N_("file")) -> bytes:
    """Read at most ``limit + 1`` bytes of ``path`` and refuse the file when there are more.

    Works the same for regular files and special ones (``/dev/zero``, a FIFO or a pipe is read up
    to the limit, then refused; a FIFO waits for its writer, as ``cat`` does).

    Raises:
        LoadError: rule ``file``: missing, a folder, unreadable, or larger than ``limit``.
    """
    path = as_path(path)
    try:
        flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags)
    except OSError as err:
        raise _cannot_read(path, what, _describe(err)) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise _cannot_read(path, what, _("is a folder, not a file"))
        chunks: list[bytes] = []
        size = 0
        # a regular file's size is known: the first read asks for one byte more than it, so a small
        # file costs no buffer of the limit's size; a file that grew is read on to its end as any
        # other. Size 0 says nothing (a /proc/sys file answers only a read from its start)
        regular = stat.S_ISREG(st.st_mode) and st.st_size > 0
        want = st.st_size + 1 if regular else 1 << 20
        while size <= limit:
            asked = min(want, limit + 1 - size)
            chunk = os.read(fd, asked)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if regular and size == st.st_size and len(chunk) < asked:
                break  # the whole file, as its size said, and nothing after it: no read to see the end
            want = 1 << 20
    except OSError as err:
        raise _cannot_read(path, what, _describe(err)) from None
    finally:
        os.close(fd)
    if size > limit:
        real = (
            _("{n} bytes").format(n=f"{st.st_size:,}")
            if stat.S_ISREG(st.st_mode) and st.st_size > limit
            else _("more than {n} bytes").format(n=f"{limit:,}")
        )
        message = _("{what} is {size}; the limit is {limit}").format(what=_(what), size=real, limit=f"{limit:,}")
        raise LoadError(Problem(SourcePos(path, 1, 1), message, "file"))
    return b"".join(chunks)


def decode(raw: bytes, path: Path, encoding: str = "utf-8", hint: str = N_("save the file as UTF-8")) -> str:
    """Decode ``raw`` (a UTF-8 BOM is dropped) and refuse NUL characters.

    Raises:
        LoadError: rule ``encoding``, at the line and column of the first bad byte or NUL.
    """
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as err:
        good = raw[: err.start].decode(encoding, errors="replace")
        line, col = line_col(good, len(good))
        name = codecs.lookup(encoding).name
        what = "UTF-8" if name == "utf-8" else name
        raise LoadError(
            Problem(
                SourcePos(path, line, col),
                _("not {encoding} text (byte {byte}); {hint}").format(encoding=what, byte=f"0x{raw[err.start]:02x}", hint=_(hint)),
                "encoding",
            )
        ) from None
    except (UnicodeError, ValueError, TypeError) as err:  # codecs such as idna fail otherwise
        raise LoadError(
            Problem(
                SourcePos(path, 1, 1),
                _("cannot decode the file as {encoding}: {error}; {hint}").format(encoding=encoding, error=err, hint=_(hint)),
                "encoding",
            )
        ) from None
    nul = text.find("\x00")
    if nul >= 0:
        line, col = line_col(text, nul)
        raise LoadError(Problem(SourcePos(path, line, col), _("a NUL byte: this is a binary file, not text"), "encoding"))
    return text.removeprefix("\ufeff")


def read_text(path: Path, max_bytes: int = MAX_FILE_BYTES, what: str = N_("file")) -> str:
    """Read a UTF-8 text file of at most ``max_bytes`` (a BOM is dropped).

    Raises:
        LoadError: the file is missing, unreadable or too large (rule ``file``), or not UTF-8 /
            holds a NUL byte (rule ``encoding``, with line and column).
    """
    path = as_path(path)
    return decode(read_bytes(path, max_bytes, what), path)


def text_argument(value: str, what: str = "the argument", hint: str = "check the terminal's encoding") -> str:
    """Return a command-line text argument (or any text from outside: a JSON string of the web API),
    refusing one that is not UTF-8, that is, one holding a lone surrogate (U+D800 to U+DFFF, no
    Unicode scalar value).

    Python decodes undecodable argument bytes (``$'t:\\xff'``) as lone surrogates, and JSON's
    ``"\\ud800"`` escape gives one; SQLite and every encoder refuse them later with a traceback;
    this says where the bad character is instead, followed by ``hint``.

    Raises:
        UsageError: the text holds a byte that is not UTF-8 (its column is given).
    """

    for i, ch in enumerate(value):
        if "\ud800" <= ch <= "\udfff":
            byte = f" (byte 0x{ord(ch) - 0xDC00:02x})" if "\udc80" <= ch <= "\udcff" else ""
            raise UsageError(f"{what} is not UTF-8 text{byte} at character {i + 1}; {hint}")
    return value
