"""Friend-room pages and endpoints through the test client."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Table
from matchmaking.models import Room, RoomInvitation
from matchmaking.rooms.services import invitation_send, room_create, room_start
from tests.matchmaking.rooms.helpers import notified_fixture, seated  # noqa: F401

pytestmark = pytest.mark.django_db

CREATE = {
    "variant": "draw",
    "set_max": "6",
    "seats": "3",
    "target": "100",
    "clock": "30",
    "bot_level": "easy",
    "host_seat": "2",
}


def signed_in(client, user):
    client.force_login(user)
    return client


def test_create_a_room_and_see_link_code_and_seat(client, make_user):
    ana = make_user("ana")
    signed_in(client, ana)
    assert client.get(reverse("room-new")).status_code == 200
    reply = client.post(reverse("room-new"), CREATE)
    room = Room.objects.get()
    assert reply.url == reverse("room", args=[room.pk])
    assert seated(room) == {1: "ana"}
    page = client.get(reply.url).content.decode()
    assert room.code in page and room.token in page
    assert "Start now" in page


@pytest.mark.parametrize(
    ("field", "value"),
    [("clock", "5"), ("clock", "500"), ("host_seat", "4"), ("seats", "9")],
)
def test_bad_create_form_changes_nothing(client, make_user, field, value):
    signed_in(client, make_user("ana"))
    reply = client.post(reverse("room-new"), {**CREATE, field: value})
    assert reply.status_code == 400
    assert "form-error" in reply.content.decode()
    assert not Room.objects.exists() and not Table.objects.exists()


def test_usernames_autocomplete_names_only_signed_in(client, make_user):
    ana = make_user("ana")
    make_user("anabel")
    make_user("bob")
    assert client.get(reverse("room-usernames"), {"q": "an"}).status_code == 302
    signed_in(client, ana)
    data = client.get(reverse("room-usernames"), {"q": "AN"}).json()
    assert data == {"usernames": ["anabel"]}
    assert client.get(reverse("room-usernames"), {"q": "anabel@"}).json() == {
        "usernames": []
    }
    assert (
        "example.com"
        not in client.get(reverse("room-usernames"), {"q": "a"}).content.decode()
    )


def test_invite_accept_by_json_and_the_invitations_page(client, make_user, notified):
    ana, ben = make_user("ana"), make_user("ben")
    room = room_create(host=ana, variant="draw", options={"seats": 3})
    signed_in(client, ana)
    reply = client.post(
        reverse("room-invite", args=[room.pk]), {"username": "ghost"}, follow=True
    )
    assert "No player can be invited under that name." in reply.content.decode()
    client.post(reverse("room-invite", args=[room.pk]), {"username": "ben"})
    invitation = RoomInvitation.objects.get()
    signed_in(client, ben)
    page = client.get(reverse("invitations")).content.decode()
    assert "ana invites you" in page
    assert 'id="invitation-count">1<' in page
    url = reverse("invitation-accept", args=[invitation.pk])
    reply = client.post(url, HTTP_ACCEPT="application/json")
    assert reply.json() == {"url": reverse("room", args=[room.pk])}
    again = client.post(url, HTTP_ACCEPT="application/json")
    assert again.status_code == 400
    assert again.json() == {"error": "You have answered this invitation already."}
    assert seated(room) == {0: "ana", 1: "ben"}


def test_host_actions_by_someone_else_are_refused(client, make_user, notified):
    ana, ben = make_user("ana"), make_user("ben")
    room = room_create(host=ana, variant="draw", options={"seats": 3})
    signed_in(client, ben)
    # Not a member: the room does not show.
    assert client.get(reverse("room", args=[room.pk])).status_code == 404
    client.post(reverse("room-join", args=[room.token]))
    for name, data in [
        ("room-start", {}),
        ("room-invite", {"username": "ana"}),
        ("room-remove", {"player": str(ana.pk)}),
        ("room-move", {"player": str(ana.pk), "seat": "3"}),
        ("room-move", {"player": "x", "seat": "3"}),
    ]:
        reply = client.post(
            reverse(name, args=[room.pk]), data, HTTP_ACCEPT="application/json"
        )
        assert reply.status_code == 400
        assert reply.json()["error"] in {
            "Only the host can do that.",
            "Choose a player and a seat.",
        }
    assert seated(room) == {0: "ana", 1: "ben"}
    assert room.table.status == Table.Status.WAITING


def test_the_link_tells_a_stranger_who_invites_them_sign_up_first(client, make_user):
    ana = make_user("ana")
    room = room_create(host=ana, variant="draw", options={"seats": 3})
    join = reverse("room-join", args=[room.token])
    reply = client.get(join)
    assert reply.status_code == 200
    page = reply.content.decode()
    assert f"ana invites you to play Draw in room {room.code} (3 seats)." in page
    signup = page.index('id="join-signup"')
    assert signup < page.index('id="join-login"')  # sign-up first
    assert f"{reverse('account_signup')}?next={join}" in page.replace("%2F", "/")
    assert "Join the game" not in page
    # A POST while signed out takes no seat: it goes to log in.
    assert client.post(join).url.startswith(reverse("account_login"))
    make_user("cy")
    login = f"{reverse('account_login')}?next={join}"
    back = client.post(login, {"login": "cy", "password": "a-Long-pass-42"})
    assert back.url == join
    page = client.get(join).content.decode()
    assert "Join the game" in page
    assert client.post(join).url == reverse("room", args=[room.pk])
    assert seated(room) == {0: "ana", 1: "cy"}


def test_bad_and_spent_links_and_codes(client, make_user):
    ana, cy = make_user("ana"), make_user("cy")
    room = room_create(host=ana, variant="draw", options={"seats": 2})
    signed_in(client, cy)
    bad = client.get(reverse("room-join", args=["not-a-token"]))
    assert bad.status_code == 404
    assert "does not lead to a room" in bad.content.decode()
    code = client.post(
        reverse("room-code"), {"code": f" {room.code[:3]}-{room.code[3:].lower()} "}
    )
    assert code.url == reverse("room-join", args=[room.token])
    wrong = client.post(reverse("room-code"), {"code": "ZZZZZZZ"})
    assert (
        wrong.status_code == 400 and "No room has that code" in wrong.content.decode()
    )
    room_start(room_id=room.pk, user=ana)
    spent = client.post(reverse("room-join", args=[room.token]), follow=True)
    assert "This game has already started." in spent.content.decode()
    assert seated(room) == {0: "ana", 1: "bot:medium"}


def test_recent_opponents_under_the_username_field(client, make_user, notified):
    ana, ben = make_user("ana"), make_user("ben")
    room = room_create(host=ana, variant="draw", options={"seats": 2})
    invitation_send(room_id=room.pk, inviter=ana, username="ben")
    signed_in(client, ben)
    client.post(reverse("invitation-accept", args=[RoomInvitation.objects.get().pk]))
    room_start(room_id=room.pk, user=ana)
    again = room_create(host=ana, variant="draw", options={"seats": 2})
    signed_in(client, ana)
    page = client.get(reverse("room", args=[again.pk])).content.decode()
    assert 'class="link recent" type="submit">ben<' in page


def test_too_many_wrong_codes_are_refused_even_the_right_one(client, make_user):
    from django.core.cache import cache

    from matchmaking.rooms.codes import CODE_MISSES_ALLOWED

    cache.clear()
    ana, cy = make_user("ana"), make_user("cy")
    room = room_create(host=ana, variant="draw", options={"seats": 2})
    signed_in(client, cy)
    for _ in range(CODE_MISSES_ALLOWED):
        assert client.post(reverse("room-code"), {"code": "ZZZZZZ"}).status_code == 400
    reply = client.post(reverse("room-code"), {"code": room.code})
    assert reply.status_code == 400
    assert "Too many wrong codes" in reply.content.decode()
    signed_in(client, ana)  # another player is not held back
    assert client.post(reverse("room-code"), {"code": room.code}).status_code == 302


def test_computer_seats_are_labelled_on_the_room_page(client, make_user):
    ana = make_user("ana")
    room = room_create(host=ana, variant="draw", options={"seats": 2}, bot_level="hard")
    room_start(room_id=room.pk, user=ana)
    page = signed_in(client, ana).get(reverse("room", args=[room.pk])).content.decode()
    assert "Computer (Hard)" in page
    assert 'id="to-table"' in page


def test_the_table_page_of_a_room_leads_back_to_the_room(client, make_user, queued):
    ana = make_user("ana")
    room = room_create(host=ana, variant="draw", options={"seats": 2}, bot_level="easy")
    room_start(room_id=room.pk, user=ana)
    room.refresh_from_db()
    signed_in(client, ana)
    page = client.get(reverse("table", args=[room.table_id])).content.decode()
    back = reverse("room-of-table", args=[room.table_id])
    assert f'"room": "{back}"' in page
    response = client.get(back)
    assert response.status_code == 302
    assert response["Location"] == reverse("room", args=[room.pk])


def test_a_practice_table_page_has_no_room(client, make_user):
    from games.services import table_practice_create

    ana = make_user("ana")
    table = table_practice_create(
        user=ana, variant="draw", options={"seats": 2}, bot_levels=["easy"]
    )
    page = signed_in(client, ana).get(reverse("table", args=[table.pk])).content
    assert b'"room": null' in page
