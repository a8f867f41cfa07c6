"""A progress bar on standard error for long work (:mod:`cardlab.core.progress` tells it how far).

:class:`ProgressBar` is a :data:`cardlab.core.progress.Listener`: nothing is drawn until the work
has run for :data:`DELAY` seconds (a quick command prints nothing extra), then one rich bar per
stage (``checking files``, ``indexing cards``) with the counts, the rate and the time left. The
bar is transient: it is erased when the work ends, so a command's own output reads as without it.
The CLI makes one only when standard error is a terminal and ``--quiet`` is not given.
"""

from __future__ import annotations

import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn, TimeRemainingColumn

DELAY = 1.0
"""Seconds of work before the bar appears."""


class ProgressBar:
    """A :data:`cardlab.core.progress.Listener` drawing rich bars on ``console`` (module docstring),
    once ``delay`` seconds (default :data:`DELAY`) have passed since it was made. Use it as a
    context manager (the bar is erased on leaving), or call :meth:`close`."""

    def __init__(self, console: Console, delay: float | None = None) -> None:
        self.console = console
        self.delay = DELAY if delay is None else delay
        self.started = time.monotonic()
        self.progress: Progress | None = None
        self.tasks: dict[str, TaskID] = {}

    def __call__(self, what: str, done: int, total: int) -> None:
        if self.progress is None:
            if time.monotonic() - self.started < self.delay:
                return
            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=self.console,
                transient=True,
            )
            self.progress.start()
        task = self.tasks.get(what)
        if task is None:
            for earlier in self.tasks.values():  # the stage before is over
                self.progress.update(earlier, visible=False)
            task = self.tasks[what] = self.progress.add_task(what, total=total)
        self.progress.update(task, completed=done, total=total)

    def close(self) -> None:
        """Erase the bar (if it was drawn)."""
        if self.progress is not None:
            self.progress.stop()
            self.progress = None

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
