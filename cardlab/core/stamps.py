"""What says a file changed without reading it: its stamp, and whether the stamp can be trusted yet.

Standard library only: ``cardlab validate`` with nothing changed runs on these and
:mod:`cardlab.catalog.freshness` alone (:mod:`cardlab.cli.entry`).
"""

from __future__ import annotations

import os
import time


def file_stamp(st: os.stat_result) -> str:
    """What says a file changed: size, modification and change times, inode. A same-size edit that
    keeps the modification time (``cp -p``, ``rsync -t``, ``touch -r``) still changes the change
    time (which no user can set) or the inode (a file renamed into place).

    Args:
        st: the file's ``os.stat`` result.

    Returns:
        ``"<size>:<mtime ns>:<ctime ns>:<inode>"``.
    """
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"


RACY_NS = 2_000_000_000
"""A file changed less than this before a stamp was taken may change again with the same stamp
(file systems keep times in coarse ticks, up to 2 s): its stamp is not trusted (git's "racy" files)."""


def is_racy(st: os.stat_result, now_ns: int | None = None) -> bool:
    """True when ``st`` was changed too recently for :func:`file_stamp` to be trusted later: its
    modification or change time is less than :data:`RACY_NS` before ``now_ns`` (nanoseconds since
    the epoch; None for now)."""
    now = time.time_ns() if now_ns is None else now_ns
    return max(st.st_mtime_ns, st.st_ctime_ns) >= now - RACY_NS
