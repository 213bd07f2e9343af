"""A table's fair deal (RULES.md §1.1): its hash chains, client seeds and proof.

``Table.fair`` holds, server-side only, ``{"chains": [hex h_L, …], "commitments":
[hex h_0, …], "seeds": [str | None per seat]}``: the secret top of each chain (the
first drawn at creation), the commitment each one shows from its creation on, and
the client seeds (None until that seat sends one; the empty string for a seat dealt
without one). The engine state of a dealt table carries the same chains and seeds
(``State.fair``); replays deal from them.

What leaves the server: ``fair_public`` (commitments and seeds, in every frame) and
``table_fair_json`` (``/tables/<id>/fair.json``), which reveals a hand's server seed,
hands and stock only once that hand has ended, and every hand once the table has.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings

from dbtools.rows import database_of, rows_insert
from games import engine
from games.engine import fair
from games.models import ChainReserve, Table, TableEvent

ENDED = (Table.Status.FINISHED, Table.Status.CANCELLED)


def chain_top() -> bytes:
    """A fresh secret chain top ``h_L``. Tests patch this; nothing else may."""
    return secrets.token_bytes(32)


def _chain_new() -> tuple[str, str]:
    top = chain_top()
    return top.hex(), fair.chain_link(top, 0).hex()


def fair_new(*, seats: int) -> dict[str, Any] | None:
    """The ``Table.fair`` of a new table with ``seats`` seats: one chain committed,
    no seed yet. None when fair deals are off (tests that pin deals by seed)."""
    fair_deal = fair_unchained(seats=seats)
    if fair_deal is not None:
        fair_chain_set(fair_deal, _chain_new())
    return fair_deal


def fair_unchained(*, seats: int) -> dict[str, Any] | None:
    """``fair_new`` without its chain yet (``fair_chain_set`` gives it one before
    the table is written): for tables made in a batch, whose chains come from the
    reserve in one statement. None when fair deals are off."""
    if not settings.GAMES_FAIR_DEALS:
        return None
    return {"chains": [], "commitments": [], "seeds": [None] * seats}


def fair_chain_set(fair_deal: dict[str, Any], chain: tuple[str, str]) -> None:
    top, commitment = chain
    fair_deal["chains"], fair_deal["commitments"] = [top], [commitment]


# --- the reserve of chains drawn ahead (RULES.md §1.1)


def chains_take(count: int) -> list[tuple[str, str]]:
    """``count`` chains ``(hex top, hex commitment)`` for new tables, in the
    caller's transaction: from the reserve, each row deleted as it is taken (so a
    chain serves one table, and a rolled-back creation puts it back unseen;
    concurrent takers skip each other's rows on PostgreSQL), and drawn afresh for
    what the reserve lacks. One statement however many: drawing 500 chains here
    would cost 500 x 256 SHA-256 on the path that seats an arena's players
    (``bench/arena.py``)."""
    if count <= 0:
        return []
    db = database_of(ChainReserve)
    table = db.ops.quote_name(ChainReserve._meta.db_table)
    lock = " FOR UPDATE SKIP LOCKED" if db.vendor == "postgresql" else ""
    with db.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {table} WHERE id IN "  # noqa: S608 (names, not input)
            f"(SELECT id FROM {table} ORDER BY id LIMIT %s{lock}) "
            "RETURNING top, commitment",
            [count],
        )
        taken = [(str(top), str(commitment)) for top, commitment in cursor.fetchall()]
    taken += [_chain_new() for _ in range(count - len(taken))]
    return taken


def chains_reserve_fill(*, target: int, batch: int) -> int:
    """Draw chains into the reserve until it holds ``target`` (at most ``batch`` in
    one call, so one call holds the embedded default's write lock briefly); how
    many were drawn."""
    missing = min(batch, target - ChainReserve.objects.count())
    if missing <= 0:
        return 0
    drawn = [_chain_new() for _ in range(missing)]
    rows_insert([ChainReserve(top=top, commitment=c) for top, c in drawn])
    return missing


def fair_deal_of(table: Table) -> fair.FairDeal:
    """The table's ``FairDeal``, a seat without a seed dealt with the empty string.

    Its deal names the table's id, but for a game played offline
    (``games.offline_upload``), dealt before it had a table: ``fair["table_id"]``."""
    assert table.fair is not None and table.pk is not None
    return fair.FairDeal(
        table_id=int(table.fair.get("table_id", table.pk)),
        chains=tuple(bytes.fromhex(top) for top in table.fair["chains"]),
        seeds=tuple(seed or "" for seed in table.fair["seeds"]),
    )


def table_seeding(table: Table) -> bool:
    """Whether a fair table has started and waits for its client seeds."""
    return (
        table.fair is not None
        and table.status == Table.Status.PLAYING
        and table.state is None
    )


def fair_public(table: Table) -> dict[str, Any] | None:
    """What every seat and spectator may know of the fair deal now; None for a table
    dealt before fair deals."""
    if table.fair is None:
        return None
    return {
        "version": fair.VERSION,
        "commitments": list(table.fair["commitments"]),
        "seeds": list(table.fair["seeds"]),
        "seeding": table_seeding(table),
    }


def fair_chain_ahead(table: Table, state: engine.State) -> engine.State:
    """``state``, with a new hash chain if the next hand would need one: added (and
    its commitment shown) while the last hand of the current chain is played.
    Updates ``table.fair``; the caller saves it."""
    if state.fair is None or table.fair is None:
        return state
    if state.fair.has_key(state.hand_no + 1):
        return state
    top, commitment = _chain_new()
    table.fair = {
        **table.fair,
        "chains": [*table.fair["chains"], top],
        "commitments": [*table.fair["commitments"], commitment],
    }
    return engine.fair_extend(state, bytes.fromhex(top))


def _redeals(table: Table) -> dict[int, int]:
    """The redeal number each started hand was finally dealt with (its log)."""
    out: dict[int, int] = {}
    for events in TableEvent.objects.filter(table=table).values_list(
        "events", flat=True
    ):
        for event in events or ():
            if event.get("type") == "hand_started":
                out[int(event["hand_no"])] = int(event.get("redeals") or 0)
    return out


def _pairs(tiles: list[tuple[int, int]]) -> list[list[int]]:
    return [[a, b] for a, b in tiles]


def table_fair_json(*, table: Table) -> dict[str, Any]:
    """The table's ``fair.json`` (RULES.md §1.1, docs/fairness.md): the commitments,
    the client seeds and each hand dealt so far; a hand's server seed, hands as
    dealt and stock are null until it has ended (all of them once the table has).
    A table dealt before fair deals has ``"version": null`` and nothing else."""
    options = engine.Options.from_dict(table.options)
    base: dict[str, Any] = {
        "version": None,
        "table": table.pk,
        "variant": table.variant,
        "set_max": options.set_max,
        "seats": options.seats,
        "tiles_per_seat": options.tiles_per_seat,
        "chain_length": fair.CHAIN_LENGTH,
        "commitment": None,
        "commitments": [],
        "client_seeds": [],
        "seeding": False,
        "hands": [],
    }
    if table.fair is None:
        return base
    base.update(
        version=fair.VERSION,
        commitment=table.fair["commitments"][0],
        commitments=list(table.fair["commitments"]),
        client_seeds=list(table.fair["seeds"]),
        seeding=table_seeding(table),
    )
    if table.state is None:
        return base
    state = engine.from_json(table.state)
    deal = state.fair
    assert deal is not None
    redeals = _redeals(table)
    over = table.status in ENDED or state.phase in ("hand_over", "match_over")
    hands = []
    for hand in range(1, state.hand_no + 1):
        redeal = redeals.get(hand, 0)
        entry: dict[str, Any] = {
            "hand": hand,
            "redeal": redeal,
            "server_seed": None,
            "dealt": None,
            "stock": None,
        }
        if hand < state.hand_no or over:
            dealt, stock = fair.deal(
                deal,
                set_max=options.set_max,
                seats=options.seats,
                per_seat=options.tiles_per_seat,
                hand=hand,
                redeal=redeal,
            )
            entry.update(
                server_seed=deal.server_seed(hand).hex(),
                dealt=[_pairs(tiles) for tiles in dealt],
                stock=_pairs(stock),
            )
        hands.append(entry)
    base["hands"] = hands
    return base
