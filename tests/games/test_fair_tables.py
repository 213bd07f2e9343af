"""The fair deal at live tables: committed at creation, client seeds before the first
deal (at most the seeding window), ``fair.json`` revealing each hand once it ended,
replays that still reproduce, and tables from before fair deals unchanged."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from games import engine
from games.engine import fair
from games.engine.tiles import tile_pairs
from games.errors import TableError
from games.fairness import table_fair_json
from games.models import Table, TableEvent
from games.replay import table_verify
from games.services import (
    SeatTaker,
    seat_presence,
    table_act,
    table_cancel,
    table_practice_create,
    table_seated_create,
    table_seed,
    table_tick,
)
from games.sweep import tables_overdue_tick
from tests.games.fairness import top_of
from tests.support.tables import drive, two_human_table

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _quiet(queued, pushes):
    """No broker and no channel layer: timed jobs and frames are recorded."""


def practice(user, variant="block", **options):
    seats = options.setdefault("seats", 2)
    return table_practice_create(
        user=user,
        variant=variant,
        options={"target": 50, **options},
        bot_levels=["easy"] * (seats - 1),
        bot_speed="instant",
    )


def fresh(table):
    return Table.objects.get(pk=table.pk)


def row(table):
    """What a refused request must leave as it was."""
    t = fresh(table)
    return t.seq, t.state, t.fair, t.timer, TableEvent.objects.filter(table=t).count()


def deal_due(table):
    """Run the table's ``deal`` job as its deadline passes."""
    t = fresh(table)
    assert t.timer == Table.Timer.DEAL
    Table.objects.filter(pk=t.pk).update(deadline=timezone.now())
    assert table_tick(table_id=t.pk, seq=t.seq)
    return fresh(table)


def test_a_practice_table_commits_at_creation_and_deals_after_the_seed(
    make_user, fair_deals, pushes, django_capture_on_commit_callbacks
):
    ana = make_user("ana")
    with django_capture_on_commit_callbacks(execute=True):
        table = fresh(practice(ana))
    commitment = fair.chain_link(top_of(0), 0).hex()
    assert table.fair["commitments"] == [commitment]
    assert table.fair["seeds"] == [None, None]
    # Started, waiting for the seeds: no deal yet, the deal job due in 3 s.
    assert (table.status, table.state, table.timer) == ("playing", None, "deal")
    wait = (table.deadline - timezone.now()).total_seconds()
    assert 2 < wait <= 3
    frame = json.loads(pushes[-1][1]["text"])
    assert frame["view"] is None
    assert frame["table"]["fair"] == {
        "version": "v1",
        "commitments": [commitment],
        "seeds": [None, None],
        "seeding": True,
    }
    data = table_fair_json(table=table)
    assert (data["version"], data["commitment"], data["hands"]) == (
        "v1",
        commitment,
        [],
    )

    with django_capture_on_commit_callbacks(execute=True):
        table_seed(table_id=table.pk, user=ana, seed="ana's lucky seed")

    table = fresh(table)
    state = engine.from_json(table.state)
    assert state.hand_no == 1 and state.phase == "play"
    assert state.fair == fair.FairDeal(table.pk, (top_of(0),), ("ana's lucky seed", ""))
    assert table.fair["seeds"] == ["ana's lucky seed", ""]
    hands, stock = fair.deal(
        state.fair, set_max=6, seats=2, per_seat=8, hand=1, redeal=0
    )
    assert [sorted(tile_pairs(m)) for m in state.hands] == [sorted(h) for h in hands]
    frame = json.loads(pushes[-1][1]["text"])
    assert frame["table"]["fair"]["seeds"] == ["ana's lucky seed", ""]
    assert frame["table"]["fair"]["seeding"] is False
    table_verify(table=table)


def test_every_creation_path_commits(make_user, fair_deals):
    from games.services import seat_join, table_create, table_start

    ana, ben = make_user("ana"), make_user("ben")
    waiting = table_create(mode=Table.Mode.FRIEND, variant="draw", host=ana)
    assert fresh(waiting).fair["commitments"] == [fair.chain_link(top_of(0), 0).hex()]
    seat_join(table_id=waiting.pk, user=ana)
    seat_join(table_id=waiting.pk, user=ben)
    table_start(table_id=waiting.pk)
    assert fresh(waiting).timer == Table.Timer.DEAL
    stake = table_create(mode=Table.Mode.STAKE, variant="block", host=None)
    seated = table_seated_create(
        mode=Table.Mode.ONLINE,
        variant="draw",
        seats=[SeatTaker(user=ana), SeatTaker(bot_level="easy", simulated=True)],
    )
    solo = practice(ana)
    tops = [t.fair["chains"] for t in map(fresh, (waiting, stake, seated, solo))]
    assert tops == [[top_of(n).hex()] for n in range(4)]
    assert fresh(seated).state is None and fresh(seated).timer == Table.Timer.DEAL


def test_the_deal_waits_for_every_person_then_the_window_deals_without(
    make_user, fair_deals, pushes, django_capture_on_commit_callbacks
):
    ana, ben = make_user("ana"), make_user("ben")
    table = table_seated_create(
        mode=Table.Mode.ONLINE,
        variant="draw",
        options={"seats": 3},
        seats=[
            SeatTaker(user=ana),
            SeatTaker(bot_level="easy", simulated=True, name="Vera42"),
            SeatTaker(user=ben),
        ],
    )
    with django_capture_on_commit_callbacks(execute=True):
        table_seed(table_id=table.pk, user=ana, seed="a" * 64)
    t = fresh(table)
    assert t.state is None and t.fair["seeds"] == ["a" * 64, None, None]
    # The seed is shown to every seat at once (a new seq).
    frame = json.loads(pushes[-1][1]["text"])
    assert frame["seq"] == t.seq and frame["table"]["fair"]["seeds"][0] == "a" * 64
    # A tick before the window ends deals nothing.
    assert not table_tick(table_id=t.pk, seq=t.seq)
    assert fresh(table).state is None
    # Ben never sends one: the window closes and he has the empty string.
    t = deal_due(table)
    state = engine.from_json(t.state)
    assert state.fair.seeds == ("a" * 64, "", "")
    assert t.fair["seeds"] == ["a" * 64, "", ""]
    table_verify(table=t)


def test_two_people_both_seeded_deal_at_the_second_seed(make_user, fair_deals):
    table, ana, ben = two_human_table(make_user, target=50)
    table_seed(table_id=table.pk, user=ana, seed="first")
    assert fresh(table).state is None
    table_seed(table_id=table.pk, user=ana, seed="second")  # replaces, still before
    assert fresh(table).state is None
    seat_presence(table_id=table.pk, user=ben, connected=True)  # no deal meanwhile
    assert fresh(table).state is None
    table_seed(table_id=table.pk, user=ben, seed="ben")
    state = engine.from_json(fresh(table).state)
    assert state.fair.seeds == ("second", "ben")


def test_an_overdue_deal_is_swept(make_user, fair_deals):
    """The embedded default and a lost task alike: the sweep deals a late table."""
    ana = make_user("ana")
    table = practice(ana)
    Table.objects.filter(pk=table.pk).update(
        deadline=timezone.now() - timedelta(seconds=10)
    )
    assert tables_overdue_tick() == 1
    assert engine.from_json(fresh(table).state).fair.seeds == ("", "")


@pytest.mark.parametrize(
    ("seed", "seat", "code"),
    [
        ("x" * 65, None, "bad_seed"),
        ("", None, "bad_seed"),
        ("graine-\u00e9t\u00e9", None, "bad_seed"),
        ("tab\there", None, "bad_seed"),
        ("\u4e00", None, "bad_seed"),
        (17, None, "bad_seed"),
        ("fine", 1, "not_your_seat"),
    ],
)
def test_bad_seeds_are_refused_and_change_nothing(
    make_user, fair_deals, seed, seat, code
):
    ana = make_user("ana")
    table = practice(ana)
    before = row(table)
    with pytest.raises(TableError) as err:
        table_seed(table_id=table.pk, user=ana, seed=seed, claimed_seat=seat)
    assert err.value.code == code and err.value.message
    assert row(table) == before


def test_a_seed_after_the_deal_or_from_a_spectator_is_refused(make_user, fair_deals):
    ana, eve = make_user("ana"), make_user("eve")
    table = practice(ana)
    with pytest.raises(TableError) as err:
        table_seed(table_id=table.pk, user=eve, seed="mine")
    assert err.value.code == "not_seated"
    with pytest.raises(TableError) as err:  # no move before the deal
        table_act(table_id=table.pk, user=ana, action={"type": "draw"}, expected_seq=1)
    assert err.value.code == "not_playing" and "seeds" in err.value.message
    table_seed(table_id=table.pk, user=ana, seed="mine")
    before = row(table)
    with pytest.raises(TableError) as err:
        table_seed(table_id=table.pk, user=ana, seed="changed my mind")
    assert err.value.code == "seeds_fixed"
    assert row(table) == before


def test_a_waiting_table_or_one_from_before_fair_deals_takes_no_seed(
    make_user, settings, fair_deals
):
    from games.services import seat_join, table_create

    ana = make_user("ana")
    waiting = table_create(mode=Table.Mode.FRIEND, variant="draw", host=ana)
    seat_join(table_id=waiting.pk, user=ana)
    with pytest.raises(TableError) as err:
        table_seed(table_id=waiting.pk, user=ana, seed="early")
    assert err.value.code == "not_started"
    settings.GAMES_FAIR_DEALS = False
    old = practice(ana)
    with pytest.raises(TableError) as err:
        table_seed(table_id=old.pk, user=ana, seed="late")
    assert err.value.code == "no_fair_deal"


def verify_with_the_tool(data: dict) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "tools" / "verify_deal.py"), "-"],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        check=False,
    )


def test_fair_json_hides_the_hand_in_play_and_reveals_it_after(make_user, fair_deals):
    ana = make_user("ana")
    table = practice(ana, variant="draw", target=100)
    table_seed(table_id=table.pk, user=ana, seed="s33d")
    t = fresh(table)
    first = engine.from_json(t.state)
    dealt_hands = [sorted(tile_pairs(m)) for m in first.hands]
    data = table_fair_json(table=t)
    assert data["hands"] == [
        {"hand": 1, "redeal": 0, "server_seed": None, "dealt": None, "stock": None}
    ]
    text = json.dumps(data)
    for k in range(0, 4):
        link = fair.chain_link(top_of(0), k).hex()
        assert (link in text) == (k == 0)  # the commitment only
    assert top_of(0).hex() not in text

    rng = random.Random(5)
    # Play until hand 1 is over: then it is revealed, and is the hand as dealt.
    for _ in range(500):
        t = fresh(table)
        state = engine.from_json(t.state)
        if state.phase in ("hand_over", "match_over"):
            break
        legal = engine.legal_actions(state, 0)
        if legal:
            table_act(
                table_id=t.pk,
                user=ana,
                action=engine.action_to_dict(rng.choice(legal)),
                expected_seq=t.seq,
            )
        else:
            Table.objects.filter(pk=t.pk).update(deadline=None)
            table_tick(table_id=t.pk, seq=t.seq)
    data = table_fair_json(table=fresh(table))
    (hand,) = data["hands"]
    assert hand["server_seed"] == fair.chain_link(top_of(0), 1).hex()
    assert [sorted(map(tuple, h)) for h in hand["dealt"]] == dealt_hands
    assert data["client_seeds"] == ["s33d", ""]
    assert verify_with_the_tool(data).returncode == 0

    # The next hand is dealt: hand 1 stays revealed, hand 2 is hidden.
    t = fresh(table)
    if engine.from_json(t.state).phase == "hand_over":
        table_act(
            table_id=t.pk,
            user=ana,
            action={"type": "next_hand"},
            expected_seq=t.seq,
        )
        data = table_fair_json(table=fresh(table))
        assert data["hands"][0]["server_seed"] is not None
        assert data["hands"][1]["server_seed"] is None
        assert fair.chain_link(top_of(0), 2).hex() not in json.dumps(data)


def test_the_end_of_the_table_reveals_every_hand(make_user, fair_deals):
    ana = make_user("ana")
    table = practice(ana, variant="all_fives", seats=3)
    table_seed(table_id=table.pk, user=ana, seed="to the end")
    finished = drive(table.pk, {0: ana}, rng=random.Random(3))
    assert finished.status == Table.Status.FINISHED
    data = table_fair_json(table=finished)
    assert len(data["hands"]) == engine.from_json(finished.state).hand_no
    assert all(h["server_seed"] for h in data["hands"])
    result = verify_with_the_tool(data)
    assert result.returncode == 0, result.stdout
    assert result.stdout.count("matches the commitment") == len(data["hands"])
    table_verify(table=finished)  # the replay deals the same from the stored chain

    # A changed tile is detected.
    data["hands"][0]["dealt"][0][0], data["hands"][0]["stock"][0] = (
        data["hands"][0]["stock"][0],
        data["hands"][0]["dealt"][0][0],
    )
    assert verify_with_the_tool(data).returncode == 1


def test_a_cancelled_table_reveals_the_hand_in_play(make_user, fair_deals):
    ana = make_user("ana")
    table = practice(ana)
    table_seed(table_id=table.pk, user=ana, seed="abandon")
    table_cancel(table_id=table.pk, reason="staff")
    data = table_fair_json(table=fresh(table))
    assert data["hands"][0]["server_seed"] == fair.chain_link(top_of(0), 1).hex()
    assert verify_with_the_tool(data).returncode == 0


def test_a_table_cancelled_while_seeding_publishes_its_commitment_only(
    make_user, fair_deals
):
    ana = make_user("ana")
    table = practice(ana)
    table_cancel(table_id=table.pk, reason="staff")
    data = table_fair_json(table=fresh(table))
    assert data["hands"] == [] and data["commitment"]


def test_a_long_match_gets_its_next_chain_before_it_needs_it(make_user, fair_deals):
    """Hand 256 is the last of the first chain: while it is played the second
    chain is committed, and hand 257 deals from it."""
    ana = make_user("ana")
    table = practice(ana, target=250)
    table_seed(table_id=table.pk, user=ana, seed="marathon")
    # Reach the end of hand 1, then pretend it was hand 255.
    for _ in range(300):
        t = fresh(table)
        state = engine.from_json(t.state)
        if state.phase == "hand_over":
            break
        Table.objects.filter(pk=t.pk).update(deadline=None)
        legal = engine.legal_actions(state, 0)
        if legal:
            table_act(
                table_id=t.pk,
                user=ana,
                action=engine.action_to_dict(legal[0]),
                expected_seq=t.seq,
            )
        else:
            table_tick(table_id=t.pk, seq=t.seq)
    assert state.phase == "hand_over", "the first hand did not end"

    def next_hand(hand_no):
        t = fresh(table)
        stored = dict(t.state)
        stored["hand_no"] = hand_no
        Table.objects.filter(pk=t.pk).update(state=stored)
        table_act(
            table_id=t.pk, user=ana, action={"type": "next_hand"}, expected_seq=t.seq
        )
        return fresh(table)

    t = next_hand(254)
    assert engine.from_json(t.state).hand_no == 255
    assert len(t.fair["commitments"]) == 1
    # Hand 256 (the last key of chain 1) is dealt: chain 2 is committed with it.
    t = fresh(table)
    stored = dict(t.state)
    stored["phase"] = "hand_over"
    stored["turn"] = -1
    Table.objects.filter(pk=t.pk).update(state=stored)
    t = next_hand(255)
    state = engine.from_json(t.state)
    assert state.hand_no == 256
    assert t.fair["commitments"] == [
        fair.chain_link(top_of(0), 0).hex(),
        fair.chain_link(top_of(1), 0).hex(),
    ]
    assert state.fair.chains == (top_of(0), top_of(1))
    # Hand 257 is dealt by the second chain's first link.
    stored = dict(t.state)
    stored["phase"] = "hand_over"
    stored["turn"] = -1
    Table.objects.filter(pk=t.pk).update(state=stored)
    t = next_hand(256)
    state = engine.from_json(t.state)
    assert state.hand_no == 257
    assert state.fair.server_seed(257) == fair.chain_link(top_of(1), 1)
    assert len(t.fair["commitments"]) == 2


def test_a_table_from_before_fair_deals_keeps_its_deal(make_user, settings):
    settings.GAMES_FAIR_DEALS = False
    ana = make_user("ana")
    table = fresh(practice(ana))
    assert table.fair is None
    state = engine.from_json(table.state)
    assert state.fair is None
    assert state == engine.new_match(
        engine.Options.from_dict(table.options), table.seed
    )
    data = table_fair_json(table=table)
    assert data["version"] is None and data["hands"] == []
    table_verify(table=table)


def test_fair_json_is_readable_by_whoever_may_see_the_table(
    make_user, fair_deals, client
):
    room_table, ana, _ben = two_human_table(make_user, mode=Table.Mode.FRIEND)
    eve = make_user("eve")
    online_table = table_seated_create(
        mode=Table.Mode.ONLINE,
        variant="draw",
        seats=[SeatTaker(user=eve), SeatTaker(bot_level="easy", simulated=True)],
    )
    # Anyone may watch an online table, signed in or not.
    response = client.get(f"/tables/{online_table.pk}/fair.json")
    assert response.status_code == 200
    assert response.json()["commitment"] == fresh(online_table).fair["commitments"][0]
    assert response["Cache-Control"] == "no-store"
    # A friend room's table: its players, not a stranger.
    client.force_login(eve)
    assert client.get(f"/tables/{room_table.pk}/fair.json").status_code == 404
    client.force_login(ana)
    assert client.get(f"/tables/{room_table.pk}/fair.json").status_code == 200
    assert client.get("/tables/999999/fair.json").status_code == 404
