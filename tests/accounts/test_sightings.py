"""Addresses and device cookies players are seen with (RULES.md §5), kept as HMACs,
bounded, and linking the accounts that share one."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings

from accounts.links import linked_pairs, linked_user_ids
from accounts.models import Sighting
from accounts.sightings import sighting_digest, sightings_record

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-pass-42"
HOME = "203.0.113.7"


def signup(client: Client, name: str):
    return client.post(
        "/accounts/signup/",
        {
            "username": name,
            "email": f"{name}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def test_every_browser_gets_a_long_lived_http_only_device_cookie(client):
    resp = client.get("/")
    cookie = resp.cookies[settings.ACCOUNT_DEVICE_COOKIE]
    assert len(cookie.value) >= 20
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) > 365 * 24 * 3600
    # The browser keeps it: the next page sets none.
    assert settings.ACCOUNT_DEVICE_COOKIE not in client.get("/").cookies


def test_a_sign_up_records_the_address_and_the_device_it_came_from():
    browser = Client(REMOTE_ADDR=HOME)
    browser.get("/")  # a visitor's cookie, before the account exists
    token = browser.cookies[settings.ACCOUNT_DEVICE_COOKIE].value
    assert signup(browser, "fresh1").status_code == 302
    seen = dict(Sighting.objects.values_list("kind", "digest"))
    assert seen == {
        "address": sighting_digest(kind="address", value=HOME),
        "device": sighting_digest(kind="device", value=token),
    }
    # Neither the address nor the token is stored as such.
    assert not Sighting.objects.filter(digest__in=[HOME, token]).exists()


def test_two_accounts_signed_up_in_one_browser_are_linked(make_user):
    """Two tabs of one person: one cookie jar, two accounts."""
    browser = Client(REMOTE_ADDR="198.51.100.1")
    signup(browser, "main1")
    browser.post("/accounts/logout/")
    browser.defaults["REMOTE_ADDR"] = "198.51.100.2"  # another network, same device
    signup(browser, "alt1")
    users = get_user_model().objects.in_bulk(["main1", "alt1"], field_name="username")
    main, alt = users["main1"].pk, users["alt1"].pk
    assert linked_user_ids(user_id=main) == {alt}
    assert linked_pairs(user_ids=[main, alt]) == {(main, alt)}


def test_one_address_links_accounts_of_different_browsers(make_user):
    ana, ben, cy = make_user(), make_user(), make_user()
    for user in (ana, ben):
        browser = Client(REMOTE_ADDR=HOME)
        browser.force_login(user)
        browser.get("/")
    other = Client(REMOTE_ADDR="192.0.2.9")
    other.force_login(cy)
    other.get("/")
    assert linked_user_ids(user_id=ana.pk) == {ben.pk}
    assert linked_user_ids(user_id=cy.pk) == set()
    assert linked_pairs(user_ids=[ana.pk, ben.pk, cy.pk]) == {(ana.pk, ben.pk)}


@override_settings(BEHIND_PROXY=True)
def test_behind_the_proxy_the_forwarded_address_is_recorded(make_user):
    ana = make_user()
    browser = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"10.9.9.9, {HOME}")
    browser.force_login(ana)
    browser.get("/")
    assert Sighting.objects.filter(
        user=ana, kind="address", digest=sighting_digest(kind="address", value=HOME)
    ).exists()


def test_the_local_machine_links_nobody(make_user):
    """A loopback address is this machine (a local proxy), never a player's."""
    ana, ben = make_user(), make_user()
    for user in (ana, ben):
        browser = Client()  # REMOTE_ADDR 127.0.0.1, a browser of its own each
        browser.force_login(user)
        browser.get("/")
    assert Sighting.objects.filter(kind="address").count() == 0
    assert linked_user_ids(user_id=ana.pk) == set()


def test_a_forged_device_cookie_is_replaced(make_user, client):
    client.cookies[settings.ACCOUNT_DEVICE_COOKIE] = "x' OR 1=1 --"
    resp = client.get("/")
    assert resp.cookies[settings.ACCOUNT_DEVICE_COOKIE].value != "x' OR 1=1 --"


@override_settings(ACCOUNT_SIGHTINGS_KEPT=3)
def test_each_player_keeps_only_the_most_recent_few(make_user):
    ana = make_user()
    for n in range(6):
        sightings_record(
            user_id=ana.pk, address=f"192.0.2.{n + 1}", device=f"{'d' * 20}{n}"
        )
    assert Sighting.objects.filter(user=ana, kind="address").count() == 3
    assert Sighting.objects.filter(user=ana, kind="device").count() == 3
    kept = set(Sighting.objects.filter(user=ana).values_list("digest", flat=True))
    assert sighting_digest(kind="address", value="192.0.2.6") in kept
    assert sighting_digest(kind="address", value="192.0.2.1") not in kept


def test_a_page_view_within_the_hour_writes_nothing_new(make_user):
    ana = make_user()
    browser = Client(REMOTE_ADDR=HOME)
    browser.force_login(ana)
    browser.get("/")
    first = Sighting.objects.get(user=ana, kind="address").last_seen
    browser.get("/")
    assert Sighting.objects.get(user=ana, kind="address").last_seen == first
