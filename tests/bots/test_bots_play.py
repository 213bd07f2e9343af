"""Every level plays complete matches in every variant, set and seat count
without ever returning an illegal action (and without raising)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import LEVELS
from games.engine import VARIANTS, Options, options_for
from games.engine.options import options_every
from tests.bots.helpers import play_match


def _configs() -> list[Options]:
    out = options_every()
    out.append(options_for("catalan", seats=2, tiles_per_seat=5, target=50))
    out.append(options_for("draw", seats=3, deal="002", opening="winner", target=50))
    out.append(options_for("block", seats=2, no_double="heaviest", target=50))
    return out


CONFIGS = _configs()


def _id(o: Options) -> str:
    p = "p" if o.partnership else ""
    return f"{o.variant}-d{o.set_max}-{o.seats}{p}"


def _levels(seats: int, shift: int) -> list[str]:
    return [LEVELS[(i + shift) % 3] for i in range(seats)]


def test_the_configs_cover_every_variant() -> None:
    assert {o.variant for o in CONFIGS} == set(VARIANTS)
    assert len(CONFIGS) > 60


@pytest.mark.parametrize("options", CONFIGS, ids=_id)
def test_easy_and_medium_play_whole_matches(options: Options) -> None:
    for seed in range(3):
        levels = [("easy", "medium")[(i + seed) % 2] for i in range(options.seats)]
        s = play_match(options, seed, levels, 1.0, max_hands=40)
        assert s.phase in ("match_over", "hand_over")


@pytest.mark.parametrize("options", CONFIGS, ids=_id)
def test_all_levels_together_play_a_hand_or_two(options: Options) -> None:
    """``hard`` (on a tiny budget) seated with the other levels, every config."""
    s = play_match(options, 7, _levels(options.seats, 0), 0.5, max_hands=2)
    assert s.hand_no >= 1 and s.phase in ("match_over", "hand_over")


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    variant=st.sampled_from(["block", "draw", "all_fives", "fives", "spider"]),
    seed=st.integers(0, 2**32),
    shift=st.integers(0, 2),
)
def test_every_pairing_plays_whole_two_seat_matches(
    variant: str, seed: int, shift: int
) -> None:
    o = options_for(variant, seats=2, target=50)
    levels = _levels(2, shift)
    s = play_match(o, seed, levels, 0.5, max_hands=6)
    assert s.phase in ("match_over", "hand_over")
