"""The JavaScript catalog: one URL per language and release, kept by browsers."""

from __future__ import annotations

import gzip
import re

import pytest
from django.template import loader
from django.test import Client, override_settings

from config.catalog import catalog_release

pytestmark = pytest.mark.django_db


def _catalog_url(page: str) -> str:
    return re.search(r'<script src="(/jsi18n/[^"]+)"', page).group(1)


def test_each_page_names_the_catalog_of_its_language_and_release():
    # The Spanish home page at its address; a page with one address in the
    # browser's language.
    es = Client().get("/es/").content.decode()
    assert _catalog_url(es) == f"/jsi18n/es/{catalog_release()}/"
    pl = Client(HTTP_ACCEPT_LANGUAGE="pl").get("/accounts/login/").content.decode()
    assert _catalog_url(pl) == f"/jsi18n/pl/{catalog_release()}/"


def test_the_current_release_is_kept_a_year_and_is_in_its_language():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")  # the URL decides, not the header
    response = client.get(f"/jsi18n/es/{catalog_release()}/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert "conectando\\u2026" in response.content.decode()
    again = client.get(f"/jsi18n/es/{catalog_release()}/")  # from the cache
    assert again.content == response.content


def test_an_old_release_gets_the_current_catalog_briefly_kept():
    response = Client().get("/jsi18n/it/0123456789ab/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=300"


def test_unknown_languages_and_writes_are_refused():
    assert Client().get(f"/jsi18n/xx/{catalog_release()}/").status_code == 404
    assert Client().post(f"/jsi18n/es/{catalog_release()}/").status_code == 405


def test_the_release_follows_the_compiled_catalogs(tmp_path):
    mo = tmp_path / "es" / "LC_MESSAGES" / "djangojs.mo"
    mo.parent.mkdir(parents=True)
    mo.write_bytes(b"one")
    catalog_release.cache_clear()
    try:
        with override_settings(LOCALE_PATHS=[tmp_path]):
            first = catalog_release()
            catalog_release.cache_clear()
            mo.write_bytes(b"two")
            assert catalog_release() != first
            catalog_release.cache_clear()
            mo.unlink()
            assert catalog_release() == "dev"
    finally:
        catalog_release.cache_clear()


def test_error_pages_rendered_without_a_request_still_load_it():
    assert f"/jsi18n/en/{catalog_release()}/" in loader.render_to_string("500.html")


def test_the_catalog_goes_gzipped_to_a_browser_that_accepts_it():
    url = f"/jsi18n/es/{catalog_release()}/"
    plain = Client().get(url)
    packed = Client().get(url, HTTP_ACCEPT_ENCODING="gzip, br")
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 2
    assert packed["Cache-Control"] == "public, max-age=31536000, immutable"
