"""Reproducible, verifiable randomness for the mini-games (issue 13, issue 33). Seed 002
("Généralités") asks that every player agree clearly to a staked card and that the organisers
enforce the deal, with their "Tribunal" for disputes; it says nothing about dice or checking
draws. Verifiable draws are our answer to it: any player can re-run every draw of a game.

Algorithm (draws: version ``hmac-sha256-ctr-v1``; seed: ``commit-reveal-v2``):

- The host's seed is 32 random bytes from :func:`secrets.token_bytes`, fixed when a game is
  created. Its commitment is ``SHA-256(host seed)`` (hex), in the game's first post, before any
  draw; the seed is revealed in the post that ends the game.
- Each player then accepts the game with a contribution of their own (:func:`check_contribution`).
  The game's seed is :func:`derive_seed`: ``HMAC-SHA256(key=host seed, msg=b"cardlab-seed-v2" +
  game hash + for each player in play order: contribution as UTF-8, length-prefixed)``. The host
  is bound by the commitment before seeing the contributions; the players do not know the host's
  seed, so no one can pick the game's seed after seeing a draw (README, "Fair draws", says the limits).
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
import re
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


def new_contribution() -> str:
    """Return a fresh contribution: 16 random bytes as 32 hex digits (a player may choose their own)."""
    return secrets.token_hex(16)


_CONTRIBUTION = re.compile(r"[A-Za-z0-9._:+/=-]{4,128}")


def check_contribution(text: str) -> str:
    """Return a player's contribution stripped: 4 to 128 characters among letters, digits and
    ``._:+/=-`` (so it reads back unchanged from any forum post). Raises ValueError otherwise."""
    text = (text or "").strip()
    if not _CONTRIBUTION.fullmatch(text):
        raise ValueError("a contribution is 4 to 128 letters, digits or ._:+/=- (e.g. a word or hex digits)")
    return text


def derive_seed(host_seed: bytes, game_hash: str, contributions: list[str]) -> bytes:
    """Return the game's seed (module docstring, ``commit-reveal-v2``): ``host_seed`` keys an
    HMAC-SHA256 over the game hash (hex, :func:`cardlab.play.thread.game_hash`) and each player's
    contribution in play order, each length-prefixed (4 big-endian bytes) so no two lists join alike."""
    mac = hmac.new(host_seed, b"cardlab-seed-v2", hashlib.sha256)
    for part in (game_hash, *contributions):
        raw = part.encode("utf-8")
        mac.update(len(raw).to_bytes(4, "big") + raw)
    return mac.digest()


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
