"""The transition function: dealing, legal actions and ``apply``.

Decisions where RULES.md is silent (the seeds and "what a seasoned player
expects"):

* Dealing: a table with a fair deal deals by RULES.md §1.1 (``fair.py``; a redeal
  takes the next redeal number). Otherwise hand ``h`` is shuffled by
  ``random.Random(f"{seed}:{h}")`` and a redeal reshuffles with the same generator.
  Seat ``i`` gets the ``i``-th slice; the rest is the stock (in ``block``, tiles set
  aside).
* Opening: the forced tile is played on the end ``"root"``. After the opening,
  play passes to the opener's left. "Heaviest tile" ties go to the seat nearest
  the dealer's left; that seat may open with any of its heaviest tiles.
* Opening rule ``winner`` (002, ``fives`` and the ``block``/``draw`` option):
  after a tied hand the seat after the last hand's opener opens, with any tile.
* Blocked hands are detected as soon as they arise (no seat can play and none
  may draw) rather than after a round of passes.
* Draw-until-playable: each ``draw`` is one action; the seat keeps the turn and
  must play once a drawn tile fits (it may play any fitting tile).
* Claims (``all_fives``, ``fives_and_threes``): a scoring play opens the claim
  phase even when it ends the hand, so the last play can be claimed; the hand is
  scored after the claim is settled. Claimed and Muggins points count at once,
  and reaching the target with them ends the match mid-hand.
* Muggins may be called by any opponent of the scorer (with partners: the other
  side) while the window is open, in or out of turn; it does not change whose
  turn it is.
* Spider: after laying one or more doubles (and not going out) the same seat
  decides in phase ``close`` whether to close some of them (``close``) or none
  (``continue``). A multi-double move lays at least two doubles on distinct
  ends. The opening double is never closed.
* ``next_hand`` may be sent by any seat once the hand is over.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from games.engine import fair
from games.engine.actions import (
    CLAIM,
    CLOSE,
    CONTINUE,
    DRAW,
    MUGGINS,
    NEXT_HAND,
    PASS,
    PLAY,
    PLAY_DOUBLES,
    Action,
    IllegalAction,
    parse_action,
)
from games.engine.fair import FairDeal
from games.engine.layout import attach, close_ends, end_sum, ends_mask, open_layout
from games.engine.messages import end_name, gettext_noop, text_list, tile_name
from games.engine.options import Options, Rules, rules_for
from games.engine.scoring import end_points, match_winners, reveal, score_hand
from games.engine.state import (
    CLOSED,
    FILL,
    PHASE_CLAIM,
    PHASE_CLOSE,
    PHASE_HAND_OVER,
    PHASE_MATCH_OVER,
    PHASE_PLAY,
    Entry,
    State,
)
from games.engine.tiles import (
    DOUBLES_MASK,
    IS_DOUBLE,
    NUM_MASK,
    PAIRS,
    PIPS,
    ROOT,
    TILE_HI,
    TILE_LO,
    bits,
    tile_id,
)
from games.engine.variants import (
    HIGHEST_DOUBLE_ANY,
    LINE,
    LOWEST_DOUBLE,
    SPIDER,
    STOCK_NONE,
    STOCK_ONE,
    WINNER,
)

_DRAW = Action(DRAW)
_PASS = Action(PASS)
_CONTINUE = Action(CONTINUE)
_MUGGINS = Action(MUGGINS)
_NEXT_HAND = Action(NEXT_HAND)
_LIST_NEXT_HAND = [_NEXT_HAND]

_PLAY_CACHE: dict[str, list[Action]] = {}


def _play_row(end: str) -> list[Action]:
    row = _PLAY_CACHE.get(end)
    if row is None:
        row = _PLAY_CACHE[end] = [Action(PLAY, p, end) for p in PAIRS]
    return row


# ---------------------------------------------------------------- dealing


def _choose_opener(
    r: Rules,
    hands: tuple[int, ...],
    hand_no: int,
    dealer: int,
    last_winner: int,
    last_opener: int,
) -> tuple[int, tuple[int, ...]]:
    """(opener, tiles it may open with; () = any) or (-1, ()) for a redeal."""
    n = r.seats
    if r.opening == WINNER and hand_no > 1:
        if last_winner >= 0:
            return last_winner, ()
        return (last_opener + 1) % n, ()
    if r.opening == LOWEST_DOUBLE:
        order = [*range(1, r.set_max + 1), 0]
    else:
        order = list(range(r.set_max, -1, -1))
    for d in order:
        bit = 1 << tile_id(d, d)
        for seat in range(n):
            if hands[seat] & bit:
                t = tile_id(d, d)
                return seat, (() if r.opening == HIGHEST_DOUBLE_ANY else (t,))
    if r.no_double == "heaviest":
        dealt = 0
        for h in hands:
            dealt |= h
        top = max(PIPS[t] for t in bits(dealt))
        for k in range(1, n + 1):
            seat = (dealer + k) % n
            heavy = tuple(t for t in bits(hands[seat]) if PIPS[t] == top)
            if heavy:
                return seat, heavy
    return -1, ()


def _shuffled(s: State, r: Rules, hand_no: int) -> Iterator[list[int]]:
    """The tile ids of each successive deal of hand ``hand_no`` (the first deal,
    then each redeal): by the fair deal when the table has one, else by
    ``random.Random(f"{seed}:{hand_no}")``."""
    if s.fair is not None:
        for redeal in itertools.count():
            hands, stock = fair.deal(
                s.fair,
                set_max=r.set_max,
                seats=r.seats,
                per_seat=r.tiles_per_seat,
                hand=hand_no,
                redeal=redeal,
            )
            yield [tile_id(a, b) for a, b in itertools.chain(*hands, stock)]
    rng = random.Random(f"{s.seed}:{hand_no}")
    tiles = list(range(r.n_tiles))
    while True:
        rng.shuffle(tiles)
        yield list(tiles)


def _deal(s: State, r: Rules, hand_no: int, dealer: int) -> State:
    """Deal hand ``hand_no`` into ``s`` (a fresh copy) and return it."""
    n = r.seats
    k = r.tiles_per_seat
    redeals = 0
    for tiles in _shuffled(s, r, hand_no):
        hands_l = []
        for i in range(n):
            m = 0
            for t in tiles[i * k : (i + 1) * k]:
                m |= 1 << t
            hands_l.append(m)
        hands = tuple(hands_l)
        opener, opening = _choose_opener(
            r, hands, hand_no, dealer, s.last_winner, s.last_opener
        )
        if opener >= 0:
            break
        redeals += 1
    s.hand_no = hand_no
    s.dealer = dealer
    s.phase = PHASE_PLAY
    s.turn = opener
    s.hands = hands
    s.stock = tuple(tiles[n * k :])
    s.ends = ()
    s.played = 0
    s.spinner = -1
    s.spun = False
    s.opening = opening
    s.pending = 0
    s.muggins = None
    s.to_close = ()
    s.last_opener = opener
    s.log = (("start", hand_no, dealer, opener, redeals),)
    s.n_events = 1
    s.hand_result = None
    return s


def new_match(options: Options, seed: int, *, fair: FairDeal | None = None) -> State:
    """A new match with hand 1 dealt. Same options and seed (or fair deal): same
    deals. With ``fair``, every hand is dealt by RULES.md §1.1 and ``seed`` is
    unused; its client seeds are one per seat."""
    if not isinstance(options, Options):
        raise TypeError("new_match needs an Options (see options_for)")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError("the seed must be an int")
    r = rules_for(options)
    if fair is not None and len(fair.seeds) != r.seats:
        raise ValueError("a fair deal needs one client seed per seat")
    s = object.__new__(State)
    s.options = options
    s.seed = seed
    s.fair = fair
    s.scores = (0,) * r.n_sides
    s.last_winner = -1
    s.last_opener = -1
    s.winners = ()
    return _deal(s, r, 1, 0)


def fair_extend(state: State, top: bytes) -> State:
    """``state`` with one more hash chain, whose secret top is ``top``: the keys of
    the next ``fair.CHAIN_LENGTH`` hands after the last chain's (RULES.md §1.1)."""
    if state.fair is None:
        raise ValueError("only a table with a fair deal has hash chains")
    new = state.copy()
    new.fair = FairDeal(
        table_id=state.fair.table_id,
        chains=(*state.fair.chains, top),
        seeds=state.fair.seeds,
    )
    return new


# ---------------------------------------------------------------- queries


def current_seat(state: State) -> int | None:
    """The seat whose decision it is, or None (hand over, match over)."""
    if state.phase in (PHASE_PLAY, PHASE_CLAIM, PHASE_CLOSE):
        return state.turn
    return None


def is_match_over(state: State) -> bool:
    """Whether the match has ended."""
    return state.phase == PHASE_MATCH_OVER


def _drawable(r: Rules, stock: tuple[int, ...]) -> bool:
    if r.stock == STOCK_NONE:
        return False
    return len(stock) > r.reserve


def _fits(r: Rules, ends: tuple[tuple[str, int, int], ...]) -> int:
    """Bitmask of tiles that fit a playable end."""
    if r.layout == LINE:
        return NUM_MASK[ends[0][1]] | NUM_MASK[ends[1][1]]
    return ends_mask(ends)


def _plays(state: State, r: Rules, seat: int) -> list[Action]:
    hand = state.hands[seat]
    out: list[Action] = []
    if state.played == 0:
        row = _play_row(ROOT)
        if state.opening:
            return [row[t] for t in state.opening]
        while hand:
            low = hand & -hand
            out.append(row[low.bit_length() - 1])
            hand ^= low
        return out
    ends = state.ends
    fill = False
    if r.layout != LINE:
        for e in ends:
            if e[2] & FILL:
                fill = True
                break
    for eid, v, f in ends:
        if f & CLOSED or (fill and not f & FILL):
            continue
        m = hand & NUM_MASK[v]
        if m:
            row = _PLAY_CACHE.get(eid) or _play_row(eid)
            while m:
                low = m & -m
                out.append(row[low.bit_length() - 1])
                m ^= low
    if r.layout == SPIDER and out:
        out.extend(_double_combos(state, hand))
    return out


def _double_combos(state: State, hand: int) -> list[Action]:
    """Spider: every way to lay two or more doubles on distinct ends."""
    doubles = [t for t in bits(hand & DOUBLES_MASK)]
    options: list[list[str]] = []
    for t in doubles:
        d = TILE_LO[t]
        options.append([e[0] for e in state.ends if e[1] == d and not e[2] & CLOSED])
    found: list[Action] = []

    def walk(
        i: int, used: tuple[str, ...], chosen: tuple[tuple[int, str], ...]
    ) -> None:
        if i == len(doubles):
            if len(chosen) >= 2:
                found.append(
                    Action(
                        PLAY_DOUBLES,
                        plays=tuple(sorted((PAIRS[t], e) for t, e in chosen)),
                    )
                )
            return
        walk(i + 1, used, chosen)
        for e in options[i]:
            if e not in used:
                walk(i + 1, (*used, e), (*chosen, (doubles[i], e)))

    walk(0, (), ())
    return found


def legal_actions(state: State, seat: int) -> list[Action]:
    """The actions ``seat`` may take now (empty if none).

    Besides the seat to move, an opponent of the scorer may call Muggins while a
    Muggins window is open, and every seat may start the next hand.
    """
    phase = state.phase
    if phase == PHASE_PLAY:
        r = rules_for(state.options)
        mug = state.muggins
        if seat != state.turn:
            if mug is not None and r.side_of[mug[0]] != r.side_of[seat]:
                return [_MUGGINS]
            return []
        out = _plays(state, r, seat)
        if not out:
            out = [_DRAW] if _drawable(r, state.stock) else [_PASS]
        if mug is not None and r.side_of[mug[0]] != r.side_of[seat]:
            out.append(_MUGGINS)
        return out
    if phase == PHASE_CLAIM:
        if seat != state.turn:
            return []
        return [Action(CLAIM, points=state.pending), _CONTINUE]
    if phase == PHASE_CLOSE:
        if seat != state.turn:
            return []
        ends = state.to_close
        acts = [
            Action(CLOSE, ends=tuple(sorted(c)))
            for k in range(1, len(ends) + 1)
            for c in combinations(ends, k)
        ]
        acts.append(_CONTINUE)
        return acts
    if phase == PHASE_HAND_OVER and 0 <= seat < state.options.seats:
        return list(_LIST_NEXT_HAND)
    return []


# ---------------------------------------------------------------- transitions


def _finish(new: State, r: Rules, old: State, seat: int, entries: list[Entry]) -> State:
    """End ``seat``'s turn: score the hand if it is over, else pass the turn."""
    hands = new.hands
    if hands[seat] == 0:
        return _hand_over(new, r, old, "out", seat, entries)
    if not _drawable(r, new.stock):
        union = 0
        for h in hands:
            union |= h
        if not union & _fits(r, new.ends):
            return _hand_over(new, r, old, "blocked", -1, entries)
    new.turn = seat + 1 if seat + 1 < r.seats else 0
    new.phase = PHASE_PLAY
    new.log = old.log + tuple(entries)
    new.n_events = len(entries)
    return new


def _hand_over(
    new: State, r: Rules, old: State, reason: str, out_seat: int, entries: list[Entry]
) -> State:
    scores, winner, result = score_hand(
        r, new.hands, new.scores, reason, out_seat, new.dealer
    )
    new.scores = scores
    new.last_winner = winner
    new.hand_result = result
    new.muggins = None
    new.pending = 0
    new.to_close = ()
    new.turn = -1
    new.phase = PHASE_HAND_OVER
    entries.append(("hand_over", reason))
    winners = match_winners(r, scores)
    if winners:
        new.phase = PHASE_MATCH_OVER
        new.winners = winners
        entries.append(("match_over", winners))
    new.log = old.log + tuple(entries)
    new.n_events = len(entries)
    return new


def _maybe_target(
    new: State, r: Rules, old: State, entries: list[Entry]
) -> State | None:
    """End the match at once if a mid-hand score reached the target."""
    winners = match_winners(r, new.scores)
    if not winners:
        return None
    new.winners = winners
    new.phase = PHASE_MATCH_OVER
    new.turn = -1
    new.muggins = None
    new.pending = 0
    new.hand_result = reveal(new.hands, r, "target", new.scores)
    entries.append(("match_over", winners))
    new.log = old.log + tuple(entries)
    new.n_events = len(entries)
    return new


def _add(scores: tuple[int, ...], side: int, pts: int) -> tuple[int, ...]:
    lst = list(scores)
    lst[side] += pts
    return tuple(lst)


def _tile_of(r: Rules, pair: tuple[int, int] | None) -> int:
    assert pair is not None
    a, b = pair
    if b > r.set_max:
        raise IllegalAction(
            gettext_noop("There is no %(tile)s in the double-%(set)s set."),
            tile=tile_name(tile_id(a, b)),
            set=r.set_max,
        )
    return tile_id(a, b)


def _find_end(ends: tuple[tuple[str, int, int], ...], eid: str | None) -> int:
    for i, e in enumerate(ends):
        if e[0] == eid:
            return i
    raise IllegalAction(gettext_noop("There is no such end on the table."))


def _check_end(ends: tuple[tuple[str, int, int], ...], i: int, t: int) -> None:
    eid, v, f = ends[i]
    if f & CLOSED:
        raise IllegalAction(gettext_noop("The %(end)s is closed."), end=end_name(eid))
    if not f & FILL:
        for e in ends:
            if e[2] & FILL:
                raise IllegalAction(
                    gettext_noop(
                        "The four arms of the cross must each get a tile first: "
                        "play on an empty arm."
                    )
                )
    if TILE_LO[t] != v and TILE_HI[t] != v:
        raise IllegalAction(
            gettext_noop("The %(tile)s does not match the %(pips)s on the %(end)s."),
            tile=tile_name(t),
            pips=v,
            end=end_name(eid),
        )


def _play(state: State, r: Rules, seat: int, action: Action) -> State:
    t = _tile_of(r, action.tile)
    hand = state.hands[seat]
    if not hand >> t & 1:
        raise IllegalAction(
            gettext_noop("You do not hold the %(tile)s."), tile=tile_name(t)
        )
    eid = action.end
    spinner = state.spinner
    spun = state.spun
    if state.played == 0:
        if eid != ROOT:
            raise IllegalAction(
                gettext_noop("The first tile of a hand goes in the middle.")
            )
        if state.opening and t not in state.opening:
            raise _must_open_with(state.opening)
        ends, spinner = open_layout(r.layout, t)
    else:
        ends0 = state.ends
        i = _find_end(ends0, eid)
        _check_end(ends0, i, t)
        assert eid is not None
        ends, spinner, spun = attach(r.layout, ends0, i, t, spinner, spun)
    new = state.copy()
    hands = list(state.hands)
    hands[seat] = hand ^ (1 << t)
    new.hands = tuple(hands)
    new.ends = ends
    new.spinner = spinner
    new.spun = spun
    played = state.played + 1
    new.played = played
    new.muggins = None  # a tile played closes any Muggins window
    pts = end_points(r.scoring, end_sum(ends, played)) if r.end_scoring else 0
    entries: list[Entry] = [("play", seat, t, eid, pts)]
    if r.layout == SPIDER and IS_DOUBLE[t] and played > 1 and hands[seat]:
        new.phase = PHASE_CLOSE
        new.to_close = (eid or "",)
        new.log = state.log + tuple(entries)
        new.n_events = 1
        return new
    return _after_play(new, r, state, seat, pts, entries)


def _after_play(
    new: State, r: Rules, old: State, seat: int, pts: int, entries: list[Entry]
) -> State:
    if pts:
        if r.claims:
            new.phase = PHASE_CLAIM
            new.pending = pts
            new.log = old.log + tuple(entries)
            new.n_events = len(entries)
            return new
        new.scores = _add(new.scores, r.side_of[seat], pts)
        entries.append(("score", seat, pts))
        done = _maybe_target(new, r, old, entries)
        if done is not None:
            return done
    return _finish(new, r, old, seat, entries)


def _play_doubles(state: State, r: Rules, seat: int, action: Action) -> State:
    if r.layout != SPIDER:
        raise IllegalAction(
            gettext_noop("Only Spider lets you lay several doubles in one move.")
        )
    if state.played == 0:
        raise IllegalAction(gettext_noop("The hand opens with a single tile."))
    hand = state.hands[seat]
    ends = state.ends
    spinner, spun = state.spinner, state.spun
    seen_tiles: set[int] = set()
    seen_ends: set[str] = set()
    entries: list[Entry] = []
    if len(action.plays) < 2:
        raise IllegalAction(
            gettext_noop("Lay at least two doubles, or play a single tile.")
        )
    for pair, eid in action.plays:
        t = _tile_of(r, pair)
        if not IS_DOUBLE[t]:
            raise IllegalAction(
                gettext_noop("The %(tile)s is not a double."), tile=tile_name(t)
            )
        if not hand >> t & 1:
            raise IllegalAction(
                gettext_noop("You do not hold the %(tile)s."), tile=tile_name(t)
            )
        if t in seen_tiles or eid in seen_ends:
            raise IllegalAction(gettext_noop("Each double goes on its own end."))
        seen_tiles.add(t)
        seen_ends.add(eid)
        i = _find_end(ends, eid)
        _check_end(ends, i, t)
        ends, spinner, spun = attach(r.layout, ends, i, t, spinner, spun)
        hand ^= 1 << t
        entries.append(("play", seat, t, eid, 0))
    new = state.copy()
    hands = list(state.hands)
    hands[seat] = hand
    new.hands = tuple(hands)
    new.ends = ends
    new.played = state.played + len(action.plays)
    new.muggins = None
    if hand:
        new.phase = PHASE_CLOSE
        new.to_close = tuple(sorted(seen_ends))
        new.log = state.log + tuple(entries)
        new.n_events = len(entries)
        return new
    return _finish(new, r, state, seat, entries)


def _has_play(state: State, r: Rules, seat: int) -> bool:
    if state.played == 0:
        return True
    return bool(state.hands[seat] & _fits(r, state.ends))


def _draw(state: State, r: Rules, seat: int) -> State:
    if r.stock == STOCK_NONE:
        raise IllegalAction(
            gettext_noop("There is no drawing in %(variant)s: pass."),
            variant=r.options.spec.title_text(),
        )
    if _has_play(state, r, seat):
        raise IllegalAction(
            gettext_noop("You have a tile that fits: play it instead of drawing.")
        )
    if not _drawable(r, state.stock):
        if r.reserve and state.stock:
            raise IllegalAction(
                gettext_noop("The last two tiles of the stock are never drawn.")
            )
        raise IllegalAction(gettext_noop("The stock is empty."))
    t = state.stock[0]
    new = state.copy()
    new.stock = state.stock[1:]
    hands = list(state.hands)
    hands[seat] |= 1 << t
    new.hands = tuple(hands)
    entries: list[Entry] = [("draw", seat, t)]
    if r.stock == STOCK_ONE:
        return _finish(new, r, state, seat, entries)
    # Draw until playable: the turn stays; a block may arise when the stock empties.
    if not new.stock:
        union = 0
        for h in new.hands:
            union |= h
        if not union & _fits(r, new.ends):
            return _hand_over(new, r, state, "blocked", -1, entries)
    new.log = state.log + tuple(entries)
    new.n_events = 1
    return new


def _pass(state: State, r: Rules, seat: int) -> State:
    if _has_play(state, r, seat):
        raise IllegalAction(
            gettext_noop("You have a tile that fits: you may not pass.")
        )
    if _drawable(r, state.stock):
        raise IllegalAction(
            gettext_noop("You must draw from the stock before passing.")
        )
    new = state.copy()
    return _finish(new, r, state, seat, [("pass", seat)])


def _claim(state: State, r: Rules, seat: int, action: Action) -> State:
    if action.points != state.pending:
        raise IllegalAction(
            gettext_noop("The ends add up to %(sum)s: claim %(sum)s, not %(claim)s."),
            sum=state.pending,
            claim=action.points or 0,
        )
    new = state.copy()
    new.scores = _add(state.scores, r.side_of[seat], state.pending)
    new.pending = 0
    entries: list[Entry] = [("claim", seat, state.pending)]
    done = _maybe_target(new, r, state, entries)
    if done is not None:
        return done
    return _finish(new, r, state, seat, entries)


def _decline(state: State, r: Rules, seat: int) -> State:
    new = state.copy()
    new.muggins = (seat, state.pending)
    new.pending = 0
    return _finish(new, r, state, seat, [("continue", seat, state.pending)])


def _close(state: State, r: Rules, seat: int, action: Action) -> State:
    bad = [e for e in action.ends if e not in state.to_close]
    if bad:
        raise IllegalAction(
            gettext_noop("You may close only the doubles you have just laid.")
        )
    new = state.copy()
    new.ends = close_ends(state.ends, action.ends)
    new.to_close = ()
    return _finish(new, r, state, seat, [("close", seat, action.ends)])


def _muggins(state: State, r: Rules, seat: int) -> State:
    mug = state.muggins
    if state.phase != PHASE_PLAY or mug is None:
        raise IllegalAction(
            gettext_noop("There are no unclaimed points to call Muggins on.")
        )
    if r.side_of[mug[0]] == r.side_of[seat]:
        raise IllegalAction(gettext_noop("You cannot call Muggins on your own side."))
    new = state.copy()
    new.muggins = None
    new.scores = _add(state.scores, r.side_of[seat], mug[1])
    entries: list[Entry] = [("muggins", seat, mug[1], mug[0])]
    done = _maybe_target(new, r, state, entries)
    if done is not None:
        return done
    new.log = state.log + tuple(entries)
    new.n_events = 1
    return new


def _next_hand(state: State, r: Rules) -> State:
    new = state.copy()
    return _deal(new, r, state.hand_no + 1, (state.dealer + 1) % r.seats)


_NOT_YOUR_TURN = {
    PHASE_PLAY: gettext_noop("It is not your turn: another player is to play."),
    PHASE_CLAIM: gettext_noop("It is not your turn: another player is to claim."),
    PHASE_CLOSE: gettext_noop(
        "It is not your turn: another player is choosing which doubles to close."
    ),
}
_NOT_NOW = {
    PLAY: gettext_noop("You cannot play a tile now."),
    DRAW: gettext_noop("You cannot draw now."),
    PASS: gettext_noop("You cannot pass now."),
    CLAIM: gettext_noop("You cannot claim points now: it is your turn to play."),
    CONTINUE: gettext_noop(
        "There is nothing to claim or close: it is your turn to play."
    ),
    CLOSE: gettext_noop("You cannot close an end now: it is your turn to play."),
    PLAY_DOUBLES: gettext_noop("You cannot lay doubles now."),
}


def _must_open_with(opening: tuple[int, ...]) -> IllegalAction:
    if len(opening) == 1:
        return IllegalAction(
            gettext_noop("This hand must open with the %(tile)s."),
            tile=tile_name(opening[0]),
        )
    return IllegalAction(
        gettext_noop("This hand must open with one of these tiles: %(tiles)s."),
        tiles=text_list([tile_name(t) for t in opening]),
    )


def apply(state: State, seat: int, action: Action | dict[str, Any]) -> State:
    """Apply ``seat``'s action; return the new state (the input is untouched).

    Raises ``IllegalAction`` with a reason a player can read.
    """
    action = parse_action(action)
    r = rules_for(state.options)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < r.seats:
        raise IllegalAction(gettext_noop("There is no such seat at this table."))
    kind = action.type
    phase = state.phase
    if phase == PHASE_MATCH_OVER:
        raise IllegalAction(gettext_noop("The match is over."))
    if kind == MUGGINS:
        return _muggins(state, r, seat)
    if phase == PHASE_HAND_OVER:
        if kind == NEXT_HAND:
            return _next_hand(state, r)
        raise IllegalAction(gettext_noop("The hand is over: start the next hand."))
    if kind == NEXT_HAND:
        raise IllegalAction(gettext_noop("The hand is still being played."))
    if seat != state.turn:
        raise IllegalAction(_NOT_YOUR_TURN[phase])
    if phase == PHASE_PLAY:
        if kind == PLAY:
            return _play(state, r, seat, action)
        if kind == DRAW:
            return _draw(state, r, seat)
        if kind == PASS:
            return _pass(state, r, seat)
        if kind == PLAY_DOUBLES:
            return _play_doubles(state, r, seat, action)
        raise IllegalAction(_NOT_NOW.get(kind, gettext_noop("You cannot do that now.")))
    if phase == PHASE_CLAIM:
        if kind == CLAIM:
            return _claim(state, r, seat, action)
        if kind == CONTINUE:
            return _decline(state, r, seat)
        raise IllegalAction(
            gettext_noop(
                "Your play scored %(points)s: claim it or continue without claiming."
            ),
            points=state.pending,
        )
    # PHASE_CLOSE
    if kind == CLOSE:
        return _close(state, r, seat, action)
    if kind == CONTINUE:
        new = state.copy()
        new.to_close = ()
        return _finish(new, r, state, seat, [])
    raise IllegalAction(
        gettext_noop("Close some of the doubles you laid, or continue.")
    )
