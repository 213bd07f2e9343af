"""tools/verify_deal.py (standard library only, written apart from the engine)
agrees with the engine's fair deal, and catches a changed seed, tile or chain link."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

from games.engine.fair import CHAIN_LENGTH, FairDeal, deal

TOOL = Path(__file__).resolve().parents[2] / "tools" / "verify_deal.py"
_spec = importlib.util.spec_from_file_location("verify_deal", TOOL)
assert _spec is not None and _spec.loader is not None
verify = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify)


def _published(fair: FairDeal, hand: int, redeal: int, shape: dict) -> dict:
    hands, stock = deal(fair, hand=hand, redeal=redeal, **shape)
    return {
        "version": "v1",
        "table": fair.table_id,
        "commitment": fair.commitments()[0],
        "commitments": fair.commitments(),
        "chain_length": CHAIN_LENGTH,
        "client_seeds": list(fair.seeds),
        "hands": [
            {
                "hand": hand,
                "redeal": redeal,
                "server_seed": fair.server_seed(hand).hex(),
                "dealt": [[list(t) for t in h] for h in hands],
                "stock": [list(t) for t in stock],
            }
        ],
    }


def _random_case(rng: random.Random) -> tuple[FairDeal, int, int, dict]:
    set_max = rng.choice([6, 9, 12])
    seats = rng.randint(2, 5)
    tiles = (set_max + 1) * (set_max + 2) // 2
    per_seat = min(rng.choice([5, 7, 9, 11, 12, 15]), tiles // seats)
    alphabet = "".join(chr(c) for c in range(32, 127))
    seeds = tuple(
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 64)))
        for _ in range(seats)
    )
    chains = (rng.randbytes(32), rng.randbytes(32))
    fair = FairDeal(table_id=rng.randint(1, 10**9), chains=chains, seeds=seeds)
    hand = rng.choice([1, 2, rng.randint(3, 2 * CHAIN_LENGTH)])
    shape = dict(set_max=set_max, seats=seats, per_seat=per_seat)
    return fair, hand, rng.choice([0, 0, 1, 2]), shape


def test_the_verifier_agrees_with_the_engine_on_a_thousand_random_deals():
    rng = random.Random(20261202)
    for _ in range(1000):
        fair, hand, redeal, shape = _random_case(rng)
        data = _published(fair, hand, redeal, shape)
        assert verify.check_hand(data, data["hands"][0]) == [], (fair, hand, shape)


def test_the_verifier_catches_a_changed_seed_tile_or_link():
    rng = random.Random(7)
    fair, hand, redeal, shape = _random_case(rng)
    data = _published(fair, hand, redeal, shape)
    entry = data["hands"][0]

    seeds = json.loads(json.dumps(data))
    seeds["client_seeds"][0] += "x"
    assert verify.check_hand(seeds, seeds["hands"][0])

    swapped = json.loads(json.dumps(entry))
    swapped["dealt"][0][0], swapped["stock"][0] = (
        swapped["stock"][0],
        swapped["dealt"][0][0],
    )
    assert any("seat 1" in p for p in verify.check_hand(data, swapped))

    link = json.loads(json.dumps(entry))
    link["server_seed"] = "00" + link["server_seed"][2:]
    assert any("commitment" in p for p in verify.check_hand(data, link))


def test_the_command_line_exit_status(tmp_path):
    fair = FairDeal(5, (bytes(32),), ("a", ""))
    data = _published(fair, 1, 0, dict(set_max=6, seats=2, per_seat=7))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data))
    run = subprocess.run(
        [sys.executable, str(TOOL), str(good)], capture_output=True, text=True
    )
    assert run.returncode == 0 and "matches the commitment" in run.stdout
    data["hands"][0]["stock"].reverse()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    run = subprocess.run(
        [sys.executable, str(TOOL), str(bad)], capture_output=True, text=True
    )
    assert run.returncode == 1 and "DOES NOT MATCH" in run.stdout
