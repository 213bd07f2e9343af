"""Drive tables through their services in tests, without sockets or a worker."""

from __future__ import annotations

import random

from games import engine
from games import services as table_services
from games.models import Table
from games.services import seat_join, table_create, table_start


def table_state(table_id: int) -> engine.State:
    return engine.from_json(Table.objects.get(pk=table_id).state)


def drive(
    table_id: int,
    users: dict[int, object],
    *,
    rng: random.Random,
    max_steps: int = 5000,
    on_step=None,
    choose=None,
) -> Table:
    """Play a table to its end: seated users act, timed jobs run in place.

    ``choose(table, state, position)`` picks a seated user's action, None to let
    the table's timed job act first; by default a random legal one.
    """

    def at_random(_table, state, position):
        legal = engine.legal_actions(state, position)
        return rng.choice(legal) if legal else engine.Action.next_hand()

    choose = choose or at_random
    for _ in range(max_steps):
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return table
        if table.state is None:
            # A fair table waiting for its seeds: its deal job deals without them.
            Table.objects.filter(pk=table_id).update(deadline=None)
            table_services.table_tick(table_id=table_id, seq=table.seq)
            continue
        state = engine.from_json(table.state)
        actor = None
        for position, user in users.items():
            if engine.legal_actions(state, position):
                actor = (position, user)
                break
        if actor is None and state.phase == "hand_over" and users:
            actor = next(iter(users.items()))
        action = None
        if actor is not None and (table.timer != Table.Timer.BOT or rng.random() < 0.5):
            action = choose(table, state, actor[0])
        if action is not None:
            table_services.table_act(
                table_id=table_id,
                user=actor[1],
                action=engine.action_to_dict(action),
                expected_seq=table.seq,
            )
        else:
            assert table.timer, f"table stalled at seq {table.seq} ({state.phase})"
            Table.objects.filter(pk=table_id).update(deadline=None)
            table_services.table_tick(table_id=table_id, seq=table.seq)
        if on_step is not None:
            on_step(Table.objects.get(pk=table_id))
    raise AssertionError("the table did not finish")


def two_human_table(
    make_user, *, mode: str = "friend", variant: str = "draw", clock=None, **options
):
    """A started 2-seat table of two people, ``ana`` (seat 0) and ``ben`` (seat 1)."""
    ana, ben = make_user("ana"), make_user("ben")
    table = table_create(
        mode=mode,
        variant=variant,
        options=options,
        host=ana,
        clock_seconds=clock,
        hand_pause_seconds=0,
    )
    seat_join(table_id=table.pk, user=ana)
    seat_join(table_id=table.pk, user=ben)
    table_start(table_id=table.pk)
    return Table.objects.get(pk=table.pk), ana, ben


def finished_pair(make_user, mode=Table.Mode.ONLINE):
    """A two-person table of ``mode`` played to its end: (table, ana, ben)."""
    table, ana, ben = two_human_table(make_user, mode=mode, target=50)
    return drive(table.pk, {0: ana, 1: ben}, rng=random.Random(3)), ana, ben


def finished_practice(user, *, variant="draw", seed=1):
    """``user``'s practice table against an easy computer, played to its end."""
    table = table_services.table_practice_create(
        user=user,
        variant=variant,
        options={"target": 50},
        bot_levels=["easy"],
        bot_speed="instant",
    )
    return drive(table.pk, {0: user}, rng=random.Random(seed))
