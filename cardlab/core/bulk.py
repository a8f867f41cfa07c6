"""One helper for building many small objects at once (card data of tens of thousands of files,
the hits of a search returning every card)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def bulk_objects() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while many small objects are built: it would scan
    them again and again for cycles they do not have. Re-validating 30,000 cached cards takes 1.2 s
    instead of 1.7 s; a search listing 70,000 of 100,000 cards builds its hits in half the time."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
