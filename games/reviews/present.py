"""A stored review in the reader's words: what the review page and the replay
viewer show. The stored data (``games.review.export``) holds numbers and the
engine's wire actions; the words are made here, at each reading, so a review
reads in the language of whoever opens it, numbers included (``numbers``).

Only a *judged* decision (``games.review.single``: solved to the end of the hand
on every deal) shows a best option and a label, and only judged decisions count
in a seat's accuracy; the others are shown with their values and the reason
they have no verdict. A decision at a match point is valued by the chance of
winning the match (its ``scale``), shown in percent, the others in points. The
summaries are derived here from the stored decisions, so every stored review
reads by this rule, whatever summary and labels it holds."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _

from games.engine.options import Options, rules_for
from games.history import end_words, tile_words
from games.models import HandReview, Seat, Table
from games.names import seat_display_name
from games.review.export import review_from_json, seat_summaries
from games.review.labels import THRESHOLDS
from games.review.single import MATCH, POINTS, decision_judged
from games.reviews.numbers import (
    chance_text,
    points_text,
    signed_points_text,
    whole_text,
)

LABEL_WORDS = {
    "inaccuracy": _("Inaccuracy"),
    "mistake": _("Mistake"),
    "blunder": _("Blunder"),
}


def action_words(action: dict[str, Any]) -> str:
    """A stored action as a player says it: "play 5–3 on the left"."""
    kind = action.get("type")
    if kind == "play":
        return str(
            gettext("play %(tile)s %(where)s")
            % {
                "tile": tile_words(action.get("tile")),
                "where": end_words(str(action.get("end"))),
            }
        )
    if kind == "play_doubles":
        tiles = ", ".join(tile_words(p.get("tile")) for p in action.get("plays", []))
        return str(gettext("lay the doubles %(tiles)s") % {"tiles": tiles})
    if kind == "claim":
        return str(gettext("claim %(n)s") % {"n": action.get("points")})
    simple = {
        "draw": pgettext("draw from the stock", "draw"),
        "pass": gettext("pass"),
        "continue": gettext("play on without claiming"),
        "close": gettext("close the double"),
        "muggins": gettext("call Muggins"),
    }
    return str(simple.get(str(kind), str(kind)))


def _side_names(options: Options, names: dict[int, str]) -> list[str]:
    r = rules_for(options)
    out: list[list[str]] = [[] for _ in range(r.n_sides)]
    for seat in range(r.seats):
        out[r.side_of[seat]].append(names.get(seat, str(seat + 1)))
    return [" & ".join(n) for n in out]


def result_words(
    sol: dict[str, Any], sides: list[str], names: dict[int, str], spider: bool
) -> str:
    """A perfect-play result: every side's points and how the hand ends."""
    points = ", ".join(
        f"{name} {whole_text(p)}" for name, p in zip(sides, sol["points"], strict=False)
    )
    finish = sol.get("finish") or {}
    if finish.get("reason") == "out":
        seat = finish.get("seat")
        how = (
            gettext("a player goes out")
            if seat is None
            else gettext("%(name)s goes out") % {"name": names.get(seat, "")}
        )
    elif finish.get("reason") == "blocked":
        how = gettext("blocked")
    else:
        how = ""
    text = f"{points} · {how}" if how else points
    if spider:
        text += " " + gettext("(penalty points)")
    if not sol.get("exact", True):
        text += " · " + gettext("depth-limited estimate")
    return text


def luck_sentence(name: str, luck: float, variant: str) -> str:
    """What the luck meter says, in a sentence."""
    even = THRESHOLDS[variant].inaccuracy if variant in THRESHOLDS else 3.0
    points = points_text(abs(luck))
    if luck >= even:
        return str(
            gettext(
                "%(name)s was dealt a strong hand: with equal play it was worth"
                " %(points)s points more than the table's average."
            )
            % {"name": name, "points": points}
        )
    if luck <= -even:
        return str(
            gettext(
                "%(name)s was dealt a weak hand: with equal play it was worth"
                " %(points)s points less than the table's average."
            )
            % {"name": name, "points": points}
        )
    return str(
        gettext("%(name)s's deal was about even with the table's average.")
        % {"name": name}
    )


def _replay_url(table: Table, seq: int | None, share: str | None) -> str:
    url = reverse("table-replay", args=[table.pk])
    if share:
        url += f"?share={share}"
    return f"{url}#seq-{seq}" if seq is not None else url


def review_context(
    *, row: HandReview, table: Table, viewer: Any, share: str | None = None
) -> dict[str, Any]:
    """What the review page shows of a done review (``row.result``)."""
    data: dict[str, Any] = row.result or {}
    options = Options.from_dict(table.options)
    seats = sorted(
        Seat.objects.filter(table=table).select_related("user"),
        key=lambda s: s.position,
    )
    names = {s.position: seat_display_name(s) for s in seats}
    sides = _side_names(options, names)
    r = rules_for(options)
    spider = r.scoring == "spider"
    mine = {
        s.position
        for s in seats
        if getattr(viewer, "is_authenticated", False) and s.user_id == viewer.pk
    }
    my_sides = {r.side_of[p] for p in mine}
    faceup = []
    for k, x in enumerate(data.get("face_up", []), start=1):
        # A depth-limited comparison is a guess: never a "changed" mark or a best.
        settled = bool(x["before"].get("exact", True) and x["after"].get("exact", True))
        faceup.append(
            {
                "n": k,
                "who": names.get(x["seat"], ""),
                "action": action_words(x["action"]),
                "perfect": result_words(x["before"], sides, names, spider),
                "after": result_words(x["after"], sides, names, spider),
                "changed": bool(x["changed"]) and settled,
                "settled": settled,
                # Two ends may read the same ("on the left" of a double): once.
                "best": list(dict.fromkeys(action_words(a) for a in x["best"]))
                if settled
                else [],
                "replay": _replay_url(table, x.get("seq"), share),
            }
        )
    by_step = {x["step"]: k for k, x in enumerate(data.get("face_up", []), start=1)}
    per_seat: dict[int, list[dict[str, Any]]] = {p: [] for p in range(r.seats)}
    for d in data.get("decisions", []):
        judged = _judged(d)
        label = _label(d)
        chance = _chance(d)
        opts = [
            {
                "words": action_words(o["action"]),
                "value": chance_text(o["value"])
                if chance
                else signed_points_text(o["value"]),
                "chosen": j == d["chosen"],
                "best": judged and j == d["best"],
            }
            for j, o in enumerate(d["options"])
        ]
        per_seat.setdefault(d["seat"], []).append(
            {
                "n": by_step.get(d["step"], d["step"] + 1),
                "step": d["step"],
                "judged": judged,
                "settled": bool(d["exact"]),
                "label": label,
                "label_text": str(LABEL_WORDS[label]) if label else "",
                "chance": chance,
                "loss": _amount(d["loss"], chance),
                "error": _amount(d["error"], chance),
                "chosen": opts[d["chosen"]]["words"],
                "best": opts[d["best"]]["words"] if judged else "",
                "better": judged and d["chosen"] != d["best"],
                "options": opts,
                "samples": d["samples"],
                "match_point": d["match_point"],
                "replay": _replay_url(table, d.get("seq"), share),
            }
        )
    step_of = {
        d["step"]: d.get("seq") for d in data.get("decisions", [])
    }  # mistakes link to their move
    summaries = []
    for s in _summaries(data, options):
        seat = s["seat"]
        name = names.get(seat, str(seat + 1))
        summaries.append(
            {
                "seat": seat,
                "name": name,
                "mine": seat in mine or (options.partnership and s["side"] in my_sides),
                "decisions": s["decisions"],
                "accuracy": s["accuracy"],
                "accuracy_text": accuracy_words(
                    decisions=s["decisions"],
                    judged=s["judged"],
                    accuracy=s["accuracy"],
                ),
                "labels": s["labels"],
                "mistakes": [
                    {
                        "n": by_step.get(m["step"], m["step"] + 1),
                        "label": m["label"],
                        "label_text": str(LABEL_WORDS[m["label"]]),
                        "chance": _chance(m),
                        "loss": _amount(m["loss"], _chance(m)),
                        "replay": _replay_url(table, step_of.get(m["step"]), share),
                    }
                    for m in s["mistakes"]
                ],
                "luck": signed_points_text(s["luck"]),
                "luck_value": max(-40.0, min(40.0, s["luck"])),
                "luck_text": luck_sentence(name, s["luck"], options.variant),
                "moves": per_seat.get(seat, []),
            }
        )
    # The reader's own seat (and partner) first.
    summaries.sort(key=lambda x: (not x["mine"], x["seat"]))
    budget = data.get("budget") or {}
    samples = budget.get("samples")
    return {
        "faceup": faceup,
        "seats": summaries,
        "samples": samples,
        "reduced": bool(budget.get("reduced")),
        "unsettled": any(not d["exact"] for d in data.get("decisions", [])),
        "deep": data.get("depth") == HandReview.Depth.DEEP,
        "luck_exact": (data.get("luck") or {}).get("exact", True),
        "samples_words": ngettext(
            "The expected points of each option are averaged over %(n)s sampled"
            " deal consistent with what the player could see.",
            "The expected points of each option are averaged over %(n)s sampled"
            " deals consistent with what the player could see.",
            samples or 0,
        )
        % {"n": samples or 0},
    }


def _judged(d: dict[str, Any]) -> bool:
    return decision_judged(
        exact=bool(d["exact"]),
        match_point=bool(d["match_point"]),
        scale=str(d.get("scale", POINTS)),
    )


def _chance(d: dict[str, Any]) -> bool:
    """Whether a stored decision (or a summary's mistake) is valued by the
    chance of winning the match."""
    return d.get("scale") == MATCH


def _amount(value: float, chance: bool) -> str:
    """A loss or its error in the reader's words: a share of the chance of
    winning the match ("15 %") or points ("12.5")."""
    return chance_text(value) if chance else points_text(value)


def _label(d: dict[str, Any]) -> str | None:
    """A stored decision's label, if it is judged: a label stored on a decision
    that is not judged is no verdict."""
    label = d.get("label")
    return str(label) if label and _judged(d) else None


def _summaries(data: dict[str, Any], options: Options) -> list[dict[str, Any]]:
    """Each seat's summary, derived from the stored decisions by the current
    rule (``export.seat_summaries``)."""
    if not data.get("decisions") and not data.get("seats"):
        return []
    return seat_summaries(review_from_json(data), options)


def accuracy_words(*, decisions: int, judged: int, accuracy: int | None) -> str:
    """A seat's accuracy, and over how many of its decisions: "Accuracy 80 % ·
    5 of 7 decisions judged"; no accuracy at all when none was judged."""
    if decisions == 0:
        return str(gettext("No decision with a choice in this hand."))
    if accuracy is None or judged == 0:
        return str(
            ngettext(
                "No accuracy: its %(n)s decision could not be judged.",
                "No accuracy: none of its %(n)s decisions could be judged.",
                decisions,
            )
            % {"n": whole_text(decisions)}
        )
    share = ngettext(
        "%(judged)s of %(n)s decision judged",
        "%(judged)s of %(n)s decisions judged",
        decisions,
    ) % {"judged": whole_text(judged), "n": whole_text(decisions)}
    return str(
        gettext("Accuracy %(accuracy)s %% · %(share)s")
        % {"accuracy": whole_text(accuracy), "share": share}
    )


def review_moves(*, row: HandReview) -> list[dict[str, Any]]:
    """Each reviewed decision of a done review by the log entry it was made at:
    what the replay viewer shows beside the move."""
    data: dict[str, Any] = row.result or {}
    out = []
    for d in data.get("decisions", []):
        judged = _judged(d)
        label = _label(d)
        chosen = d["options"][d["chosen"]]["action"]
        best = d["options"][d["best"]]["action"]
        out.append(
            {
                "seq": d.get("seq"),
                "seat": d["seat"],
                # Only a judged decision has a verdict: a best option, a label.
                "judged": judged,
                "settled": bool(d["exact"]),
                "match_point": bool(d["match_point"]),
                "chance": _chance(d),
                "label": label,
                "label_text": str(LABEL_WORDS[label]) if label else "",
                # Unrounded: the browser rounds it as ``numbers`` does; a chance
                # comes in the reader's words.
                "loss": d["loss"] if judged else None,
                "loss_text": chance_text(d["loss"]) if judged and _chance(d) else None,
                "chosen": action_words(chosen),
                "best": action_words(best) if judged else None,
                "best_is_chosen": judged and d["best"] == d["chosen"],
            }
        )
    return out
