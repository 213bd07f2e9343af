"""A bot account's seat is always labelled as a computer: its name carries "BOT"
wherever a seat is shown (table frames, history, My games, the replay, the
record, the profile), and the frames flag it (``program``) for the page's
computer badge. A person's friendly game against a bot; nothing earned by it."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from accounts.models import BotAccount
from economy.audit import ledger_audit
from economy.models import Entry, XpAward
from games.models import Seat, Table
from games.names import seat_display_name
from games.selectors import table_frame
from games.services import seat_join, table_create, table_start
from matchmaking.audit import unearned_minting_audit
from matchmaking.rooms.models import RoomInvitation
from tests.support.tables import drive

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet(queued, pushes):
    """No broker and no channel layer: timed jobs and frames are recorded."""


@pytest.fixture
def robo(make_user):
    user = make_user("robo")
    BotAccount.objects.create(user=user)
    return user


def _friendly(ana, robo) -> Table:
    table = table_create(
        mode=Table.Mode.FRIEND,
        variant="draw",
        options={"target": 50},
        host=ana,
        hand_pause_seconds=0,
    )
    seat_join(table_id=table.pk, user=ana)
    seat_join(table_id=table.pk, user=robo)
    table_start(table_id=table.pk)
    return table


def _played(ana, robo, django_capture_on_commit_callbacks) -> Table:
    table = _friendly(ana, robo)
    with django_capture_on_commit_callbacks(execute=True):
        return drive(table.pk, {0: ana, 1: robo}, rng=random.Random(5))


def test_a_bot_seat_is_flagged_and_named_as_a_bot(make_user, robo):
    ana = make_user("ana")
    table = _friendly(ana, robo)
    seat = Seat.objects.get(table=table, user=robo)
    assert seat.program
    assert not Seat.objects.get(table=table, user=ana).program
    assert seat_display_name(seat) == "robo · BOT"
    frame = table_frame(table_id=table.pk, position=0)
    mine, theirs = frame["seats"]
    assert theirs["program"] is True and theirs["name"] == "robo · BOT"
    assert theirs["alias"] == "robo"  # the page names it in its own language
    assert mine["program"] is False and mine["name"] == "ana"
    spectator = table_frame(table_id=table.pk, position=None)
    assert spectator["seats"][1]["name"] == "robo · BOT"


def test_pages_label_the_bot(
    make_user, robo, client, django_capture_on_commit_callbacks
):
    ana = make_user("ana")
    table = _played(ana, robo, django_capture_on_commit_callbacks)
    assert table.status == Table.Status.FINISHED
    client.force_login(ana)
    pages = {
        "history": (reverse("table-history", args=[table.pk]), "robo · BOT"),
        "my games": (reverse("my-games"), "robo · BOT"),
        "replay": (reverse("table-replay", args=[table.pk]), "robo · BOT"),
        "record": (reverse("table-record", args=[table.pk]), "robo (BOT)"),
    }
    for page, (url, label) in pages.items():
        response = client.get(url)
        assert response.status_code == 200, page
        assert label in response.content.decode(), page
    table_page = client.get(reverse("table", args=[table.pk]))
    assert table_page.status_code == 200


def test_the_profile_says_it_is_a_bot_and_offers_a_challenge(make_user, robo, client):
    ana = make_user("ana")
    client.force_login(ana)
    page = client.get(reverse("player-profile", args=["robo"])).content.decode()
    assert "BOT" in page
    assert "This player is a bot account" in page
    assert reverse("bot-challenge", args=["robo"]) in page
    person = client.get(reverse("player-profile", args=["ana"])).content.decode()
    assert "This player is a bot account" not in person


def test_a_person_challenges_a_bot_to_a_friendly_room(make_user, robo, client):
    ana = make_user("ana")
    client.force_login(ana)
    response = client.post(reverse("bot-challenge", args=["robo"]), {"variant": "draw"})
    assert response.status_code == 302, response.content
    invitation = RoomInvitation.objects.get(invitee=robo)
    assert invitation.inviter == ana
    assert invitation.room.table.mode == Table.Mode.FRIEND
    assert response["Location"] == reverse("room", args=[invitation.room.pk])


def test_a_person_cannot_challenge_a_person_this_way(make_user, client):
    ana, ben = make_user("ana"), make_user("ben")
    client.force_login(ana)
    response = client.post(reverse("bot-challenge", args=["ben"]), {"variant": "draw"})
    assert response.status_code == 404
    assert not RoomInvitation.objects.exists()
    assert ben.pk


def test_a_bot_earns_nothing_at_a_finished_table(
    make_user, robo, django_capture_on_commit_callbacks
):
    ana = make_user("ana")
    table = _played(ana, robo, django_capture_on_commit_callbacks)
    seats = {s.user_id: s for s in Seat.objects.filter(table=table)}
    assert seats[robo.pk].unpaid == "bot"
    # A bot is no person: a friend room with one person pays nobody.
    assert seats[ana.pk].unpaid == "alone"
    assert not Entry.objects.filter(account__user=robo).exists()
    assert not XpAward.objects.filter(user=robo).exists()
    assert not XpAward.objects.filter(user=ana).exists()
    assert ledger_audit() == []
    assert unearned_minting_audit() == []


def test_a_bots_chat_phrase_is_labelled(make_user, robo, monkeypatch):
    from chat import services as chat

    sent: list = []
    monkeypatch.setattr(chat.outbox, "notify", lambda batch: sent.extend(batch))
    ana = make_user("ana")
    table = _friendly(ana, robo)
    chat.chat_send(
        user_id=robo.pk, name="robo", table_id=table.pk, phrase="well_played"
    )
    assert {m["frame"]["from"] for _, m in sent} == {"robo · BOT"}
    sent.clear()
    chat.chat_send(user_id=ana.pk, name="ana", table_id=table.pk, phrase="well_played")
    assert {m["frame"]["from"] for _, m in sent} == {"ana"}
