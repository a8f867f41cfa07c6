"""Writing files the user asked for: checking the output path first, then an atomic write.

The one home of both for every writer in cardlab (proxy PDFs, PO files, new card files).
:func:`check_output` fails fast, before any work, on a path that cannot be written (empty, ``-``,
a name too long, a folder, a missing folder, an existing file without ``overwrite``...).
:func:`atomic_write` writes through a temporary file in the same folder with the usual permissions
(``0o666`` less the umask, or the mode of the file it replaces), then renames it over the target:
no partial file is ever left behind.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from cardlab.core.errors import CardlabError, ExitStatus

__all__ = ["OutputError", "OutputPathError", "atomic_write", "check_output", "new_file_mode"]


class OutputError(CardlabError):
    """The file cannot be written where asked (exists, unwritable folder, disk full...): exit 1."""


class OutputPathError(OutputError):
    """The output path itself is wrong (empty, ``-``, too long, a folder, under a file or a missing
    folder): exit 2, as for other bad arguments."""

    exit_code = ExitStatus.USAGE


def check_output(path: Path | str, overwrite: bool = False, example: str = "proxies.pdf", protected: Sequence[Path] = ()) -> Path:
    """Check that a file can be written at ``path`` before any work is done; return it absolute.

    Only a regular file is ever replaced: a device (``/dev/null``), a FIFO or a socket is refused,
    even with ``overwrite``, and so is one of the command's own inputs.

    Args:
        path: the output file, as given (a string keeps an empty ``-o ''`` distinguishable from ``.``).
        overwrite: an existing file may be replaced.
        example: a file name the messages suggest (``proxies.pdf``, ``fr.po``).
        protected: the command's inputs: files that must not be replaced, and folders (catalog
            roots) in which no YAML file may be written.

    Raises:
        OutputPathError: the path is empty or ``-`` (standard output is not supported), its name is
            too long, it is a folder, its folder is missing or is a file (exit 2).
        OutputPathError: also when the file exists and ``overwrite`` is False, it is not a regular
            file, it is one of ``protected``, or its folder is not writable (exit 2).
        OutputError: the system refuses to look at the path (exit 1).
    """
    text = os.fspath(path)
    if not text.strip():
        raise OutputPathError(f"the output path is empty; give a file name such as -o {example}")
    if text.endswith(("/", os.sep)):
        raise OutputPathError(f"{text} ends with a slash, so it names a folder; give a file name such as {example}")
    if text == "-":
        raise OutputPathError(f"cannot write this file to standard output ('-'); write to a file path, e.g. -o {example}")
    try:
        path = Path(text).expanduser().absolute()
        folder = path.parent
        here = _stat(path)
        if here is not None and stat.S_ISDIR(here.st_mode):
            raise OutputPathError(f"{path} is a folder; give a file name such as {path / example}")
        if here is not None and not stat.S_ISREG(here.st_mode):
            raise OutputPathError(f"{path} is not a regular file (a device, pipe or socket); write to a file path")
        for guarded in protected:
            guarded = Path(guarded).absolute()
            if here is not None and guarded.is_file() and os.path.samefile(guarded, path):
                raise OutputPathError(f"{path} is an input of this command; write the output to another file")
            if guarded.is_dir() and path.suffix.lower() in (".yaml", ".yml") and guarded in path.parents:
                raise OutputPathError(f"{path} is inside the catalog {guarded}; write the output elsewhere")
        if here is not None and not overwrite:
            raise OutputPathError(f"{path} already exists; use --overwrite to replace it")
        up = _stat(folder)
        if up is None or not stat.S_ISDIR(up.st_mode):
            above = folder
            while up is None and above != above.parent:  # the nearest thing that is there
                above = above.parent
                up = _stat(above)
            if up is not None and not stat.S_ISDIR(up.st_mode):
                raise OutputPathError(f"cannot write {path}: {above} is a file, not a folder")
            raise OutputPathError(f"cannot write {path}: folder {folder} does not exist")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OutputPathError(f"cannot write {path}: folder {folder} is not writable")
    except ValueError as err:  # a NUL byte in the path
        raise OutputPathError(f"cannot write {text!r}: {err}") from None
    return path


def _stat(path: Path) -> os.stat_result | None:
    """``os.stat`` of ``path``, None when nothing is there; other failures become output errors."""
    try:
        return path.stat()
    except (FileNotFoundError, NotADirectoryError):  # ENOTDIR: a parent is a file
        return None
    except OSError as err:
        bad = err.errno in (errno.ENAMETOOLONG, errno.ELOOP, errno.EINVAL)
        cls = OutputPathError if bad else OutputError
        raise cls(f"cannot write {path}: {err.strerror or err}") from None


def new_file_mode(path: Path) -> int:
    """Permission bits for a file written at ``path``: the existing file's, else ``0o666`` less the umask."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process umask, read without changing it where the system allows (Linux ``/proc``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # elsewhere: set and restore at once (not thread-safe)
    os.umask(mask)
    return mask


def atomic_write(
    path: Path | str, data: bytes | str, overwrite: bool = False, example: str = "proxies.pdf", protected: Sequence[Path] = ()
) -> Path:
    """Write ``data`` to ``path`` atomically: a temporary file in the same folder, then a rename.

    Text is written as UTF-8 with ``\n`` line ends. Nothing is left behind on failure; an existing
    file is only ever replaced whole, and without ``overwrite`` never replaced at all (not even one
    created while writing: the final step is a hard link, which fails on an existing name). The new
    file gets the usual permissions (``0o666`` less the umask), or keeps the mode of the file it
    replaces.

    Args:
        path: the target file; data: its whole content; overwrite: an existing file may be replaced;
        example: a file name the messages suggest; protected: as :func:`check_output`.

    Returns:
        The absolute path written.

    Raises:
        OutputPathError, OutputError: as :func:`check_output`, or the write itself failed (disk full...).
    """
    path = check_output(path, overwrite, example, protected)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = None, None
    try:
        mode = new_file_mode(path)
        # a short temporary name: a file name near the system's limit must not fail here
        fd, tmp = tempfile.mkstemp(prefix=".cardlab-", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fd = None
            fh.write(raw)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        if overwrite:
            os.replace(tmp, path)
        else:
            _rename_new(tmp, path)
        tmp = None
    except OSError as err:
        cls = OutputPathError if err.errno == errno.ENAMETOOLONG else OutputError
        raise cls(f"cannot write {path}: {err.strerror or err}") from None
    finally:
        if fd is not None:
            os.close(fd)
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return path


def _rename_new(tmp: str, path: Path) -> None:
    """Move ``tmp`` to ``path`` only if ``path`` does not exist (atomically where hard links work)."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise OutputPathError(f"{path} already exists; use --overwrite to replace it") from None
    except OSError:  # a file system without hard links: check, then rename
        if os.path.lexists(path):
            raise OutputPathError(f"{path} already exists; use --overwrite to replace it") from None
        os.replace(tmp, path)
        return
    os.unlink(tmp)


def process_alive(pid: int) -> bool:
    """True when process ``pid`` runs (or cannot be signalled: it exists under another user); a
    temporary file named with a dead process's id is a leftover of a killed run."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True
    return True
