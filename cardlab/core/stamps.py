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


SMALL_DIGEST = 1 << 18
"""Up to this many bytes (256 KiB), :func:`sha1_hex` hashes with the interpreter's own SHA-1;
above, with OpenSSL's (``hashlib``), which is ten times faster per byte but costs about 3 ms to load."""


def sha1_hex(*parts: bytes) -> str:
    """Return the SHA-1 of ``parts`` joined, as 40 hexadecimal digits.

    The same digest either way: small inputs (a catalog of about 2,000 files or fewer, a list of
    roots) are hashed by CPython's built-in ``_sha1`` module, so the quick ``cardlab validate`` of
    :mod:`cardlab.catalog.freshness` never loads OpenSSL; larger ones by ``hashlib``."""
    data = b"".join(parts)
    if len(data) <= SMALL_DIGEST:
        try:
            from _sha1 import sha1  # lazy: _sha1 alone (15 ms less than hashlib) for the quick `validate`
        except ImportError:  # an interpreter built without it
            from hashlib import sha1  # lazy: hashlib loads OpenSSL (16 ms cold)
    else:
        from hashlib import sha1  # lazy: hashlib loads OpenSSL (16 ms cold), only for large digests
    return sha1(data).hexdigest()
