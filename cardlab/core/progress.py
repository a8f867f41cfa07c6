"""How long work tells whoever watches how far it got, without printing (standard library only).

The library never prints: a long loop (checking catalog files, writing the index, importing a
collection or a PO file, copying a database) calls :func:`step` with what it is doing and how far
it got, and nothing happens unless a caller asked to hear it with :func:`reporting` (the CLI puts a
progress bar on a terminal: :mod:`cardlab.render.progress`). The listener is held in a context
variable, so the functions between the command and the loop take no extra argument, and a web
request or a test that does not listen pays one lookup a call. :func:`uninterrupted` holds Ctrl-C
off for the few renames that finish a write of many files.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

Listener = Callable[[str, int, int], None]
"""Called as ``listener(what, done, total)``: ``what`` a few words (``checking files``), ``done``
of ``total`` units (files, cards, rows) finished so far, ``0 <= done <= total``."""

_LISTENER: ContextVar[Listener | None] = ContextVar("cardlab_progress", default=None)


def step(what: str, done: int, total: int) -> None:
    """Tell the listener (if any) that ``done`` of ``total`` units of ``what`` are finished."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(what, done, total)


def listening() -> bool:
    """True when someone listens (a loop may then report more often than it otherwise would)."""
    return _LISTENER.get() is not None


@contextmanager
def reporting(listener: Listener | None) -> Iterator[None]:
    """Within the ``with`` block, :func:`step` calls ``listener`` (None: nobody listens)."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


@contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold Ctrl-C off while the block runs (the last renames of a write of many files, which
    must all happen or none): a ``KeyboardInterrupt`` asked for meanwhile is raised when the block
    ends. Outside the main thread (where Python takes no signal) it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    asked: list[Any] = []
    previous = signal.signal(signal.SIGINT, lambda *args: asked.append(args))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if asked:
        raise KeyboardInterrupt
