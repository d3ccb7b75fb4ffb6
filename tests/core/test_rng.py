"""The stream plan: salts are public, distinct, and keep the keys every result was drawn with."""

import numpy as np
import pytest

from analyzer.core import rng
from analyzer.core.rng import (
    ADVISOR_POLICY_SALT,
    GAME_SALT,
    POLICY_SALT,
    SEARCH_SALT,
    stream_key,
)

SALTS = {
    "POLICY_SALT": POLICY_SALT,
    "GAME_SALT": GAME_SALT,
    "ADVISOR_POLICY_SALT": ADVISOR_POLICY_SALT,
    "SEARCH_SALT": SEARCH_SALT,
}


def test_salts_are_int64_and_distinct_even_when_combined():
    assert all(isinstance(salt, np.int64) for salt in SALTS.values())
    keys = {
        0,
        int(POLICY_SALT),
        int(GAME_SALT),
        int(GAME_SALT ^ POLICY_SALT),
        int(ADVISOR_POLICY_SALT),
        int(SEARCH_SALT),
    }
    assert len(keys) == 6


def test_every_salt_is_named_in_the_stream_plan():
    for name in SALTS:
        assert f"^ {name}" in rng.__doc__


# Keys of seed 1, streams 0 and 7, as drawn by every committed result: a changed salt or
# key derivation changes them, and with them every figure.
@pytest.mark.parametrize(
    ("key", "first", "seventh"),
    [
        (np.int64(1), 0x507B97E4B727B5CF, 0x6119CCF89480748A),
        (np.int64(1) ^ POLICY_SALT, 0x69A592A28FB72D11, 0x62D60945CADCBC5A),
        (np.int64(1) ^ GAME_SALT, 0xE85B453DF7DE85A5, 0xAC7694EC9E23F5EB),
        (np.int64(1) ^ GAME_SALT ^ POLICY_SALT, 0x138CAA829C1AFE2E, 0xCA013A0777C98534),
        (np.int64(1) ^ ADVISOR_POLICY_SALT, 0x88EF446D0097C40D, 0xC3BEF5EE3CBEB7BF),
    ],
)
def test_stream_keys_are_unchanged(key, first, seventh):
    assert int(stream_key(key, np.int64(0))) == first
    assert int(stream_key(key, np.int64(7))) == seventh
