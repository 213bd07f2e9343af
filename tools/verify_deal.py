#!/usr/bin/env python3
"""Check a table's published deals against its commitment: RULES.md §1.1, version 1.

    python3 tools/verify_deal.py fair.json      (or - to read standard input)

``fair.json`` is what ``/tables/<id>/fair.json`` serves. For every revealed hand this
checks that its server seed hashes back to the table's commitment, then recomputes
the shuffle from the seed, the table id, the hand and redeal numbers and the client
seeds, and compares the hands and the stock with the published ones. Exit status 0
when every revealed hand matches, 1 when one does not, 2 when the file is unusable.

Standard library only, and nothing from the platform's code: a second, independent
reading of the rules, so the two can check each other.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from collections.abc import Iterator
from typing import Any

CHAIN_LENGTH = 256
SET_SIZES = {28: 6, 55: 9, 91: 12}


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def words(key: bytes, prefix: str) -> Iterator[int]:
    """4-byte big-endian integers of HMAC-SHA-256(key, prefix|0) ‖ …(prefix|1) ‖ …"""
    i = 0
    while True:
        block = hmac.new(key, f"{prefix}|{i}".encode("ascii"), hashlib.sha256).digest()
        for at in range(0, 32, 4):
            yield int.from_bytes(block[at : at + 4], "big")
        i += 1


def shuffled_set(set_max: int, key: bytes, prefix: str) -> list[list[int]]:
    tiles = [[a, b] for a in range(set_max + 1) for b in range(a, set_max + 1)]
    stream = words(key, prefix)
    for i in range(len(tiles) - 1, 0, -1):
        m = i + 1
        u = next(stream)
        while u >= 2**32 - 2**32 % m:
            u = next(stream)
        j = u % m
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def commitment_of(hand: int, data: dict[str, Any]) -> str:
    """The published commitment of the chain that hand ``hand`` belongs to."""
    chains = data.get("commitments") or [data["commitment"]]
    return chains[(hand - 1) // CHAIN_LENGTH]


def check_hand(data: dict[str, Any], entry: dict[str, Any]) -> list[str]:
    """What is wrong with one revealed hand (empty when it matches)."""
    hand, redeal = int(entry["hand"]), int(entry["redeal"])
    key = bytes.fromhex(entry["server_seed"])
    position = (hand - 1) % CHAIN_LENGTH + 1
    link = key
    for _ in range(position):
        link = sha256(link)
    problems = []
    if link.hex() != commitment_of(hand, data):
        problems.append(
            f"its server seed does not hash back to the commitment "
            f"({position} times SHA-256 gives {link.hex()})"
        )
    dealt, stock = entry["dealt"], entry["stock"]
    total = sum(len(h) for h in dealt) + len(stock)
    if total not in SET_SIZES:
        return [*problems, f"{total} tiles is not a double-6, -9 or -12 set"]
    per_seat = len(dealt[0])
    prefix = "|".join(
        ["v1", str(data["table"]), str(hand), str(redeal), *data["client_seeds"]]
    )
    tiles = shuffled_set(SET_SIZES[total], key, prefix)
    seats = len(dealt)
    for seat in range(seats):
        want = tiles[seat * per_seat : (seat + 1) * per_seat]
        if [list(t) for t in dealt[seat]] != want:
            problems.append(f"seat {seat + 1} was dealt {dealt[seat]}, not {want}")
    if [list(t) for t in stock] != tiles[seats * per_seat :]:
        problems.append(f"the stock is {stock}, not {tiles[seats * per_seat :]}")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        if argv[1] == "-":
            text = sys.stdin.read()
        else:
            with open(argv[1]) as handle:
                text = handle.read()
        data = json.loads(text)
        if data.get("version") != "v1":
            print("not a version 1 fair deal", file=sys.stderr)
            return 2
    except (OSError, ValueError) as exc:
        print(f"cannot read {argv[1]}: {exc}", file=sys.stderr)
        return 2
    failed = False
    for entry in data["hands"]:
        name = f"hand {entry['hand']} (redeal {entry['redeal']})"
        if entry.get("server_seed") is None:
            print(f"{name}: not revealed yet")
            continue
        problems = check_hand(data, entry)
        failed = failed or bool(problems)
        verdict = "DOES NOT MATCH" if problems else "matches the commitment"
        print(f"{name}: {verdict}")
        for problem in problems:
            print(f"  - {problem}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
