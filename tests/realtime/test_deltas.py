"""The structural difference of two JSON values (``realtime.deltas``): what it
sends for the changes a move makes, that applying it gives the new value exactly
and leaves the old one alone, that changes which do not fit are refused, and that
the page's applier (``static/js/table/patch.js``) reads it the same way."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from realtime.deltas import DeltaError, delta, patched

ROOT = Path(__file__).resolve().parents[2]


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def round_trip(old, new) -> dict:
    """The changes from ``old`` to ``new``, checked to give ``new`` back."""
    before = copy.deepcopy(old)
    changes = json.loads(json.dumps(delta(old, new)))  # as the wire carries them
    assert canonical(patched(old, changes)) == canonical(new)
    assert old == before  # applying makes a new value
    return changes


def test_equal_objects_have_no_changes():
    assert delta({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}) == {}


def test_keys_added_replaced_and_removed():
    old = {"keep": 1, "swap": "x", "gone": 3}
    new = {"keep": 1, "swap": "y", "new": [4]}
    assert round_trip(old, new) == {"swap": ["y"], "new": [[4]], "gone": []}


def test_a_nested_change_names_only_its_path():
    old = {"view": {"to_move": 0, "scores": [0, 0, 0, 0], "phase": "play"}}
    new = {"view": {"to_move": 1, "scores": [0, 5, 0, 0], "phase": "play"}}
    assert round_trip(old, new) == {"view": {"to_move": [1], "scores": {"1": [5]}}}


def test_an_entry_appended_is_a_splice_at_the_end():
    old = {"history": [{"type": "a"}, {"type": "b"}]}
    new = {"history": [{"type": "a"}, {"type": "b"}, {"type": "c"}]}
    assert round_trip(old, new) == {"history": {"@": [2, 0, {"type": "c"}]}}


def test_a_tile_laid_at_the_left_end_is_a_splice_at_the_start():
    old = {"tiles": [[2, 6], [6, 6], [6, 5]]}
    new = {"tiles": [[3, 2], [2, 6], [6, 6], [6, 5]]}
    assert round_trip(old, new) == {"tiles": {"@": [0, 0, [3, 2]]}}


def test_a_tile_leaving_a_hand_is_a_splice_that_inserts_nothing():
    old = {"hand": [[0, 1], [2, 5], [4, 6]]}
    new = {"hand": [[0, 1], [4, 6]]}
    assert round_trip(old, new) == {"hand": {"@": [1, 1]}}


def test_elements_changed_in_place_keep_their_index():
    ends = [{"id": "left", "value": 3, "open": True}, {"id": "right", "value": 4}]
    new = [{"id": "left", "value": 5, "open": True}, {"id": "right", "value": 4}]
    assert round_trip({"ends": ends}, {"ends": new}) == {"ends": {"0": {"value": [5]}}}


def test_short_or_wholly_new_values_are_sent_whole():
    # Numbers: an index costs what the number does.
    assert round_trip({"counts": [3, 3]}, {"counts": [3, 2]}) == {"counts": [[3, 2]]}
    # Nothing kept: the new object, not its every key.
    old = {"legal": [{"tile": [4, 5], "end": "right"}]}
    new = {"legal": [{"tile": [1, 2], "end": "left"}]}
    assert round_trip(old, new) == {"legal": {"0": [{"tile": [1, 2], "end": "left"}]}}
    # Nothing in common at either end, and another length.
    assert round_trip({"legal": [1, 2]}, {"legal": [3]}) == {"legal": [[3]]}
    # Another kind of value.
    assert round_trip({"view": None}, {"view": {"a": 1}}) == {"view": [{"a": 1}]}
    assert round_trip({"view": {"a": 1}}, {"view": [1]}) == {"view": [[1]]}


def test_empty_values_are_values():
    changes = round_trip({"a": [1], "b": {"c": 1}}, {"a": [], "b": {}})
    assert changes == {"a": [[]], "b": [{}]}


@pytest.mark.parametrize(
    ("old", "changes"),
    [
        ({"a": 1}, {"b": []}),  # removing a key that is not there
        ({"a": 1}, {"b": {"c": [1]}}),  # changing in place a key that is not there
        ({"a": 1}, {"a": {"c": [1]}}),  # changing a number in place
        ({"a": 1}, {"a": [1, 2]}),  # a replacement of two values
        ({"a": 1}, {"a": 2}),  # a bare value
        ({"a": [1, 2]}, {"a": {"2": [3]}}),  # an index past the end
        ({"a": [1, 2]}, {"a": {"x": [3]}}),  # not an index
        ({"a": [1, 2]}, {"a": {"\u00b2": [3]}}),  # a digit, but not ASCII
        ({"a": [1, 2]}, {"a": {"0": []}}),  # removing an element in place
        ({"a": [1, 2]}, {"a": {"@": [1, 2]}}),  # a splice past the end
        ({"a": [1, 2]}, {"a": {"@": [-1, 0]}}),  # a negative index
        ({"a": [1, 2]}, {"a": {"@": [0, True]}}),  # not a count
        ({"a": [1, 2]}, {"a": {"@": [0]}}),  # no count
        ({"a": [1, 2]}, {"a": {"@": [0, 0], "1": [3]}}),  # a splice and more
    ],
)
def test_changes_that_do_not_fit_are_refused(old, changes):
    with pytest.raises(DeltaError):
        patched(old, changes)


json_values = st.recursive(
    st.none() | st.integers(-3, 3) | st.sampled_from(["a", "b", "left", ""]),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(["a", "b", "c", "0", "@"]), children, max_size=4
        )
    ),
    max_leaves=20,
)
json_objects = st.dictionaries(st.sampled_from(["x", "y", "z"]), json_values)


@settings(max_examples=400, deadline=None)
@given(json_objects, json_objects)
def test_any_two_objects(old, new):
    round_trip(old, new)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 6), max_size=8),
    st.integers(0, 8),
    st.integers(0, 3),
    st.lists(st.integers(0, 6), max_size=3),
)
def test_any_splice_of_an_array(items, at, removed, inserted):
    at = min(at, len(items))
    new = [*items[:at], *inserted, *items[at + removed :]]
    round_trip({"a": items, "b": 1}, {"a": new, "b": 1})


NODE_APPLY = """
import { patchApply } from "%s";
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(([base, patch]) => patchApply(base, patch));
  process.stdout.write(JSON.stringify(out));
});
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_the_pages_applier_agrees(tmp_path):
    """The browser's ``patchApply`` makes the same frames from the same patches,
    and refuses a patch of another frame or one that does not fit."""
    from games.patches import frame_patch

    def frame(seq, **body):
        events = [{"type": "e", "n": seq}]
        return {"type": "state", "seq": seq, **body, "events": events}

    def view(**parts):
        return {"phase": "play", **parts}

    pairs = [
        (
            frame(1, table={"timer": None}, you=0, view=view(hand=[[0, 1], [2, 5]])),
            frame(2, table={"timer": {"kind": "bot"}}, you=0, view=view(hand=[[2, 5]])),
        ),
        (
            frame(4, seats=[{"name": "a", "away": False}], view=view(tiles=[[6, 6]])),
            frame(
                7,
                seats=[{"name": "a", "away": True}],
                view=view(tiles=[[3, 6], [6, 6]]),
            ),
        ),
        (
            frame(8, view=view(gone=1, legal=[{"tile": [4, 5]}], n=[1, 2, 3, 4])),
            frame(9, view=view(legal=[], n=[1, 2, 9, 4], new={"a": [True, None]})),
        ),
    ]
    cases = [[old, frame_patch(old, new)] for old, new in pairs]
    kinds = json.dumps([patch["changes"]["view"] for _, patch in cases])
    assert '"@"' in kinds and '"2"' in kinds and "[]" in kinds  # splices, elements
    wanted = [canonical(new) for _, new in pairs]
    # A patch of another frame, and one whose changes do not fit: refused (null).
    cases.append([pairs[0][0], cases[1][1]])
    misfit = {"view": {"hand": {"@": [5, 1]}}}
    cases.append([pairs[0][0], {**cases[0][1], "changes": misfit}])
    script = tmp_path / "apply.mjs"
    script.write_text(NODE_APPLY % (ROOT / "static/js/table/patch.js").as_uri())
    done = subprocess.run(
        ["node", str(script)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    got = json.loads(done.stdout)
    assert [canonical(frame) for frame in got[:3]] == wanted
    assert got[3:] == [None, None]
