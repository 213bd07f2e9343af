"""The fair deal of RULES.md §1.1 against golden vectors.

The expected values were produced outside the engine: the chain and the HMAC blocks
with ``sha256sum`` and ``openssl dgst -mac HMAC``, the deals by a separate reading of
§1.1 (canonical order, Fisher–Yates with rejection, slices per seat).
"""

from __future__ import annotations

import hashlib
import itertools

import pytest

from games.engine import from_json, new_match, options_for, to_json, view
from games.engine.fair import (
    FairDeal,
    canonical_tiles,
    chain_link,
    deal,
    seed_valid,
    shuffle,
    stream,
)
from games.engine.tiles import PAIRS, bits

ZERO = bytes(32)
H1 = "49b85ae5536901b2da5e912fd05a88922223194146c668a7cdaaddc79563018e"
H0 = "2249cd1211cc6f71dd89e1b2913e45c9f918ab4f768cbd0af74957acdd89b448"
# HMAC-SHA-256(key=h_1, "v1|7|1|0|alice||0") and "...|1"
BLOCK_0 = "659639977158ffc0d33d935c92bbf2085986bf81eecdb9361d9736450289ec96"
BLOCK_1 = "55010007c61ab6dd901436cbc043021909afdb931090df0b52e058c4dea35cf5"

GOLDEN_6 = (
    [
        [(2, 6), (2, 5), (1, 4), (0, 6), (2, 2), (1, 2), (1, 1)],
        [(4, 4), (4, 5), (0, 5), (3, 3), (1, 5), (5, 6), (0, 0)],
    ],
    [(0, 4), (3, 6), (2, 3), (0, 1), (3, 5), (4, 6), (1, 6)]
    + [(3, 4), (5, 5), (1, 3), (6, 6), (0, 2), (2, 4), (0, 3)],
)
GOLDEN_9 = (
    [
        [
            (2, 2),
            (3, 6),
            (5, 6),
            (0, 6),
            (8, 9),
            (1, 5),
            (1, 8),
            (3, 8),
            (5, 7),
            (8, 8),
        ],
        [
            (2, 5),
            (1, 7),
            (4, 6),
            (3, 4),
            (2, 4),
            (0, 4),
            (0, 0),
            (7, 8),
            (6, 8),
            (7, 7),
        ],
        [
            (0, 3),
            (2, 3),
            (2, 9),
            (0, 5),
            (1, 1),
            (3, 9),
            (5, 8),
            (4, 7),
            (1, 2),
            (1, 9),
        ],
        [
            (3, 3),
            (1, 3),
            (4, 8),
            (7, 9),
            (9, 9),
            (1, 6),
            (0, 2),
            (0, 9),
            (6, 9),
            (4, 4),
        ],
    ],
    [(0, 1), (3, 5), (5, 5), (1, 4), (6, 6), (4, 9), (3, 7), (0, 7), (4, 5), (5, 9)]
    + [(2, 7), (2, 8), (2, 6), (0, 8), (6, 7)],
)


def test_chain_links_and_commitment():
    assert chain_link(ZERO, 255).hex() == hashlib.sha256(ZERO).hexdigest()
    assert chain_link(ZERO, 1).hex() == H1
    assert chain_link(ZERO, 0).hex() == H0
    assert hashlib.sha256(bytes.fromhex(H1)).hexdigest() == H0
    fair = FairDeal(table_id=7, chains=(ZERO,), seeds=("alice", ""))
    assert fair.commitments() == [H0]
    assert fair.server_seed(1).hex() == H1
    assert fair.server_seed(256) == ZERO


def test_stream_reads_hmac_blocks_as_big_endian_words():
    words = stream(bytes.fromhex(H1), table_id=7, hand=1, redeal=0, seeds=("alice", ""))
    expected = bytes.fromhex(BLOCK_0 + BLOCK_1)
    got = list(itertools.islice(words, 16))
    assert got == [int.from_bytes(expected[i : i + 4], "big") for i in range(0, 64, 4)]


def test_shuffle_rejects_the_biased_tail():
    # m = 3: 2^32 mod 3 = 1, so only u = 2^32 - 1 is rejected; m = 2 rejects none.
    top = 2**32 - 1
    # i = 2: top is rejected, u = 4 -> j = 1 (a c b); i = 1: u = 1 -> j = 1.
    assert shuffle(["a", "b", "c"], iter([top, 4, 1])) == ["a", "c", "b"]
    # i = 2: u = 5 -> j = 2 (a b c); i = 1: u = 0 -> j = 0 (b a c).
    assert shuffle(["a", "b", "c"], iter([5, 0])) == ["b", "a", "c"]
    with pytest.raises(StopIteration):  # rejected values are never used
        shuffle(["a", "b", "c"], iter([top, top]))


def test_canonical_order():
    assert canonical_tiles(2) == [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
    assert len(canonical_tiles(6)) == 28 and len(canonical_tiles(12)) == 91


@pytest.mark.parametrize(
    ("fair", "shape", "golden"),
    [
        (
            FairDeal(7, (ZERO,), ("alice", "")),
            dict(set_max=6, seats=2, per_seat=7, hand=1, redeal=0),
            GOLDEN_6,
        ),
        (
            FairDeal(
                123456, (bytes.fromhex("ab" * 32),), ("x", "Hello, world!", "", "~ ~")
            ),
            dict(set_max=9, seats=4, per_seat=10, hand=3, redeal=1),
            GOLDEN_9,
        ),
    ],
)
def test_deal_matches_the_golden_vectors(fair, shape, golden):
    hands, stock = deal(fair, **shape)
    assert (hands, stock) == golden


def test_a_match_deals_hand_one_by_the_fair_deal():
    fair = FairDeal(7, (ZERO,), ("alice", ""))
    state = new_match(options_for("draw", seats=2), 0, fair=fair)
    hands, stock = GOLDEN_6
    assert state.log[0][4] == 0  # no redeal in Draw
    for seat in range(2):
        held = sorted(PAIRS[t] for t in bits(state.hands[seat]))
        assert held == sorted(hands[seat])
    assert [PAIRS[t] for t in state.stock] == stock
    assert from_json(to_json(state)) == state


def test_any_change_changes_the_deal():
    base = dict(set_max=6, seats=2, per_seat=7, hand=1, redeal=0)
    reference = deal(FairDeal(7, (ZERO,), ("alice", "")), **base)
    assert deal(FairDeal(7, (ZERO,), ("alicf", "")), **base) != reference
    assert deal(FairDeal(8, (ZERO,), ("alice", "")), **base) != reference
    assert deal(FairDeal(7, (b"\1" + ZERO[1:],), ("alice", "")), **base) != reference
    assert (
        deal(FairDeal(7, (ZERO,), ("alice", "")), **{**base, "redeal": 1}) != reference
    )
    assert deal(FairDeal(7, (ZERO,), ("alice", "")), **{**base, "hand": 2}) != reference


def test_views_never_carry_the_chain():
    top = bytes.fromhex("5a" * 32)
    fair = FairDeal(9, (top,), ("s0", "s1", "s2", "s3"))
    state = new_match(options_for("block", seats=4), 0, fair=fair)
    needles = {top.hex()} | {chain_link(top, k).hex() for k in (1, 2, 255)}
    for seat in (None, 0, 1, 2, 3):
        text = repr(view(state, seat))
        assert not any(needle in text for needle in needles)


def test_a_later_chain_deals_hands_past_the_first():
    first, second = bytes.fromhex("01" * 32), bytes.fromhex("02" * 32)
    fair = FairDeal(1, (first, second), ("", ""))
    assert fair.server_seed(256) == first
    assert fair.server_seed(257) == chain_link(second, 1)
    assert not FairDeal(1, (first,), ("", "")).has_key(257)
    with pytest.raises(ValueError, match="no hash chain"):
        FairDeal(1, (first,), ("", "")).server_seed(257)


def test_states_stored_before_fair_deals_still_load_and_deal_the_same():
    state = new_match(options_for("draw", seats=2), 42)
    old = to_json(state)
    del old["fair"]
    assert from_json(old) == state


@pytest.mark.parametrize(
    ("seed", "ok"),
    [
        ("a", True),
        ("~" * 64, True),
        (" ", True),
        ("", False),
        ("x" * 65, False),
        ("café", False),
        ("tab\there", False),
    ],
)
def test_client_seed_rule(seed, ok):
    assert seed_valid(seed) is ok
