"""A replay's picture: its final layout as a 1200 × 630 PNG, drawn from the tiles
laid face up alone, cached, and served only to whoever may watch the replay."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

from games import engine
from games.engine.tiles import PAIRS, bits
from games.models import Table
from games.replays import card
from games.replays.access import replay_share_token
from games.replays.picture import FELT, Band, Board, board_png
from games.services import table_cancel, table_practice_create
from tests.support.tables import (
    drive,
    finished_pair,
    finished_practice,
    table_state,
)

pytestmark = pytest.mark.django_db


def test_the_replay_picture_is_a_card_sized_png_kept_a_long_time(
    client, make_user, queued
):
    table, _ana, _ben = finished_pair(make_user)
    response = client.get(f"/tables/{table.pk}/replay.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    control = response["Cache-Control"]
    assert "public" in control
    assert int(re.search(r"max-age=(\d+)", control).group(1)) >= 7 * 24 * 3600
    with Image.open(io.BytesIO(response.content)) as image:
        assert image.format == "PNG"
        assert image.size == (1200, 630)


def test_the_picture_is_drawn_once_then_served_from_the_cache(
    client, make_user, queued, monkeypatch
):
    table, _ana, _ben = finished_pair(make_user)
    drawn: list[Board] = []

    def counting(board: Board) -> bytes:
        drawn.append(board)
        return board_png(board)

    monkeypatch.setattr(card, "board_png", counting)
    first = client.get(f"/tables/{table.pk}/replay.png")
    second = client.get(f"/tables/{table.pk}/replay.png")
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert len(drawn) == 1


def _shown(state: engine.State) -> set[tuple[int, int]]:
    """The tiles laid on the table in the state's hand."""
    return {PAIRS[e[2]] for e in state.log if e[0] == "play"}


def _hidden(state: engine.State) -> set[tuple[int, int]]:
    """The tiles in the hands and the stock."""
    held = {PAIRS[t] for mask in state.hands for t in bits(mask)}
    return held | {PAIRS[t] for t in state.stock}


def _drawn_board(client, monkeypatch, url: str, **params) -> Board:
    given: list[Board] = []

    def capture(board: Board) -> bytes:
        given.append(board)
        return board_png(board)

    monkeypatch.setattr(card, "board_png", capture)
    assert client.get(url, params).status_code == 200
    assert len(given) == 1
    return given[0]


def test_the_picture_is_drawn_from_the_laid_tiles_alone(
    client, make_user, queued, monkeypatch
):
    table, _ana, _ben = finished_pair(make_user)
    final = table_state(table.pk)
    # The match ended with tiles still in a hand: none of them may be drawn.
    assert any(final.hands)
    board = _drawn_board(client, monkeypatch, f"/tables/{table.pk}/replay.png")
    assert board.tiles() == _shown(final)
    assert board.tiles()
    assert not board.tiles() & _hidden(final)


def test_an_abandoned_hands_picture_holds_no_tile_of_its_hands_or_stock(
    client, make_user, queued, monkeypatch
):
    owner = make_user("owner")
    table = table_practice_create(
        user=owner, variant="draw", bot_levels=["easy"], bot_speed="instant"
    )

    def abandon_after_a_few_plays(current: Table) -> None:
        if current.state and engine.from_json(current.state).played >= 4:
            table_cancel(table_id=current.pk, reason="idle")

    drive(
        table.pk,
        {0: owner},
        rng=random.Random(2),
        on_step=abandon_after_a_few_plays,
    )
    final = table_state(table.pk)
    assert Table.objects.get(pk=table.pk).status == Table.Status.CANCELLED
    # Mid-hand: both hands and the stock still hold tiles never shown.
    assert all(final.hands) and final.stock
    token = replay_share_token(table)
    board = _drawn_board(
        client, monkeypatch, f"/tables/{table.pk}/replay.png", share=token
    )
    assert board.tiles() == _shown(final)
    assert not board.tiles() & _hidden(final)


def test_a_replay_nobody_may_watch_has_no_picture(client, make_user, queued):
    owner, stranger = make_user("owner"), make_user("stranger")
    practice = finished_practice(owner)
    url = f"/tables/{practice.pk}/replay.png"
    assert client.get(url).status_code == 404
    assert client.get(url, {"share": "forged"}).status_code == 404
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    client.force_login(owner)
    mine = client.get(url)
    assert mine.status_code == 200
    assert "private" in mine["Cache-Control"]
    client.logout()
    # A friend room's replay is its members'.
    room, ana, _ben = finished_pair(make_user, mode=Table.Mode.FRIEND)
    assert client.get(f"/tables/{room.pk}/replay.png").status_code == 404
    client.force_login(ana)
    assert client.get(f"/tables/{room.pk}/replay.png").status_code == 200
    # A table still in play shows no picture, even to its player.
    live = table_practice_create(user=owner, variant="draw", bot_levels=["easy"])
    client.force_login(owner)
    assert client.get(f"/tables/{live.pk}/replay.png").status_code == 404
    assert client.get("/tables/999999/replay.png").status_code == 404


# --- the drawing itself


def _pixels(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.size == (1200, 630)
    return image.convert("RGB")


def test_an_empty_board_is_bare_felt():
    image = _pixels(board_png(Board()))
    assert image.getcolors() == [(1200 * 630, FELT)]


def test_tiles_are_drawn_ivory_on_the_felt():
    board = Board(bands=(Band(head=None, tiles=((6, 6),)),), root=(6, 6))
    image = _pixels(board_png(board))
    ivory = sum(
        count
        for count, colour in image.getcolors(1200 * 630)
        if min(colour) > 240  # near white
    )
    assert ivory > 10_000
    assert image.getpixel((5, 5)) == FELT


@pytest.mark.parametrize(
    "board",
    [
        # A double-twelve line of every tile: the most a layout holds.
        Board(
            bands=(
                Band(
                    head=None,
                    tiles=tuple((a, b) for a in range(13) for b in range(a, 13)),
                ),
            ),
            root=(0, 0),
        ),
        # Grand Cross: many arms, each a few tiles.
        Board(
            bands=tuple(
                Band(head=(d, d), tiles=((d, (d + k) % 7), ((d + k) % 7, 3)))
                for d in range(7)
                for k in (1, 2)
            ),
            root=(6, 6),
        ),
    ],
)
def test_the_largest_layouts_fit_the_picture(board):
    image = _pixels(board_png(board))
    # Nothing is cut at the edges: the border stays felt.
    for x in range(0, 1200, 7):
        assert image.getpixel((x, 0)) == FELT
        assert image.getpixel((x, 629)) == FELT
    for y in range(0, 630, 7):
        assert image.getpixel((0, y)) == FELT
        assert image.getpixel((1199, y)) == FELT
