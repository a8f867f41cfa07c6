"""cardlab.core.stamps: file stamps, racy stamps, and SHA-1 digests without OpenSSL for small inputs."""

from __future__ import annotations

import hashlib
import os

from hypothesis import given
from hypothesis import strategies as st

from cardlab.core import stamps


@given(st.lists(st.binary(max_size=64), max_size=8))
def test_sha1_hex_of_parts_is_the_sha1_of_their_join(parts):
    assert stamps.sha1_hex(*parts) == hashlib.sha1(b"".join(parts)).hexdigest()


def test_sha1_hex_is_the_same_on_both_sides_of_the_small_input_bound():
    for size in (stamps.SMALL_DIGEST - 1, stamps.SMALL_DIGEST, stamps.SMALL_DIGEST + 1, 3 * stamps.SMALL_DIGEST):
        data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
        assert len(data) == size
        assert stamps.sha1_hex(data[:7], data[7:]) == hashlib.sha1(data).hexdigest()
    assert stamps.sha1_hex() == "da39a3ee5e6b4b0d3255bfef95601890afd80709"  # SHA-1 of nothing


def test_a_file_stamp_names_size_times_and_inode(tmp_path):
    f = tmp_path / "card.yaml"
    f.write_bytes(b"hp: 120\n")
    os.utime(f, ns=(1_000_000_000, 2_000_000_000))
    st_ = f.stat()
    assert stamps.file_stamp(st_) == f"8:2000000000:{st_.st_ctime_ns}:{st_.st_ino}"
    assert stamps.is_racy(st_, st_.st_ctime_ns + stamps.RACY_NS - 1) is True
    assert stamps.is_racy(st_, st_.st_ctime_ns + stamps.RACY_NS + 1) is False
