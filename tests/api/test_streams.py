"""The streams' refusals, and a game stream's first line (the whole live match is
tests/api/test_live.py's)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from api.tokens import token_create
from games.models import Table
from tests.support.tables import two_human_table

pytestmark = pytest.mark.django_db(transaction=True)


def _auth(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


async def test_streams_refuse_in_words(async_client, make_user):
    table, ana, _ = await sync_to_async(two_human_table)(
        make_user, mode=Table.Mode.ONLINE
    )
    stranger = await sync_to_async(make_user)()
    _, reader = await sync_to_async(token_create)(owner=ana, name="r", scopes=["read"])
    _, other = await sync_to_async(token_create)(
        owner=stranger, name="p", scopes=["play"]
    )
    path = f"/api/games/{table.pk}/stream"
    nobody = await async_client.get(path)
    assert nobody.status_code == 401
    assert "Authorization" in json.loads(nobody.content)["error"]
    read_only = await async_client.get(path, headers=_auth(reader))
    assert read_only.status_code == 403
    not_seated = await async_client.get(path, headers=_auth(other))
    assert not_seated.status_code == 404
    in_query = await async_client.get(f"/api/stream/events?token={other}")
    assert in_query.status_code == 400


async def test_a_game_stream_starts_with_the_seats_whole_state(async_client, make_user):
    table, ana, _ = await sync_to_async(two_human_table)(
        make_user, mode=Table.Mode.ONLINE
    )
    _, secret = await sync_to_async(token_create)(owner=ana, name="p", scopes=["play"])
    response = await async_client.get(
        f"/api/games/{table.pk}/stream", headers=_auth(secret)
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    lines = aiter(response.streaming_content)
    first = json.loads(await anext(lines))
    assert first["type"] == "state" and first["you"] == 0
    # An open stream connects the seat, as an open table page does: a new seq.
    assert first["seq"] == table.seq + 1
    assert first["seats"][0]["connected"] is True
    await lines.aclose()
