"""Server texts reach players in their language, with words and not ids.

The shipped catalogs are built elsewhere; these tests make a small catalog of
their own (a ``.mo`` file written here, put on ``LOCALE_PATHS``) so that a text
can be seen translated: the engine's refusals (translated at the table service,
tile and end names too), a socket's error frame in the connection's language,
a wallet line, and allauth's e-mail in the recipient's profile language.
"""

from __future__ import annotations

import ast
import json
import shutil
import struct
import subprocess
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core import mail
from django.test import override_settings
from django.utils import translation

from accounts.models import Profile
from config.asgi import application
from economy.history_words import arena_memo, league_memo, memo_words, reward_memo
from economy.models import Transaction
from economy.templatetags.economy import coins, duration_words
from games import engine
from games.engine import Action, IllegalAction, apply
from games.engine.tiles import tile_id
from games.errors import TableError
from games.services import table_act
from tests.support import session_cookie
from tests.support.positions import play, rig
from tests.support.tables import two_human_table

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "games" / "engine"

NUMBERS = ("blank", "one", "two", "three", "four", "five", "six")
SPANISH_NUMBERS = ("blanco", "uno", "dos", "tres", "cuatro", "cinco", "seis")
SPANISH = {
    **{
        f"double {en}": f"doble {es}"
        for en, es in zip(NUMBERS, SPANISH_NUMBERS, strict=True)
    },
    "You do not hold the %(tile)s.": "No tienes la ficha %(tile)s.",
    "The %(end)s is closed.": "El %(end)s está cerrado.",
    "north arm": "brazo norte",
    "Send JSON text frames, not binary ones.": "Envía marcos de texto JSON.",
    "table reward": "premio de mesa",
    "%(mode)s, place %(position)s": "%(mode)s, puesto %(position)s",
    "arena %(arena)s, final rank %(rank)s": "arena %(arena)s, puesto final %(rank)s",
    "online table": "mesa en línea",
}


def _mo_bytes(messages: dict[str, str]) -> bytes:
    """A GNU ``.mo`` catalog of ``messages`` (the format ``msgfmt`` writes)."""
    catalog = {"": "Content-Type: text/plain; charset=UTF-8\n", **messages}
    keys = sorted(catalog)
    ids = b""
    strs = b""
    offsets = []
    for key in keys:
        k, v = key.encode(), catalog[key].encode()
        offsets.append((len(ids), len(k), len(strs), len(v)))
        ids += k + b"\0"
        strs += v + b"\0"
    start = 7 * 4 + 16 * len(keys)
    id_table = b"".join(struct.pack("<2I", n, start + o) for o, n, _, _ in offsets)
    str_start = start + len(ids)
    str_table = b"".join(struct.pack("<2I", n, str_start + o) for _, _, o, n in offsets)
    header = struct.pack(
        "<7I", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0
    )
    return header + id_table + str_table + ids + strs


@pytest.fixture
def spanish(tmp_path: Path):
    """A Spanish catalog holding ``SPANISH``, active on ``LOCALE_PATHS``."""
    folder = tmp_path / "locale" / "es" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.mo").write_bytes(_mo_bytes(SPANISH))
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
        yield


def _refusal(state: engine.State, seat: int, action: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, action)
    return info.value


def _spider_with_a_closed_north_arm() -> engine.State:
    hands = [[(1, 1), (2, 2), (4, 5)], [(1, 2), (2, 6), (1, 4), (1, 3)]]
    s = play(rig("spider", hands, forced=(1, 1)), 0, (1, 1), "root")
    s = play(play(s, 1, (1, 2), "n"), 0, (2, 2), "n")
    return apply(s, 0, Action.close(["n"]))


# ---------------------------------------------------------------- the engine


def _marked_templates() -> set[str]:
    """Every literal the engine marks with ``gettext_noop`` (or, in a context,
    ``pgettext_noop``)."""
    found = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("gettext_noop", "pgettext_noop")
            ):
                *context, arg = node.args
                assert isinstance(arg, ast.Constant), ast.unparse(node)
                assert all(isinstance(c, ast.Constant) for c in context)
                found.add(arg.value)
    return found


def _extracted_msgids() -> set[str]:
    """The msgids xgettext finds in the engine with the project's keyword set."""
    xgettext = shutil.which("xgettext")
    assert xgettext, "xgettext (Debian package gettext) is needed to extract texts"
    result = subprocess.run(
        [
            xgettext,
            "--language=Python",
            "--keyword=gettext_noop",
            "--keyword=pgettext_noop:1c,2",  # the project's makemessages adds it
            "--from-code=UTF-8",
            "--output=-",
            *sorted(str(p) for p in ENGINE.glob("*.py")),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    ids: set[str] = set()
    current: list[str] | None = None
    for line in result.stdout.splitlines():
        if line.startswith("msgid "):
            current = [json.loads(line[6:])]
        elif line.startswith('"') and current is not None:
            current.append(json.loads(line))
        elif current is not None:
            ids.add("".join(current))
            current = None
    return ids - {""}


def test_the_engine_refusals_are_marked_templates_that_extraction_finds() -> None:
    refusals = [
        _refusal(
            rig("draw", [[(6, 6), (6, 1)], [(6, 4), (0, 0)]]),
            0,
            Action.play((5, 5), "root"),
        ),
        _refusal(
            rig("draw", [[(6, 6), (6, 1)], [(6, 4), (0, 0)]]),
            0,
            Action.play((6, 6), "left"),
        ),
        _refusal(_spider_with_a_closed_north_arm(), 1, Action.play((2, 6), "n")),
        _refusal(rig("draw", [[(6, 6)], [(0, 0)]]), 0, {"type": "fly"}),
    ]
    marked = _marked_templates()
    extracted = _extracted_msgids()
    for exc in refusals:
        assert exc.template in marked, exc.template
        assert exc.template in extracted, exc.template
    assert marked <= extracted, sorted(marked - extracted)[:5]
    # Tile, end and variant names are extracted as well.
    assert {
        "double six",
        "north arm",
        "left side of the %(tile)s",
        "All Fives",
    } <= extracted


def test_player_messages_name_tiles_and_ends_in_words() -> None:
    opening = rig("draw", [[(6, 6), (6, 1)], [(6, 4), (0, 0)]], forced=(6, 6))
    texts = [
        str(_refusal(opening, 0, Action.play((6, 6), "left"))),
        str(_refusal(opening, 0, Action.play((6, 1), "root"))),
        str(_refusal(opening, 0, Action.play((5, 5), "root"))),
        str(_refusal(_spider_with_a_closed_north_arm(), 1, Action.play((2, 6), "n"))),
    ]
    assert texts == [
        "The first tile of a hand goes in the middle.",
        "This hand must open with the double six.",
        "You do not hold the double five.",
        "The north arm is closed.",
    ]
    for text in texts:
        assert "root" not in text and "'" not in text


def test_every_end_has_a_name_a_player_reads() -> None:
    assert str(engine.end_name("left")) == "left end"
    assert str(engine.end_name("w")) == "west arm"
    assert str(engine.end_name("5-5:l")) == "left side of the double five"
    assert str(engine.end_name("nonsense")) == "that end"
    assert engine.tile_name(tile_id(4, 6)) == "4\u20136"


@pytest.mark.django_db
def test_a_refused_move_is_translated_at_the_table_service(spanish, make_user) -> None:
    table, ana, ben = two_human_table(make_user, variant="draw")
    state = engine.from_json(table.state)
    seat, user = (0, ana) if engine.legal_actions(state, 0) else (1, ben)
    pips = next(n for n in range(7) if not state.hands[seat] >> tile_id(n, n) & 1)
    double = (pips, pips)
    with translation.override("es"), pytest.raises(TableError) as info:
        table_act(
            table_id=table.pk,
            user=user,
            action={"type": "play", "tile": list(double), "end": "root"},
            expected_seq=table.seq,
        )
    name = f"doble {SPANISH_NUMBERS[pips]}"
    assert info.value.code == "illegal"
    assert info.value.message == f"No tienes la ficha {name}."
    with translation.override("en"), pytest.raises(TableError) as info:
        table_act(
            table_id=table.pk,
            user=user,
            action={"type": "play", "tile": list(double), "end": "root"},
            expected_seq=table.seq,
        )
    assert info.value.message.startswith("You do not hold the double")


# ---------------------------------------------------------------- the socket


@pytest.mark.django_db(transaction=True)
async def test_an_error_frame_comes_in_the_connection_language(
    spanish, make_user
) -> None:
    table, ana, _ben = await database_sync_to_async(two_human_table)(make_user)
    cookie = await database_sync_to_async(session_cookie)(ana)
    comm = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.pk}/",
        headers=[
            (b"origin", b"http://testserver"),
            (b"cookie", cookie.encode()),
            (b"accept-language", b"es-ES,es;q=0.9,en;q=0.5"),
        ],
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected
    try:
        await comm.receive_json_from(timeout=10)  # the state
        await comm.send_to(bytes_data=b"\x00\x01")
        while True:
            frame = await comm.receive_json_from(timeout=10)
            if frame["type"] == "error":
                break
        assert frame["message"] == "Envía marcos de texto JSON."
    finally:
        await comm.disconnect()


# ---------------------------------------------------------------- the wallet


def test_wallet_lines_are_words_at_display_time(spanish) -> None:
    memo = reward_memo(mode="online", position=1)
    assert memo == "online, position 1"  # the stored audit text is unchanged
    assert memo_words(kind="reward", memo=memo) == "online table, place 1"
    assert memo_words(kind="purchase", memo="vip") == "VIP pass"
    assert memo_words(kind="correction", memo="typo in the stake") == (
        "typo in the stake"
    )
    assert memo_words(kind="reward", memo=league_memo(week="2026-11-30")) == (
        "league week of 11/30/2026"
    )
    prize = arena_memo(arena_id=12, rank=3)
    assert memo_words(kind="reward", memo=prize) == "arena 12, final rank 3"
    with translation.override("es"):
        assert memo_words(kind="reward", memo=memo) == "mesa en línea, puesto 1"
        assert memo_words(kind="reward", memo=prize) == "arena 12, puesto final 3"
        assert str(Transaction.Kind.REWARD.label) == "premio de mesa"


def test_coin_amounts_and_durations_follow_the_language() -> None:
    from datetime import timedelta

    with translation.override("en"):
        assert coins(12500) == "12,500"
        assert duration_words(timedelta(hours=24)) == "1 day"
        assert duration_words(timedelta(hours=30 * 24)) == "30 days"
        assert duration_words(timedelta(hours=5)) == "5 hours"
    with translation.override("ca"):
        assert coins(12500) == "12.500"
    with translation.override("it"):
        assert coins(-3000) == "-3.000"
    with translation.override("es"):
        assert coins(12500) == "12\xa0500"


# ---------------------------------------------------------------- e-mails


@pytest.mark.django_db
def test_allauth_mail_is_written_in_the_recipients_language(client, make_user) -> None:
    user = make_user("marta")
    Profile.objects.create(user=user, language="pl")
    with translation.override("pl"):
        polish = translation.gettext("Password Reset Email")
    assert polish != "Password Reset Email"  # allauth ships Polish
    response = client.post(
        "/accounts/password/reset/",
        {"email": user.email},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 302
    (message,) = mail.outbox
    assert polish in message.subject


@pytest.mark.django_db
def test_mail_to_an_address_without_a_choice_uses_the_asking_browser(
    client, make_user
) -> None:
    user = make_user("joan")
    with translation.override("ca"):
        catalan = translation.gettext("Password Reset Email")
    client.post(
        "/accounts/password/reset/", {"email": user.email}, HTTP_ACCEPT_LANGUAGE="ca"
    )
    (message,) = mail.outbox
    assert catalan in message.subject


# ---------------------------------------------------------------- allauth's pages


@pytest.mark.django_db
def test_the_log_in_and_sign_up_pages_use_the_sites_words(client, make_user) -> None:
    for url, heading in (
        ("/accounts/login/", "Log in"),
        ("/accounts/signup/", "Sign up"),
    ):
        page = client.get(url).content.decode()
        assert f"<h1>{heading}</h1>" in page
        assert "Sign In" not in page and "sign in" not in page.lower()
    make_user("nuria")
    response = client.post(
        "/accounts/login/",
        {"login": "nuria", "password": "a-Long-pass-42"},
        follow=True,
    )
    page = response.content.decode()
    assert "You are logged in as nuria." in page
    assert "signed in" not in page.lower()


# ---------------------------------------------------------------- table frames


@pytest.mark.django_db
def test_a_computer_seat_carries_the_parts_of_its_name(make_user) -> None:
    from games.models import Seat
    from games.payloads import seats_public
    from games.services import seat_join, table_create

    table = table_create(mode="online", variant="draw", host=None)
    seat_join(table_id=table.pk, user=make_user("ana"))
    seat_join(table_id=table.pk, bot_level="easy", simulated=True, name="Vera42")
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    ana, vera = seats_public(seats)
    assert (ana["name"], ana["bot"], ana["alias"]) == ("ana", None, None)
    assert (vera["name"], vera["bot"], vera["alias"]) == (
        "Vera42 · computer",
        "easy",
        "Vera42",
    )
