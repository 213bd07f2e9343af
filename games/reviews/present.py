"""A stored review in the reader's words: what the review page and the replay
viewer show. The stored data (``games.review.export``) holds numbers and the
engine's wire actions; the words are made here, at each reading, so a review
reads in the language of whoever opens it."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _

from games.engine.options import Options, rules_for
from games.history import end_words, tile_words
from games.models import HandReview, Seat, Table
from games.names import seat_display_name
from games.review.labels import THRESHOLDS

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


def _signed(x: float) -> str:
    return f"{x:+.1f}".replace("-", "\u2212")


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
        f"{name} {p}" for name, p in zip(sides, sol["points"], strict=False)
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
    points = f"{abs(luck):.1f}"
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
        faceup.append(
            {
                "n": k,
                "who": names.get(x["seat"], ""),
                "action": action_words(x["action"]),
                "perfect": result_words(x["before"], sides, names, spider),
                "after": result_words(x["after"], sides, names, spider),
                "changed": x["changed"],
                "loss": x["loss"],
                # Two ends may read the same ("on the left" of a double): once.
                "best": list(dict.fromkeys(action_words(a) for a in x["best"])),
                "replay": _replay_url(table, x.get("seq"), share),
            }
        )
    by_step = {x["step"]: k for k, x in enumerate(data.get("face_up", []), start=1)}
    per_seat: dict[int, list[dict[str, Any]]] = {p: [] for p in range(r.seats)}
    for d in data.get("decisions", []):
        opts = [
            {
                "words": action_words(o["action"]),
                "value": _signed(o["value"]),
                "chosen": j == d["chosen"],
                "best": j == d["best"],
            }
            for j, o in enumerate(d["options"])
        ]
        per_seat.setdefault(d["seat"], []).append(
            {
                "n": by_step.get(d["step"], d["step"] + 1),
                "step": d["step"],
                "label": d["label"],
                "label_text": str(LABEL_WORDS[d["label"]]) if d["label"] else "",
                "loss": f"{d['loss']:.1f}",
                "error": f"{d['error']:.1f}",
                "chosen": opts[d["chosen"]]["words"],
                "best": opts[d["best"]]["words"],
                "options": opts,
                "samples": d["samples"],
                "exact": d["exact"],
                "depth": d["depth"],
                "match_point": d["match_point"],
                "replay": _replay_url(table, d.get("seq"), share),
            }
        )
    step_of = {
        d["step"]: d.get("seq") for d in data.get("decisions", [])
    }  # mistakes link to their move
    summaries = []
    for s in data.get("seats", []):
        seat = s["seat"]
        name = names.get(seat, str(seat + 1))
        summaries.append(
            {
                "seat": seat,
                "name": name,
                "mine": seat in mine or (options.partnership and s["side"] in my_sides),
                "decisions": s["decisions"],
                "accuracy": s["accuracy"],
                "labels": s["labels"],
                "mistakes": [
                    {
                        "n": by_step.get(m["step"], m["step"] + 1),
                        "label": m["label"],
                        "label_text": str(LABEL_WORDS[m["label"]]),
                        "loss": f"{m['loss']:.1f}",
                        "replay": _replay_url(table, step_of.get(m["step"]), share),
                    }
                    for m in s["mistakes"]
                ],
                "luck": _signed(s["luck"]),
                "luck_value": max(-40.0, min(40.0, s["luck"])),
                "luck_text": luck_sentence(name, s["luck"], options.variant),
                "moves": per_seat.get(seat, []),
            }
        )
    # The reader's own seat (and partner) first.
    summaries.sort(key=lambda x: (not x["mine"], x["seat"]))
    budget = data.get("budget") or {}
    samples = budget.get("samples")
    exact_share = _exact_share(data)
    return {
        "faceup": faceup,
        "seats": summaries,
        "samples": samples,
        "reduced": bool(budget.get("reduced")),
        "depth_limited": exact_share < 1.0,
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


def _exact_share(data: dict[str, Any]) -> float:
    decisions = data.get("decisions", [])
    if not decisions:
        return 1.0
    return sum(1 for d in decisions if d["exact"]) / len(decisions)


def review_moves(*, row: HandReview) -> list[dict[str, Any]]:
    """Each reviewed decision of a done review by the log entry it was made at:
    what the replay viewer shows beside the move."""
    data: dict[str, Any] = row.result or {}
    out = []
    for d in data.get("decisions", []):
        chosen = d["options"][d["chosen"]]["action"]
        best = d["options"][d["best"]]["action"]
        out.append(
            {
                "seq": d.get("seq"),
                "seat": d["seat"],
                "label": d["label"],
                "label_text": str(LABEL_WORDS[d["label"]]) if d["label"] else "",
                "loss": round(d["loss"], 1),
                "chosen": action_words(chosen),
                "best": action_words(best),
                "best_is_chosen": d["best"] == d["chosen"],
            }
        )
    return out
