"""The pure parts of bench/floor.py: the floor's frames and the paired ratios."""

from __future__ import annotations

import json
import math

from bench.floor import paired_ratio
from bench.floor_app import floor_frame


def test_floor_frame_is_padded_to_the_size_asked_and_stays_json():
    text = floor_frame(seq=41, turn=2, size=1024)
    assert len(text) == 1024
    frame = json.loads(text)
    assert (frame["type"], frame["seq"], frame["turn"]) == ("state", 41, 2)
    assert frame["table"] == {"status": "playing"}
    assert set(frame["pad"]) == {"x"}


def test_floor_frame_smaller_than_its_bare_text_is_not_cut():
    text = floor_frame(seq=0, turn=0, size=0)
    assert json.loads(text)["pad"] == ""
    assert len(floor_frame(seq=0, turn=0, size=len(text))) == len(text)
    assert len(floor_frame(seq=0, turn=0, size=len(text) + 1)) == len(text) + 1


def test_paired_ratio_pairs_rounds_and_skips_rounds_without_a_figure():
    # Round by round: 2, 4, (floor missing), (floor 0), 3 -> median 3.
    tops = [2.0, 8.0, 5.0, 1.0, 9.0]
    bottoms = [1.0, 2.0, math.nan, 0.0, 3.0]
    assert paired_ratio(tops, bottoms) == 3.0
    # The median of the ratios (1, 10, 1), not the ratio of the medians (4 / 3).
    assert paired_ratio([1.0, 30.0, 4.0], [1.0, 3.0, 4.0]) == 1.0
    assert math.isnan(paired_ratio([math.nan], [1.0]))
