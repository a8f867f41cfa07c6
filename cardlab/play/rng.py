"""Reproducible, verifiable randomness for the mini-games (issue 13; seed 002 "Généralités": a forum
game must be fair to every player, so every draw can be checked afterwards).

Algorithm (version ``hmac-sha256-ctr-v1``):

- The seed is 32 random bytes from :func:`secrets.token_bytes`, fixed when a game is created. Its
  commitment is ``SHA-256(seed)`` (hex), printed by ``play new --commit`` before any draw; ``play
  reveal`` prints the seed (hex) once the game is over.
- Block ``i`` (``i`` = 0, 1, 2...) of the stream is ``HMAC-SHA256(key=seed, msg=b"cardlab-play-v1" +
  i as 8 big-endian bytes)``: 32 bytes.
- Each block is read as four 64-bit words (bytes 0-7, 8-15, 16-23, 24-31, big-endian), in that
  order; the stream is the sequence of words of block 0, then of block 1, and so on.
- An integer uniform in ``[0, n)`` takes the next word ``x`` in ``[0, 2**64)``; with
  ``limit = 2**64 - 2**64 % n``, ``x < limit`` gives ``x % n``, otherwise the word is rejected and
  the next one is taken (rejection sampling: no modulo bias).
- A die ``dN`` is ``1 + below(N)``; a draw from a pool of ``k`` cards is ``pool[below(k)]``.

Anyone can re-run a game from its revealed seed and its moves (:mod:`cardlab.play.engine`) and get
the same draws. Python's :mod:`random` is never used.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct

ALGORITHM = "hmac-sha256-ctr-v1"
_LABEL = b"cardlab-play-v1"
_SPAN = 1 << 64
_WORDS = struct.Struct(">4Q").unpack
"""A block as its four big-endian 64-bit words."""


def new_seed() -> bytes:
    """Return 32 bytes from the system's secure random source (:func:`secrets.token_bytes`)."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """Return the commitment to ``seed``: ``SHA-256(seed)`` as 64 hex digits."""
    return hashlib.sha256(seed).hexdigest()


def parse_seed(text: str) -> bytes:
    """Return the seed written as hex (64 digits for a generated seed; any even length ≥ 32 is
    accepted). Raises ValueError for anything else."""
    raw = bytes.fromhex(text.strip())
    if len(raw) < 16:
        raise ValueError("a seed is at least 16 bytes (32 hex digits)")
    return raw


class Stream:
    """The HMAC-SHA256 counter stream of a seed (module docstring); ``counter`` is the next block.

    Args:
        seed: the game's seed; counter: where to start (0 for a new game).
    """

    def __init__(self, seed: bytes, counter: int = 0) -> None:
        self._mac = hmac.new(seed, _LABEL, hashlib.sha256)  # keyed once; each block copies it
        self.counter = counter
        self._words: list[int] = []

    def block(self) -> bytes:
        """Return the next 32-byte block, ``HMAC-SHA256(seed, label + counter)``, and advance the counter."""
        mac = self._mac.copy()
        mac.update(self.counter.to_bytes(8, "big"))
        self.counter += 1
        return mac.digest()

    def word(self) -> int:
        """Return the next 64-bit word of the stream (four per block, in byte order)."""
        words = self._words
        if not words:
            words = self._words = list(_WORDS(self.block()))
            words.reverse()  # popped from the end: first word first
        return words.pop()

    def below(self, n: int) -> int:
        """Return an integer uniform in ``[0, n)`` by rejection sampling (module docstring).
        Raises ValueError for ``n < 1``."""
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        limit = _SPAN - _SPAN % n
        words = self._words
        while True:
            if not words:
                words = self._words = list(_WORDS(self.block()))
                words.reverse()
            x = words.pop()
            if x < limit:
                return x % n

    def die(self, sides: int) -> int:
        """Return a roll of a ``sides``-sided die, 1 to ``sides``."""
        return 1 + self.below(sides)
