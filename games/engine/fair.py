"""The fair deal, version 1 (RULES.md §1.1): a deal every player can verify.

The server commits to a hash chain before any deal: it draws a secret 32-byte top
``h_L`` and shows ``h_0 = SHA-256^L(h_L)``. Hand ``k`` is shuffled with ``h_k`` as an
HMAC key over a message naming the table, the hand, the redeal and every seat's
client seed; revealing ``h_k`` after the hand proves it, since ``SHA-256(h_k)`` is
``h_{k-1}``. Nothing here draws randomness: the chain tops come from the caller
(``secrets`` in production, fixed bytes in tests).

A match longer than ``CHAIN_LENGTH`` hands continues on the next chain of
``FairDeal.chains``: hand ``k`` uses chain ``(k - 1) // L`` at position
``(k - 1) % L + 1``, and the ``<hand>`` of the message stays the match's hand number.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

VERSION = "v1"
CHAIN_LENGTH = 256
SEED_MAX = 64
_WORD = 2**32


@dataclass(frozen=True)
class FairDeal:
    """What a fair table deals from: its id, the secret top of each hash chain (in
    order; the first drawn at creation) and the client seed of each seat."""

    table_id: int
    chains: tuple[bytes, ...]
    seeds: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "chains": [top.hex() for top in self.chains],
            "seeds": list(self.seeds),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FairDeal:
        return cls(
            table_id=int(d["table_id"]),
            chains=tuple(bytes.fromhex(top) for top in d["chains"]),
            seeds=tuple(str(seed) for seed in d["seeds"]),
        )

    def chain_of(self, hand: int) -> tuple[int, int]:
        """``(chain index, position in that chain)`` of hand ``hand`` (1-based)."""
        if hand < 1:
            raise ValueError("hands are numbered from 1")
        return (hand - 1) // CHAIN_LENGTH, (hand - 1) % CHAIN_LENGTH + 1

    def has_key(self, hand: int) -> bool:
        """Whether the chains reach hand ``hand``."""
        return self.chain_of(hand)[0] < len(self.chains)

    def server_seed(self, hand: int) -> bytes:
        """``h_k`` of hand ``hand``: secret until that hand ends."""
        chain, k = self.chain_of(hand)
        if chain >= len(self.chains):
            raise ValueError(f"no hash chain for hand {hand}: add one first")
        return chain_link(self.chains[chain], k)

    def commitments(self) -> list[str]:
        """Each chain's ``h_0``, as hex: public from the chain's creation on."""
        return [chain_link(top, 0).hex() for top in self.chains]


def seed_valid(seed: str) -> bool:
    """A client seed: 1 to 64 printable ASCII characters (space to tilde)."""
    return 1 <= len(seed) <= SEED_MAX and all(" " <= c <= "~" for c in seed)


def chain_link(top: bytes, k: int, length: int = CHAIN_LENGTH) -> bytes:
    """``h_k`` of the chain whose top is ``h_L = top``: SHA-256 applied L - k times."""
    if not 0 <= k <= length:
        raise ValueError(f"a chain link is numbered 0 to {length}")
    link = top
    for _ in range(length - k):
        link = hashlib.sha256(link).digest()
    return link


def stream(
    key: bytes, *, table_id: int, hand: int, redeal: int, seeds: tuple[str, ...]
) -> Iterator[int]:
    """The deal's integers: ``HMAC-SHA-256(key, msg_0) ‖ HMAC(key, msg_1) ‖ …`` read
    as 4-byte big-endian unsigned integers, with
    ``msg_i = "v1|<table>|<hand>|<redeal>|<seed 0>|…|<seed s-1>|<i>"``."""
    prefix = "|".join([VERSION, str(table_id), str(hand), str(redeal), *seeds])
    i = 0
    while True:
        block = hmac.new(key, f"{prefix}|{i}".encode("ascii"), hashlib.sha256)
        digest = block.digest()
        for at in range(0, len(digest), 4):
            yield int.from_bytes(digest[at : at + 4], "big")
        i += 1


def canonical_tiles(set_max: int) -> list[tuple[int, int]]:
    """The double-``set_max`` set in the order of §1.1: 0-0, 0-1, …, 0-n, 1-1, …."""
    return [(a, b) for a in range(set_max + 1) for b in range(a, set_max + 1)]


def shuffle(items: list[Any], words: Iterator[int]) -> list[Any]:
    """Fisher–Yates from the last index down to 1, each index drawn without bias:
    for m = i + 1, integers u below ``2^32 - (2^32 mod m)`` only, j = u mod m."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        m = i + 1
        limit = _WORD - _WORD % m
        u = next(words)
        while u >= limit:
            u = next(words)
        j = u % m
        out[i], out[j] = out[j], out[i]
    return out


def deal(
    fair: FairDeal, *, set_max: int, seats: int, per_seat: int, hand: int, redeal: int
) -> tuple[list[list[tuple[int, int]]], list[tuple[int, int]]]:
    """The hands (seat order) and the stock (drawn from its front) of one deal."""
    words = stream(
        fair.server_seed(hand),
        table_id=fair.table_id,
        hand=hand,
        redeal=redeal,
        seeds=fair.seeds,
    )
    tiles = shuffle(canonical_tiles(set_max), words)
    hands = [tiles[s * per_seat : (s + 1) * per_seat] for s in range(seats)]
    return hands, tiles[seats * per_seat :]
