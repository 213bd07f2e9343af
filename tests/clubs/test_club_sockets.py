"""A club's chat over real presence sockets: a member's line reaches another
member's page; a stranger's frame is refused on their own socket, in words."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from clubs import services
from tests.accounts.test_presence import make, open_socket
from tests.friends.test_friend_sockets import frames_until

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_club_line_reaches_a_member_and_a_stranger_is_refused(make_user):
    ana, ben, eve = [await make(make_user, n) for n in ("ana", "ben", "eve")]

    def found():
        club = services.club_create(
            user=ana, name="Harbour", description="", language="en", open=True
        )
        services.club_join(user=ben, slug=club.slug)
        return club

    club = await database_sync_to_async(found)()
    ana_page, ok = await open_socket(ana)
    assert ok
    ben_page, ok = await open_socket(ben)
    assert ok
    eve_page, ok = await open_socket(eve)
    assert ok
    await frames_until(ben_page, "online")
    await ana_page.send_json_to({"type": "club_chat", "club": club.pk, "text": "hi"})
    frame = await frames_until(ben_page, "club_chat")
    assert {k: frame[k] for k in ("club", "from", "text")} == {
        "club": club.pk,
        "from": "ana",
        "text": "hi",
    }
    await eve_page.send_json_to({"type": "club_chat", "club": club.pk, "text": "hi"})
    error = await frames_until(eve_page, "error")
    assert error == {
        "type": "error",
        "code": "not_member",
        "message": "You can chat only in a club you belong to.",
    }
    for page in (ana_page, ben_page, eve_page):
        await page.disconnect()
