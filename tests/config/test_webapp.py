"""The installed app: the web app manifest (names, start, icons that exist at their
sizes) and the service worker (served from the root scope, the same for everyone,
keeping only public addresses, in a cache named by the static files' version)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import resolve, reverse
from PIL import Image

from config import webapp
from config.crawlers import PRIVATE_PREFIXES
from tests.support.offline_runtime import no_offline_runtime, offline_runtime

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
    register = re.search(r'<script type="module" src="([^"]+sw-register\.js)">', page)
    assert register and static_path(register.group(1)).is_file()


# ------------------------------------------------------------- the service worker


def worker(client: Client) -> tuple[Any, str, dict[str, Any]]:
    response = client.get("/sw.js")
    assert response.status_code == 200
    script = response.content.decode()
    found = re.search(r"^const CONFIG = (.*);$", script, re.MULTILINE)
    assert found, "no CONFIG line"
    return response, script, json.loads(found.group(1))


def kept_addresses(
    config: dict[str, Any], languages: tuple[str, ...] | None = None
) -> list[str]:
    """Every address the worker may put in its cache (its rules guide in
    ``languages`` only, if given)."""
    return [
        *config["pages"].values(),
        *config["shell"],
        *config["runtime"],
        *config["catalogs"].values(),
        *(
            url
            for code, urls in config["rules"].items()
            if languages is None or code in languages
            for url in urls
        ),
    ]


def test_the_worker_is_served_for_the_whole_site_with_no_cookie(make_user):
    user = make_user()
    signed_in = Client()
    signed_in.force_login(user)
    response, script, _config = worker(Client())
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert not response.cookies
    assert reverse("service-worker") == "/sw.js"
    theirs, their_script, _ = worker(signed_in)
    assert not theirs.cookies
    # The same script for everyone: nothing of the reader in it.
    assert their_script == script and user.username not in script


def test_the_worker_answers_only_gets_of_this_site_and_names_its_cache():
    _response, script, config = worker(Client())
    assert 'if (request.method !== "GET") return;' in script
    assert "if (url.origin !== self.location.origin) return;" in script
    assert "const CACHE = PREFIX + CONFIG.version;" in script
    # A new worker deletes every older cache of the shell when it takes over.
    assert "name.startsWith(PREFIX) && name !== CACHE" in script
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])


def test_the_worker_keeps_no_private_address(make_user, tmp_path):
    """Every address on its lists is public: a signed-out reader gets it (no
    sign-in page), none is under a private prefix but the offline game's own
    pages, and those are the same for every reader and set no cookie."""
    user = make_user()
    signed_in = Client()
    signed_in.force_login(user)
    with offline_runtime(tmp_path):
        _response, _script, config = worker(Client())
        codes = [code for code, _name in settings.LANGUAGES]
        assert set(config["catalogs"]) == set(config["rules"]) == set(codes)
        for code, urls in config["rules"].items():
            assert len(urls) == len(config["rules"]["en"])
            assert code == "en" or all(url.startswith(f"/{code}/") for url in urls)
        addresses = kept_addresses(config, ("en", "es", "ar"))
        assert addresses
        for url in addresses:
            if url.startswith(settings.STATIC_URL):
                assert static_path(url).is_file(), url
                continue
            anonymous = Client().get(url)
            assert anonymous.status_code == 200, url
            assert (
                not url.startswith(PRIVATE_PREFIXES) or url in config["pages"].values()
            ), url
        for url in (config["pages"]["offline"], config["pages"]["notice"]):
            mine = signed_in.get(url)
            assert not mine.cookies and user.username not in mine.content.decode()
            assert "csrfmiddlewaretoken" not in mine.content.decode()
            assert mine.content == Client().get(url).content, url
    # The Play page, where the installed app starts, is never kept: offline the
    # worker answers it with the offline game.
    assert config["play"] == "/play/"
    assert "/play/" not in kept_addresses(config)


def test_the_offline_pages_script_and_styles_are_all_kept(tmp_path):
    """Whatever the offline page loads from the static files is on the lists."""
    with offline_runtime(tmp_path):
        _response, _script, config = worker(Client())
        page = Client().get(reverse("offline")).content.decode()
        loaded = set(re.findall(r'(?:src|href)="(/static/[^"]+)"', page))
        kept = set(config["shell"]) | set(config["runtime"])
        assert loaded and loaded <= kept, loaded - kept
        # And what those scripts import.
        assert "/static/js/offline/worker-client.js" in kept
        assert {
            "/static/vendor/pyodide/pyodide.mjs",
            "/static/vendor/pyodide/pyodide.asm.wasm",
            "/static/offline/pure.zip",
        } <= set(config["runtime"])
        catalog = re.search(r'<script src="(/jsi18n/[^"]+)"></script>', page)
        assert catalog and catalog.group(1) == config["catalogs"]["en"]
        assert reverse("rules") in config["rules"]["en"]
        assert "/es/rules/" in config["rules"]["es"]


def test_without_the_runtime_the_worker_keeps_none(tmp_path):
    with no_offline_runtime(tmp_path):
        _response, _script, config = worker(Client())
    assert config["runtime"] == []
    assert not [url for url in config["shell"] if "/offline/" in url]


def test_the_version_follows_the_static_files(tmp_path, monkeypatch):
    with offline_runtime(tmp_path) as folder:
        first = worker(Client())[2]["version"]
        assert worker(Client())[2]["version"] == first
        (folder / "js/offline/worker-client.js").write_text(
            "export function start() {};\n"
        )
        changed = worker(Client())[2]["version"]
        assert changed != first
        # Collected with hashes, the manifest's own hash decides.
        monkeypatch.setattr(
            webapp, "staticfiles_storage", SimpleNamespace(manifest_hash="a1")
        )
        deployed = worker(Client())[2]["version"]
        monkeypatch.setattr(
            webapp, "staticfiles_storage", SimpleNamespace(manifest_hash="b2")
        )
        assert worker(Client())[2]["version"] not in (deployed, changed)
