"""A server error frame arrives in the connection's language: the language cookie
of the handshake, else its Accept-Language."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.utils import translation

from config.asgi import application
from tests.support import session_cookie, tables

pytestmark = pytest.mark.django_db(transaction=True)

ENGLISH = "Unknown frame type."


async def error_text(table_id: int, user, **language: str) -> str:
    cookie = await database_sync_to_async(session_cookie)(user)
    if "cookie" in language:
        cookie += f"; {settings.LANGUAGE_COOKIE_NAME}={language['cookie']}"
    headers = [(b"origin", b"http://testserver"), (b"cookie", cookie.encode())]
    if "accept" in language:
        headers.append((b"accept-language", language["accept"].encode()))
    comm = WebsocketCommunicator(
        application, f"/ws/tables/{table_id}/", headers=headers
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected
    try:
        await comm.send_json_to({"type": "dance"})
        while True:
            frame = await comm.receive_json_from(timeout=10)
            if frame["type"] == "error":
                assert frame["code"] == "unknown_type"
                return str(frame["message"])
    finally:
        await comm.disconnect()


def in_language(language: str) -> str:
    with translation.override(language):
        return translation.gettext(ENGLISH)


@pytest.mark.parametrize("language", ["es", "ca", "pl", "it"])
async def test_error_frame_in_the_cookies_language(make_user, language):
    table, user, _ = await database_sync_to_async(tables.two_human_table)(make_user)
    message = await error_text(table.pk, user, cookie=language, accept="en")
    assert message == in_language(language)
    assert message != ENGLISH


async def test_error_frame_in_the_browsers_language(make_user):
    table, user, _ = await database_sync_to_async(tables.two_human_table)(make_user)
    assert await error_text(table.pk, user, accept="pl-PL,pl;q=0.9") == in_language(
        "pl"
    )
    assert await error_text(table.pk, user) == ENGLISH
