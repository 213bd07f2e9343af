"""The rules guide: its pages, its figures from the engine, its drawings, its links."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language_info

from games import engine
from games.engine.tiles import set_size
from games.engine.variants import deal_size
from games.guide.data import GUIDE
from games.guide.shapes import centre_picture, line_picture
from games.guide.svg import picture_svg
from games.names import variant_title
from games.services import table_practice_create

pytestmark = pytest.mark.django_db

SECTIONS = ("what", "deal", "play", "score", "example")


@pytest.fixture(autouse=True)
def no_queue(queued):
    """Timed jobs of the tables made here are recorded, not sent to a broker."""
    return queued


def page(client, *args: str) -> str:
    name = "rules-variant" if args else "rules"
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def test_the_guide_covers_every_variant_of_the_engine():
    assert list(GUIDE) == list(engine.VARIANTS)


def test_index_lists_every_variant_with_its_summary_and_link(client):
    html = page(client)
    for variant, entry in GUIDE.items():
        url = reverse("rules-variant", args=[variant])
        assert f'<a href="{url}">{variant_title(variant)}</a>' in html
        assert str(entry.summary) in html
    assert 'id="how-to-play"' in html
    assert 'id="tips"' in html


def test_index_explains_the_table_controls_and_gives_tips(client):
    html = page(client)
    for words in ("Draw", "Pass (knock)", "Claim", "Muggins", "arrow keys", "Escape"):
        assert words in html
    assert "Shed your heavy tiles early" in html
    assert "count before you play" in html


@pytest.mark.parametrize("variant", list(engine.VARIANTS))
def test_each_variant_page_has_the_sections_and_a_drawn_example(client, variant):
    html = page(client, variant)
    for section in SECTIONS:
        assert f'<section id="{section}"' in html
    figure = html[html.index('<figure class="rules-example">') :]
    assert figure.lstrip().split(">", 1)[1].lstrip().startswith("<svg")
    assert "<rect" in figure and "</svg>" in figure
    assert f'<title id="layout-{variant.replace("_", "-")}">' in figure
    assert f"<h1>{variant_title(variant)}</h1>" in html


def cell(
    html: str, *, set_max: int, seats: int, choice: int | None = None
) -> tuple[int, int]:
    """(tiles each, tiles left) for a set and seat count in the first deal table."""
    table = html[html.index('<table class="list rules-deal"') :]
    table = table[: table.index("</table>")]
    row_attr = f'data-set="{set_max}"' + (f' data-choice="{choice}"' if choice else "")
    row = table[table.index(f"<tr {row_attr}") :]
    row = row[: row.index("</tr>")]
    found = re.search(
        rf'data-seats="{seats}" data-tiles="(\d+)" data-left="(\d+)"', row
    )
    assert found, row
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize(
    ("variant", "set_max", "seats", "choice"),
    [
        ("block", 9, 4, None),
        ("block", 6, 2, None),
        ("draw", 6, 5, None),
        ("cross", 12, 4, None),
        ("catalan", 6, 4, 7),
        ("catalan", 6, 3, 5),
        ("spider", 6, 2, None),
    ],
)
def test_deal_figures_are_the_engines(client, variant, set_max, seats, choice):
    html = page(client, variant)
    tiles, left = cell(html, set_max=set_max, seats=seats, choice=choice)
    expected = deal_size(variant, set_max, seats, "standard", choice or 0)
    assert tiles == expected
    assert left == set_size(set_max) - expected * seats


def test_block_shows_the_house_deal_and_marks_what_is_not_played(client):
    html = page(client, "block")
    house = html[html.index('data-deal="002"') :]
    house = house[: house.index("</table>")]
    assert "House rule" in house
    row = house[house.index('<tr data-set="6"') :]
    row = row[: row.index("</tr>")]
    # Five players with seven tiles each would need 35 of the 28 tiles.
    assert row.count("data-tiles=") == 3
    assert "—" in row


def test_unknown_variant_is_the_sites_404(client):
    response = client.get("/rules/no-such-game/")
    assert response.status_code == 404
    assert "404.html" in [t.name for t in response.templates]


def test_play_page_links_each_variants_guide(client, make_user):
    client.force_login(make_user("alice"))
    html = client.get(reverse("play")).content.decode()
    for variant in engine.VARIANTS:
        section = html[html.index(f'<section class="rule" data-variant="{variant}"') :]
        section = section[: section.index("</section>")]
        assert f'href="{reverse("rules-variant", args=[variant])}"' in section


@pytest.mark.parametrize("variant", ["draw", "spider"])
def test_table_page_help_opens_its_variants_guide(client, make_user, variant):
    user = make_user("alice")
    client.force_login(user)
    table = table_practice_create(user=user, variant=variant, bot_levels=["easy"])
    html = client.get(reverse("table", args=[table.pk])).content.decode()
    link = re.search(
        r'<a href="([^"]+)" id="table-help" target="_blank" rel="noopener">', html
    )
    assert link and link.group(1) == reverse("rules-variant", args=[variant])


def test_footer_links_the_guide(client):
    html = client.get(reverse("home")).content.decode()
    footer = html[html.index('<footer class="footer">') :]
    assert f'<a href="{reverse("rules")}" id="footer-rules">' in footer


def test_svg_escapes_its_title_and_id():
    svg = picture_svg(
        line_picture(((1, 2),), opening=0),
        title='<script>alert("x")</script> & co',
        ident='x" onload="evil',
    )
    assert "<script>" not in svg
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co" in svg
    assert 'id="xonloadevil"' in svg
    assert 'aria-labelledby="xonloadevil"' in svg


def test_svg_draws_pips_up_to_six_and_digits_above():
    six = picture_svg(line_picture(((6, 6),), opening=0), title="t", ident="a")
    assert six.count("<circle") == 12
    high = picture_svg(line_picture(((9, 12),), opening=0), title="t", ident="b")
    assert high.count("<circle") == 0
    assert ">9</text>" in high and ">12</text>" in high
    blank = picture_svg(line_picture(((0, 0),), opening=0), title="t", ident="c")
    assert blank.count("<circle") == 0


def test_pictures_mark_the_open_ends():
    line = line_picture(((4, 6), (6, 6), (6, 3), (3, 1)), opening=1)
    assert sorted(m.value for m in line.markers) == [1, 4]
    assert [m.x < 0 for m in line.markers] == [True, False]
    spider = centre_picture(1, {"e": ((1, 3), (3, 3)), "w": ()}, closed=frozenset("e"))
    assert {(m.value, m.closed) for m in spider.markers} == {(3, True), (1, False)}


def test_guide_is_public(client):
    assert client.get(reverse("rules")).status_code == 200
    assert client.get(reverse("rules-variant", args=["fives"])).status_code == 200


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_guide_renders_in_every_language(client, language):
    # Each language's pages at their own addresses (/es/rules/, /rules/ for English).
    with translation.override(language):
        index_url = reverse("rules")
        variant_url = reverse("rules-variant", args=["catalan"])
    direction = "rtl" if get_language_info(language)["bidi"] else "ltr"
    index = client.get(index_url)
    assert index.status_code == 200
    assert f'<html lang="{language}" dir="{direction}">' in index.content.decode()
    variant = client.get(variant_url)
    assert variant.status_code == 200
    assert "<svg" in variant.content.decode()
