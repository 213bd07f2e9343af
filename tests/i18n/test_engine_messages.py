"""An engine refusal reaches the player whole in their language: its template and
every name inside it (tiles, ends, lists of tiles) come from the shipped catalogs."""

from __future__ import annotations

from django.utils import translation

from games.engine.messages import end_name, text, text_list, tile_name
from games.engine.rules import _must_open_with
from games.engine.tiles import tile_id


def rendered(message, language: str) -> str:
    with translation.override(language):
        return message.render(translation.gettext)


def test_a_list_of_tiles_is_named_in_the_players_language():
    refusal = _must_open_with((tile_id(6, 6), tile_id(5, 5), tile_id(3, 4)))
    english = rendered(refusal.message, "en")
    assert english == (
        "This hand must open with one of these tiles: double six, double five, 3–4."
    )
    spanish = rendered(refusal.message, "es")
    assert "doble seis, doble cinco, 3–4" in spanish
    assert "double" not in spanish and "This hand" not in spanish


def test_names_inside_names_are_translated():
    side = end_name("5-5:l")
    assert rendered(side, "en") == "left side of the double five"
    assert "double" not in rendered(side, "ca") and "cinc" in rendered(side, "ca")
    assert rendered(text_list([tile_name(tile_id(0, 0)), "2–3"]), "it") == (
        f"{rendered(text('double blank'), 'it')}, 2–3"
    )
