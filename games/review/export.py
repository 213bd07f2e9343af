"""A hand's review as JSON, and back: what the worker stores and the pages read.

``review_to_json(review, options, seqs=...)`` turns a ``hand.HandReview`` into
plain data (lists, numbers, strings; actions as the engine's wire dicts) with a
summary per seat; ``review_from_json`` reads the review part back (the summary
is derived, so it is not read). Pure like the rest of the package: the worker
stores the dict, the pages turn it into words.

A seat's summary: its decisions (those with more than one option), how many
of them were *judged* (``single``: solved to the end of the hand; a match
point valued by the chance of winning the match), its *accuracy* (the share of
the judged ones that no label marks: within the inaccuracy threshold or within
the sampling noise; ``None`` when none was judged, so a hand whose decisions
could not be judged claims no accuracy), its three biggest mistakes (labelled
decisions, largest loss first as a share of its scale's blunder threshold,
with their step indexes and scale) and its luck (its side's, from ``luck``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import Action, Options, action_to_dict, parse_action
from games.engine.options import rules_for
from games.review.faceup import FaceUpStep
from games.review.hand import Budget, HandReview
from games.review.labels import thresholds_for
from games.review.luck import Luck
from games.review.single import MATCH, POINTS, DecisionReview, OptionValue
from games.solver.game import Finish
from games.solver.search import Solution

# The stored result's format: summaries count judged decisions ("judged"), and
# only judged decisions carry a label; each decision names its ``scale``, match
# points valued by the chance of winning the match (3). A version 2 review has
# no scale: its match points were valued in points, and are not judged.
VERSION = 3
BIGGEST = 3


def _solution(sol: Solution) -> dict[str, Any]:
    return {
        "points": list(sol.points),
        "finish": {"reason": sol.finish.reason, "seat": sol.finish.seat},
        "exact": sol.exact,
        "depth": sol.depth,
        "nodes": sol.nodes,
    }


def _solution_from(d: dict[str, Any]) -> Solution:
    f = d["finish"]
    return Solution(
        tuple(d["points"]),
        Finish(f["reason"], f["seat"]),
        d["exact"],
        d["depth"],
        d["nodes"],
    )


def _decision(step: int, seq: int | None, r: DecisionReview) -> dict[str, Any]:
    return {
        "step": step,
        "seq": seq,
        "seat": r.seat,
        "side": r.side,
        "options": [
            {
                "action": action_to_dict(o.action),
                "value": o.value,
                "points": list(o.points),
            }
            for o in r.options
        ],
        "chosen": r.chosen,
        "best": r.best,
        "loss": r.loss,
        "error": r.error,
        "label": r.label,
        "samples": r.samples,
        "distinct": r.distinct,
        "effective": r.effective,
        "exact": r.exact,
        "depth": r.depth,
        "match_point": r.match_point,
        "scale": r.scale,
    }


def _decision_from(d: dict[str, Any]) -> tuple[int, DecisionReview]:
    return d["step"], DecisionReview(
        seat=d["seat"],
        side=d["side"],
        options=tuple(
            OptionValue(parse_action(o["action"]), o["value"], tuple(o["points"]))
            for o in d["options"]
        ),
        chosen=d["chosen"],
        best=d["best"],
        loss=d["loss"],
        error=d["error"],
        label=d["label"],
        samples=d["samples"],
        distinct=d["distinct"],
        effective=d["effective"],
        exact=d["exact"],
        depth=d["depth"],
        match_point=d["match_point"],
        scale=d.get("scale", POINTS),
    )


def _face_up(x: FaceUpStep, seq: int | None) -> dict[str, Any]:
    return {
        "step": x.index,
        "seq": seq,
        "seat": x.seat,
        "action": action_to_dict(x.action),
        "before": _solution(x.before),
        "after": _solution(x.after),
        "best": [action_to_dict(a) for a in x.best],
        "loss": x.loss,
        "changed": x.changed,
    }


def _face_up_from(d: dict[str, Any]) -> FaceUpStep:
    return FaceUpStep(
        index=d["step"],
        seat=d["seat"],
        action=parse_action(d["action"]),
        before=_solution_from(d["before"]),
        after=_solution_from(d["after"]),
        best=tuple(parse_action(a) for a in d["best"]),
        loss=d["loss"],
        changed=d["changed"],
    )


def _luck(luck: Luck) -> dict[str, Any]:
    return {
        "points": list(luck.points),
        "luck": list(luck.luck),
        "exact": luck.exact,
        "depth": luck.depth,
        "solution": _solution(luck.solution),
    }


def _luck_from(d: dict[str, Any]) -> Luck:
    return Luck(
        tuple(d["points"]),
        tuple(d["luck"]),
        d["exact"],
        d["depth"],
        _solution_from(d["solution"]),
    )


def _severity(d: DecisionReview, variant: str) -> float:
    """A loss as a share of its scale's blunder threshold: losses in points and
    in the chance of winning the match ranked together."""
    return d.loss / thresholds_for(variant, match=d.scale == MATCH).blunder


def seat_summaries(review: HandReview, options: Options) -> list[dict[str, Any]]:
    """One summary per seat (module docstring), in seat order."""
    r = rules_for(options)
    out = []
    for seat in range(r.seats):
        mine = [(i, d) for i, d in review.decisions if d.seat == seat]
        # A label on a decision that is not judged is no verdict either.
        judged = [(i, d) for i, d in mine if d.judged]
        clean = sum(1 for _, d in judged if d.label is None)
        labelled = sorted(
            ((i, d) for i, d in judged if d.label is not None),
            key=lambda x: (-_severity(x[1], options.variant), x[0]),
        )
        side = r.side_of[seat]
        out.append(
            {
                "seat": seat,
                "side": side,
                "decisions": len(mine),
                "judged": len(judged),
                "accuracy": None if not judged else round(100 * clean / len(judged)),
                "labels": {
                    label: sum(1 for _, d in judged if d.label == label)
                    for label in ("inaccuracy", "mistake", "blunder")
                },
                "mistakes": [
                    {"step": i, "label": d.label, "loss": d.loss, "scale": d.scale}
                    for i, d in labelled[:BIGGEST]
                ],
                "luck": review.luck.luck[side],
            }
        )
    return out


def review_to_json(
    review: HandReview,
    options: Options,
    *,
    seqs: Sequence[int] | None = None,
    budget: Budget | None = None,
) -> dict[str, Any]:
    """The stored form of ``review`` of a hand played with ``options``;
    ``seqs[i]`` is the table log's number of step ``i`` (the replay finds the
    move by it); ``budget`` the work it was given."""

    def seq(i: int) -> int | None:
        return seqs[i] if seqs is not None and i < len(seqs) else None

    return {
        "version": VERSION,
        "variant": options.variant,
        "sides": options.n_sides,
        "budget": None
        if budget is None
        else {
            "samples": budget.samples,
            "max_nodes": budget.max_nodes,
            "face_up_nodes": budget.face_up_nodes,
            "luck_nodes": budget.luck_nodes,
            "reduced": budget.reduced,
        },
        "decisions": [_decision(i, seq(i), d) for i, d in review.decisions],
        "face_up": [_face_up(x, seq(x.index)) for x in review.face_up],
        "luck": _luck(review.luck),
        "seats": seat_summaries(review, options),
    }


def review_from_json(data: dict[str, Any]) -> HandReview:
    """The ``HandReview`` that ``review_to_json`` stored."""
    return HandReview(
        decisions=tuple(_decision_from(d) for d in data["decisions"]),
        face_up=tuple(_face_up_from(x) for x in data["face_up"]),
        luck=_luck_from(data["luck"]),
    )


def action_of(wire: dict[str, Any]) -> Action:
    """An action of a stored review, read back."""
    return parse_action(wire)


__all__ = [
    "BIGGEST",
    "VERSION",
    "action_of",
    "review_from_json",
    "review_to_json",
    "seat_summaries",
]
