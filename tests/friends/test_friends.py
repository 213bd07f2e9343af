"""Friend requests and friendships: every path, every refusal (nothing changes), a
block's effect, the list with online and playing state, the one-click room."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from friends import services
from friends.errors import FriendError
from friends.models import FriendRequest, Friendship
from friends.selectors import friends_of, friendship_state
from games.models import Table
from matchmaking.models import Room, RoomInvitation
from matchmaking.pools.conduct import block_ensure

pytestmark = pytest.mark.django_db


def snapshot():
    return (
        sorted(FriendRequest.objects.values_list("sender", "recipient", "status")),
        sorted(Friendship.objects.values_list("low", "high")),
    )


def refused(code, fn, **kwargs):
    before = snapshot()
    with pytest.raises(FriendError) as err:
        fn(**kwargs)
    assert err.value.code == code
    assert err.value.message and "{" not in err.value.message
    assert snapshot() == before
    return err.value


def test_a_request_answered_each_way(make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    asked = services.friend_request_send(sender=ana, username="BEN ")
    assert friendship_state(user=ana, other=ben) == "sent"
    assert friendship_state(user=ben, other=ana) == "received"
    services.friend_request_accept(request_id=asked.pk, user=ben)
    assert friendship_state(user=ana, other=ben) == "friends"
    assert [r.user.username for r in friends_of(user=ben)] == ["ana"]
    # Declined and withdrawn requests leave no friendship.
    r = services.friend_request_send(sender=cy, username="ana")
    services.friend_request_decline(request_id=r.pk, user=ana)
    r = services.friend_request_send(sender=cy, username="ben")
    services.friend_request_cancel(request_id=r.pk, user=cy)
    assert friendship_state(user=cy, other=ana) == "none"
    assert friendship_state(user=cy, other=ben) == "none"
    services.friend_remove(user=ana, username="ben")
    assert friendship_state(user=ana, other=ben) == "none"


def test_asking_someone_who_asked_you_makes_you_friends(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    services.friend_request_send(sender=ana, username="ben")
    made = services.friend_request_send(sender=ben, username="ana")
    assert isinstance(made, Friendship)
    assert not FriendRequest.objects.filter(status="pending").exists()


def test_every_bad_request_is_refused_and_changes_nothing(make_user, settings):
    ana, ben = make_user("ana"), make_user("ben")
    make_user("gone", is_active=False)
    send = services.friend_request_send
    refused("no_name", send, sender=ana, username="  ")
    refused("unknown", send, sender=ana, username="nobody")
    refused("unknown", send, sender=ana, username="gone")
    refused("self", send, sender=ana, username="ANA")
    asked = send(sender=ana, username="ben")
    refused("pending", send, sender=ana, username="ben")
    # Only its recipient answers a request; only its sender withdraws it.
    refused("gone", services.friend_request_accept, request_id=asked.pk, user=ana)
    refused("gone", services.friend_request_cancel, request_id=asked.pk, user=ben)
    refused("gone", services.friend_request_accept, request_id=999999, user=ben)
    services.friend_request_accept(request_id=asked.pk, user=ben)
    refused("gone", services.friend_request_decline, request_id=asked.pk, user=ben)
    refused("already", send, sender=ben, username="ana")
    refused("unknown", services.friend_remove, user=ana, username="nobody")
    services.friend_remove(user=ana, username="ben")
    refused("not_friends", services.friend_remove, user=ana, username="ben")
    settings.FRIEND_REQUESTS_PER_DAY = 2
    for name in ("c1", "c2", "c3"):
        make_user(name)
    send(sender=ana, username="c1")
    err = refused("rate", send, sender=ana, username="c2")
    assert "day" in err.message


def test_a_block_ends_the_friendship_and_is_not_revealed(make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    services.friend_request_accept(
        request_id=services.friend_request_send(sender=ana, username="ben").pk, user=ben
    )
    services.friend_request_send(sender=cy, username="ben")
    block_ensure(blocker_id=ben.pk, blocked_id=ana.pk)
    assert friendship_state(user=ana, other=ben) == "none"
    # Ana is told what she would be told of a name that does not exist.
    unknown = refused(
        "unknown", services.friend_request_send, sender=ana, username="nobody"
    )
    blocked = refused(
        "unknown", services.friend_request_send, sender=ana, username="ben"
    )
    assert blocked.message == unknown.message
    refused("blocked", services.friend_request_send, sender=ben, username="ana")
    # Cy's request to Ben is untouched by a block between others; blocking her
    # closes it.
    assert friendship_state(user=cy, other=ben) == "sent"
    block_ensure(blocker_id=ben.pk, blocked_id=cy.pk)
    assert friendship_state(user=cy, other=ben) == "none"


def test_the_list_shows_who_is_online_and_where_they_play(client, make_user):
    from accounts.presence import presence_connect
    from games.services import table_practice_create
    from tests.support.tables import two_human_table

    table, ana, ben = two_human_table(make_user, mode=Table.Mode.ONLINE)
    zoe, dan = make_user("zoe"), make_user("dan")
    for friend in (ana, ben, dan):
        services.friend_request_accept(
            request_id=services.friend_request_send(
                sender=zoe, username=friend.username
            ).pk,
            user=friend,
        )
    table_practice_create(user=dan, variant="draw", bot_levels=["easy"])
    presence_connect(user_id=ben.pk, channel_name="ben-page")
    rows = {r.user.username: r for r in friends_of(user=zoe)}
    assert rows["ben"].online and not rows["ana"].online
    assert rows["ana"].table_id == table.pk and rows["ana"].watchable
    assert rows["dan"].table_id is not None and not rows["dan"].watchable
    client.force_login(zoe)
    body = client.get(reverse("friends")).content.decode()
    assert body.index('data-friend="ben"') < body.index('data-friend="ana"')
    assert f'href="/tables/{table.pk}/"' in body
    # Nobody else's friends appear; a stranger's page lists none.
    client.force_login(make_user("eve"))
    body = client.get(reverse("friends")).content.decode()
    assert "data-friend=" not in body


def test_the_pages_send_answer_and_invite(client, make_user):
    ana, ben = make_user("ana"), make_user("ben")
    client.force_login(ana)
    profile = reverse("player-profile", args=["ben"])
    assert "Add ben as a friend" in client.get(profile).content.decode()
    resp = client.post(
        reverse("friend-add"), {"username": "ben", "next": profile}, follow=True
    )
    assert resp.redirect_chain[-1][0] == profile
    assert "Friend request sent." in resp.content.decode()
    # A "next" off the site is ignored.
    resp = client.post(
        reverse("friend-add"), {"username": "ben", "next": "https://evil.example/"}
    )
    assert resp["Location"] == reverse("friends")
    client.force_login(ben)
    assert 'id="friend-request-count">1<' in client.get("/").content.decode()
    asked = FriendRequest.objects.get(sender=ana)
    resp = client.post(reverse("friend-accept", args=[asked.pk]), follow=True)
    assert "You are now friends." in resp.content.decode()
    resp = client.post(reverse("friend-invite"), {"username": "ana"}, follow=True)
    room = Room.objects.get(host=ben)
    assert resp.redirect_chain[-1][0] == reverse("room", args=[room.pk])
    assert RoomInvitation.objects.filter(room=room, invitee=ana).exists()
    # Only friends are invited from the list.
    make_user("cy")
    resp = client.post(reverse("friend-invite"), {"username": "cy"}, follow=True)
    assert "only your friends" in resp.content.decode()
    assert Room.objects.filter(host=ben).count() == 1
    assert client.get(reverse("friend-add")).status_code == 405


def test_presence_changes_reach_friends_only(make_user, monkeypatch):
    from accounts.signals import presence_changed
    from friends import notify

    sent = []
    monkeypatch.setattr(notify.outbox, "notify", lambda batch: sent.extend(batch))
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    services.friend_request_accept(
        request_id=services.friend_request_send(sender=ana, username="ben").pk, user=ben
    )
    sent.clear()
    presence_changed.send(sender=None, user_id=ana.pk, name="ana", online=True)
    assert sent == [
        (
            f"user.{ben.pk}",
            {
                "type": "user.push",
                "frame": {"type": "friend", "name": "ana", "online": True},
            },
        )
    ]
    sent.clear()
    presence_changed.send(sender=None, user_id=cy.pk, name="cy", online=True)
    assert sent == []


def test_the_watch_list_pins_friends_and_hides_private_tables(client, make_user):
    from games.services import table_practice_create
    from matchmaking.pools.models import Rating
    from tests.support.tables import two_human_table

    strong, ana, ben = two_human_table(make_user, mode=Table.Mode.ONLINE)
    Rating.objects.create(user=ana, variant="draw", mu=40, sigma=2, tables=30)
    room, cy, dan = two_human_table(
        _renamed(make_user, "cy", "dan"), mode=Table.Mode.FRIEND
    )
    weak, eve, fay = two_human_table(
        _renamed(make_user, "eve", "fay"), mode=Table.Mode.ONLINE
    )
    zoe = make_user("zoe")
    table_practice_create(user=zoe, variant="draw", bot_levels=["easy"])
    services.friend_request_accept(
        request_id=services.friend_request_send(sender=zoe, username="fay").pk, user=fay
    )
    client.force_login(zoe)
    body = client.get(reverse("watch")).content.decode()
    listed = [int(n) for n in re.findall(r'data-table="(\d+)"', body)]
    assert listed == [weak.pk, strong.pk]  # Fay's table pinned, then the strongest
    assert room.pk not in listed


def _renamed(make_user, first, second):
    names = iter((first, second))

    def make(name=None, **kw):
        return make_user(next(names), **kw)

    return make
