"""The fair deal in the browser: the page sends its seed, a hand is played, Verify
recomputes the deal with WebCrypto and says it matches; a tampered tile shows the
difference; and the page's verifier agrees with the server's deal on a sample of
deals of every set and seat count."""

from __future__ import annotations

import json
import random
import re

import pytest
from playwright.sync_api import Route, expect

from games.engine import fair
from tests.e2e.helpers import act_once, frame, screenshot, signup, start_practice

pytestmark = pytest.mark.e2e


def play_one_hand(page) -> dict:
    for _ in range(300):
        f = frame(page)
        if f["view"]["phase"] in ("hand_over", "match_over"):
            return f
        act_once(page)
    pytest.fail("the hand did not end")


def test_a_player_plays_a_hand_and_verifies_its_deal(new_page):
    page = new_page()
    signup(page)
    start_practice(page, "draw", seats=2, levels=("easy",), target=100)
    f = frame(page)
    seeds = f["table"]["fair"]["seeds"]
    assert re.fullmatch(r"[0-9a-f]{32}", seeds[0]), seeds  # the page's random seed
    assert seeds[1] == ""  # the computer's
    badge = page.locator("#fair")
    expect(badge).to_be_visible()
    expect(badge).to_contain_text(f["table"]["fair"]["commitments"][0][:8])
    expect(page.locator("#fair-verify")).to_have_count(0)  # nothing revealed yet

    play_one_hand(page)
    badge.locator("summary").click()
    expect(badge).to_contain_text(seeds[0])
    page.locator("#fair-verify").click()
    result = page.locator("#fair-result")
    expect(result).to_contain_text("Hand 1: this deal matches the commitment.")
    screenshot(page, "fair-deal-verified")

    # The same page, served a fair.json with one tile moved: the difference shows.
    def tampered(route: Route) -> None:
        data = route.fetch().json()
        hand = data["hands"][0]
        hand["dealt"][0][0], hand["stock"][0] = hand["stock"][0], hand["dealt"][0][0]
        route.fulfill(
            status=200, content_type="application/json", body=json.dumps(data)
        )

    page.route(re.compile(r".*/fair\.json$"), tampered)
    page.locator("#fair-verify").click()
    expect(result).to_contain_text("does NOT match the commitment")
    expect(result).to_contain_text("Seat 1 was shown")
    expect(result).to_contain_text("The stock was shown as")
    screenshot(page, "fair-deal-tampered")
    page.unroute(re.compile(r".*/fair\.json$"))

    # The in-browser verifier agrees with the server on deals of every shape.
    rng = random.Random(33)
    shapes = [(6, 2, 7), (6, 3, 5), (6, 4, 7), (9, 2, 7), (9, 4, 5), (12, 3, 12)]
    shapes += [(12, 4, 12), (9, 3, 7), (6, 4, 5), (12, 2, 15)]
    samples, expected = [], []
    for n in range(60):
        set_max, seats, per_seat = shapes[n % len(shapes)]
        top = rng.randbytes(32)
        client = tuple(
            "".join(chr(rng.randint(32, 126)) for _ in range(rng.randint(0, 12)))
            for _ in range(seats)
        )
        hand, redeal = rng.randint(1, 300), rng.choice([0, 0, 1, 2])
        table_id = rng.randint(1, 10**6)
        chains = (top, rng.randbytes(32))
        deal = fair.FairDeal(table_id, chains, client)
        dealt, stock = fair.deal(
            deal,
            set_max=set_max,
            seats=seats,
            per_seat=per_seat,
            hand=hand,
            redeal=redeal,
        )
        data = {
            "version": "v1",
            "table": table_id,
            "set_max": set_max,
            "seats": seats,
            "tiles_per_seat": per_seat,
            "commitment": deal.commitments()[0],
            "commitments": deal.commitments(),
            "client_seeds": list(client),
            "hands": [
                {
                    "hand": hand,
                    "redeal": redeal,
                    "server_seed": deal.server_seed(hand).hex(),
                    "dealt": [[list(t) for t in h] for h in dealt],
                    "stock": [list(t) for t in stock],
                }
            ],
        }
        tamper = n % 5 == 4
        if tamper:
            what = n % 3
            if what == 0:
                data["client_seeds"][0] += "!"
            elif what == 1:
                data["hands"][0]["redeal"] += 1
            else:
                data["hands"][0]["server_seed"] = fair.chain_link(top, 3).hex()
        samples.append(data)
        expected.append(tamper)
    found = page.evaluate(
        """async (samples) => {
          const out = [];
          for (const data of samples) {
            const [result] = await window.dominoFair.verifyAll(data);
            out.push(result.problems.length > 0);
          }
          return out;
        }""",
        samples,
    )
    assert found == expected
