"""The installed app: the web app manifest (names, start, icons that exist at their
sizes)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import resolve, reverse
from PIL import Image

pytestmark = pytest.mark.django_db


def manifest(client: Client) -> dict[str, Any]:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert not response.cookies, response.cookies
    return dict(response.json())


def static_path(url: str) -> Path:
    assert url.startswith(settings.STATIC_URL), url
    found = finders.find(url.removeprefix(settings.STATIC_URL))
    assert isinstance(found, str), url
    return Path(found)


def test_the_manifest_makes_the_site_installable(make_user):
    signed_in = Client()
    signed_in.force_login(make_user())
    data = manifest(Client())
    assert manifest(signed_in) == data
    assert data["name"] == data["short_name"] == "Dominoes"
    assert data["start_url"] == "/play/" and data["scope"] == "/"
    assert data["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", data["theme_color"])
    assert data["lang"] == "en" and data["dir"] == "ltr"
    assert resolve(data["start_url"]).url_name == "play"


def test_the_manifest_speaks_the_readers_language():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ar"
    data = manifest(client)
    assert (data["lang"], data["dir"]) == ("ar", "rtl")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    assert manifest(client)["lang"] == "es"


def test_the_icons_are_pngs_of_their_sizes_any_and_maskable():
    icons = manifest(Client())["icons"]
    shapes = {(icon["sizes"], icon["purpose"]) for icon in icons}
    for size in ("192x192", "512x512"):
        assert {(size, "any"), (size, "maskable")} <= shapes
    for icon in icons:
        assert icon["type"] == "image/png"
        with Image.open(static_path(icon["src"])) as picture:
            assert picture.format == "PNG"
            assert f"{picture.width}x{picture.height}" == icon["sizes"]
            if icon["purpose"] == "maskable":
                # Felt to every edge: a mask of any shape cuts no hole in it.
                assert picture.convert("RGBA").getextrema()[3] == (255, 255)
            else:
                # A rounded square: its corners are clear.
                assert picture.convert("RGBA").getpixel((0, 0))[3] == 0


def test_every_page_links_the_manifest_its_colour_and_a_touch_icon():
    page = Client().get(reverse("home")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    colour = re.search(r'<meta name="theme-color" content="([^"]+)">', page)
    assert colour and colour.group(1) == manifest(Client())["theme_color"]
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page)
    assert touch
    with Image.open(static_path(touch.group(1))) as picture:
        assert picture.size == (180, 180)
