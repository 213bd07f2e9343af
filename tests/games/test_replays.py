"""Replays of ended tables: who may watch, what each step shows, the text record."""

from __future__ import annotations

import random
import re

import pytest

from games import engine
from games.models import Table, TableEvent
from games.replays.access import replay_share_token
from games.replays.steps import replay_data
from games.services import table_cancel, table_practice_create
from tests.support.tables import drive, table_state, two_human_table


def finished_practice(user, *, variant="all_fives", seed=1, **options):
    table = table_practice_create(
        user=user,
        variant=variant,
        options={"target": 50, **options},
        bot_levels=["easy"],
        bot_speed="instant",
    )
    return drive(table.pk, {0: user}, rng=random.Random(seed))


def finished_pair(make_user, mode):
    table, ana, ben = two_human_table(make_user, mode=mode, target=50)
    return drive(table.pk, {0: ana, 1: ben}, rng=random.Random(3)), ana, ben


def test_the_steps_walk_every_move_to_the_stored_end(make_user, queued):
    user = make_user()
    table = finished_practice(user)
    data = replay_data(table=table)
    steps = data["steps"]
    actions = TableEvent.objects.filter(table=table, action__isnull=False).count()
    assert len(steps) == actions + 1  # the first deal, then one step per move
    final = table_state(table.pk)
    last = steps[-1]
    assert last["view"]["scores"] == list(final.scores)
    assert last["view"]["phase"] == "match_over"
    assert last["hands"] == engine.face_up(final)["hands"]
    assert [s["seq"] for s in steps[1:]] == sorted(s["seq"] for s in steps[1:])
    # Hands are listed with the index of their first step, which is their deal.
    assert [h["hand"] for h in data["hands"]] == list(range(1, final.hand_no + 1))
    for entry in data["hands"]:
        first = steps[entry["step"]]
        assert first["hand"] == entry["hand"]
        assert not any(h["type"] == "played" for h in first["view"]["history"])
        assert "dealt" in first["text"]
    # Moves are named for players, and no step carries a bot's sampling state.
    assert any("played" in s["text"] for s in steps)
    assert all(
        "public_state" not in s["view"] and "legal" not in s["view"] for s in steps
    )


def test_each_deal_step_shows_the_deal_of_the_fair_proof(make_user, queued, fair_deals):
    user = make_user()
    table = finished_practice(user, variant="draw", seed=2)
    data = replay_data(table=table)
    proofs = {h["hand"]: h for h in data["fair"]["hands"]}
    assert data["fair"]["version"] == "v1"
    for entry in data["hands"]:
        deal = data["steps"][entry["step"]]
        proof = proofs[entry["hand"]]
        assert proof["server_seed"] is not None
        assert [sorted(map(tuple, h)) for h in deal["hands"]] == [
            sorted(map(tuple, h)) for h in proof["dealt"]
        ]
        assert deal["stock"] == proof["stock"]


def test_a_practice_replay_is_its_players_and_opens_to_its_share_link(
    client, make_user, queued
):
    owner, stranger = make_user("owner"), make_user("stranger")
    table = finished_practice(owner)
    page = f"/tables/{table.pk}/replay/"
    assert client.get(page).status_code == 404
    client.force_login(stranger)
    assert client.get(page).status_code == 404
    assert client.get(f"/tables/{table.pk}/replay.json").status_code == 404
    assert client.get(f"/tables/{table.pk}/record.txt").status_code == 404
    client.force_login(owner)
    resp = client.get(page)
    assert resp.status_code == 200
    link = resp.context["config"]["link"]
    # A token is "payload:timestamp:signature"; the timestamp moves with the
    # clock, so the link's token is compared by its payload and then used.
    prefix = f"/tables/{table.pk}/replay/?share="
    assert prefix in link
    token = link.split(prefix, 1)[1]
    assert token.split(":")[0] == replay_share_token(table).split(":")[0]
    client.logout()
    for url in (
        page,
        f"/tables/{table.pk}/replay.json",
        f"/tables/{table.pk}/record.txt",
    ):
        assert client.get(url, {"share": token}).status_code == 200
        assert client.get(url, {"share": token[:-2] + "xx"}).status_code == 404
    # A link names one table: it opens no other practice table.
    other = finished_practice(owner, seed=5)
    assert (
        client.get(f"/tables/{other.pk}/replay/", {"share": token}).status_code == 404
    )


def test_an_online_replay_is_anyones_once_ended_and_nobodys_before(
    client, make_user, queued
):
    table, ana, ben = two_human_table(make_user, mode=Table.Mode.ONLINE, target=50)
    client.force_login(ana)
    resp = client.get(f"/tables/{table.pk}/replay/", follow=True)
    assert resp.redirect_chain == [(f"/tables/{table.pk}/", 302)]
    assert "The replay opens when the game has ended." in resp.content.decode()
    assert client.get(f"/tables/{table.pk}/replay.json").status_code == 404
    drive(table.pk, {0: ana, 1: ben}, rng=random.Random(3))
    client.logout()
    resp = client.get(f"/tables/{table.pk}/replay.json")
    assert resp.status_code == 200
    assert resp.json()["table"]["status"] == "finished"
    # It repeats itself from step to step: a browser gets it compressed.
    packed = client.get(f"/tables/{table.pk}/replay.json", HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert len(packed.content) * 5 < len(resp.content)
    assert client.get(f"/tables/{table.pk}/replay/").status_code == 200


def test_a_friend_room_replay_is_for_its_members(client, make_user, queued):
    table, ana, _ben = finished_pair(make_user, Table.Mode.FRIEND)
    client.force_login(make_user("outsider"))
    assert client.get(f"/tables/{table.pk}/replay.json").status_code == 404
    client.logout()
    assert client.get(f"/tables/{table.pk}/replay.json").status_code == 404
    client.force_login(ana)
    assert client.get(f"/tables/{table.pk}/replay.json").status_code == 200


def test_an_abandoned_table_replays_to_its_abandonment(client, make_user, queued):
    user = make_user()
    table = table_practice_create(user=user, variant="draw", bot_levels=["easy"])
    table_cancel(table_id=table.pk, reason="idle")
    data = replay_data(table=Table.objects.get(pk=table.pk))
    assert data["table"]["status"] == "cancelled"
    assert data["steps"][-1]["text"] == "ended: nobody played for a day"


# --- the text record (docs/notation.md)

_END_WORDS = {engine.ROOT: "open", "n": "north", "e": "east", "s": "south", "w": "west"}
_MOVES = {"played", "drew", "passed", "claimed", "declined", "muggins", "closed"}


def _written(event: dict) -> str:
    """A logged event as docs/notation.md writes it, from the notation's rules."""
    kind = event["type"]
    if kind == "played":
        end = str(event["end"])
        if ":" in end:
            double, side = end.split(":")
            end = f"{double}:{'left' if side == 'l' else 'right'}"
        tile = "-".join(map(str, event["tile"]))
        text = f"play {tile} {_END_WORDS.get(end, end)}"
        return f"{text} +{event['points']}" if event.get("points") else text
    if kind == "drew":
        return "draw " + "-".join(map(str, event["tile"]))
    if kind == "passed":
        return "pass"
    verb = {"claimed": "claim", "declined": "decline", "muggins": "muggins"}[kind]
    return f"{verb} {event['points']}"


@pytest.mark.parametrize("variant", ["all_fives", "draw"])
def test_the_record_names_every_move_and_replays_to_the_same_end(
    client, make_user, queued, variant
):
    user = make_user()
    table = finished_practice(user, variant=variant, seed=4)
    client.force_login(user)
    resp = client.get(f"/tables/{table.pk}/record.txt")
    assert resp.status_code == 200
    assert resp["Content-Type"].startswith("text/plain")
    text = resp.content.decode()
    assert text.isascii()
    assert f'[Table "{table.pk}"]' in text and f'[Variant "{variant}"]' in text
    assert '[Seat2 "computer easy"]' in text
    final = table_state(table.pk)
    moves = sum(
        1
        for e in TableEvent.objects.filter(table=table)
        for event in e.events
        if event["type"] in _MOVES
    )
    lines = re.findall(r"^(\d+)\. (S\d) (.*?)(?: \{clock\})?$", text, re.M)
    assert len(lines) == moves
    logged = [
        event
        for e in TableEvent.objects.filter(table=table).order_by("seq")
        for event in e.events
        if event["type"] in _MOVES
    ]
    for n, ((number, seat, move), event) in enumerate(zip(lines, logged, strict=True)):
        assert int(number) == n + 1
        assert seat == f"S{event['seat'] + 1}"
        assert move == _written(event)
    assert text.count("= hand ") == final.hand_no
    assert re.search(r"^= match: S\d( S\d)* won$", text, re.M)
    # Every hand's deal is written face up: seat lines of the dealt hand size.
    per_seat = engine.Options.from_dict(table.options).tiles_per_seat
    deals = re.findall(r"^  S1: (.*)$", text, re.M)
    assert len(deals) == final.hand_no
    assert all(len(d.split()) == per_seat for d in deals)


def test_my_games_and_profiles_link_the_replays_a_viewer_may_watch(
    client, make_user, queued
):
    online, ana, _ben = finished_pair(make_user, Table.Mode.ONLINE)
    practice = finished_practice(ana, seed=6)
    mine = {f"/tables/{t.pk}/replay/" for t in (online, practice)}
    client.force_login(ana)
    body = client.get("/games/").content.decode()
    assert all(link in body for link in mine)
    body = client.get(f"/players/{ana.username}/").content.decode()
    assert all(link in body for link in mine)
    # Someone else sees the online table's replay on her profile, not her practice.
    client.force_login(make_user("visitor"))
    body = client.get(f"/players/{ana.username}/").content.decode()
    assert f"/tables/{online.pk}/replay/" in body
    assert f"/tables/{practice.pk}/replay/" not in body
