"""The HMAC-SHA256 counter stream: known answers, rejection sampling, no modulo bias."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from cardlab.play import rng


def test_block_is_hmac_sha256_of_label_and_counter():
    seed = bytes(range(32))
    s = rng.Stream(seed)
    expected = hmac.new(seed, b"cardlab-play-v1" + (0).to_bytes(8, "big"), hashlib.sha256).digest()
    assert s.block() == expected and s.counter == 1


def test_below_reads_the_four_words_of_each_block_in_order():
    seed = bytes(range(32))
    b0, b1 = rng.Stream(seed).block(), rng.Stream(seed, 1).block()
    words = [int.from_bytes(b[i : i + 8], "big") for b in (b0, b1) for i in (0, 8, 16, 24)]
    s = rng.Stream(seed)
    assert [s.below(10) for _ in range(8)] == [w % 10 for w in words]  # 2**64 % 10 is tiny: all kept
    assert s.counter == 2
    assert rng.Stream(b"k" * 32).below(1) == 0


def test_rejection_when_x_is_above_the_limit(monkeypatch):
    blocks = iter([(2**64 - 1).to_bytes(8, "big") + (7).to_bytes(8, "big") + bytes(16)])
    s = rng.Stream(b"k" * 32)
    monkeypatch.setattr(s, "block", lambda: next(blocks))
    assert s.below(3) == 1  # 2**64 - 1 is at or above 2**64 - 2**64 % 3: rejected; the next word 7 % 3 = 1


def test_same_seed_same_stream_and_commitment():
    seed = rng.new_seed()
    a, b = rng.Stream(seed), rng.Stream(seed)
    assert [a.die(10) for _ in range(50)] == [b.die(10) for _ in range(50)]
    assert rng.commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert rng.parse_seed(seed.hex()) == seed


def test_die_is_roughly_uniform():
    s = rng.Stream(b"uniform" * 5)
    n = 20_000
    counts = [0] * 10
    for _ in range(n):
        counts[s.die(10) - 1] += 1
    sd = (n * 0.1 * 0.9) ** 0.5
    assert all(abs(c - n / 10) < 4 * sd for c in counts)


@pytest.mark.parametrize("text", ["zz", "abcd", ""])
def test_bad_seeds(text):
    with pytest.raises(ValueError):
        rng.parse_seed(text)
