"""Security headers: a Content-Security-Policy the pages satisfy, HSTS in production,
and ``manage.py check --deploy`` clean with production settings."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIRS = [
    ROOT / "templates",
    *ROOT.glob("*/templates"),
    *ROOT.glob("*/*/templates"),
]
SCRIPT_DATA_TYPES = {"application/json", "application/ld+json"}


class InlineCode(HTMLParser):
    """Collect what a policy without ``'unsafe-inline'`` blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
            if name == "style":
                self.found.append(f"<{tag} style=...>")
            if name in {"href", "src", "action"} and (
                value or ""
            ).strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")
        if tag == "style":
            self.found.append("<style>")
        data_block = (names.get("type") or "").lower() in SCRIPT_DATA_TYPES
        if tag == "script" and not names.get("src") and not data_block:
            self.found.append("inline <script>")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def templates() -> list[Path]:
    return sorted(
        path
        for folder in TEMPLATE_DIRS
        if ".venv" not in folder.parts
        for path in folder.rglob("*.html")
    )


def test_templates_hold_no_inline_code():
    assert templates(), "no templates found"
    offenders = {}
    for path in templates():
        # Template tags may sit inside attributes: judge the markup around them.
        text = re.sub(r"{%.*?%}|{{.*?}}", "x", path.read_text())
        found = inline_code(text)
        if found:
            offenders[str(path.relative_to(ROOT))] = found
    assert offenders == {}


PAGES = [
    "/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/rules/",
    "/no-such-page/",
]
SIGNED_IN_PAGES = [
    "/",
    "/profile/",
    "/play/",
    "/play/online/",
    "/play/stakes/",
    "/games/",
    "/league/",
    "/wallet/",
    "/shop/",
    "/invitations/",
    "/rooms/new/",
    "/accounts/email/",
    "/accounts/password/change/",
    "/admin/",
]


def _checked(resp) -> None:
    policy = resp.headers.get("Content-Security-Policy", "")
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "style-src 'self'" in policy and "object-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy
    if resp.get("Content-Type", "").startswith("text/html"):
        assert inline_code(resp.content.decode()) == [], resp.request["PATH_INFO"]


@pytest.mark.django_db
def test_every_page_sends_a_policy_it_satisfies(client, make_user):
    for path in PAGES:
        resp = client.get(path)
        assert resp.status_code in (200, 404), path
        _checked(resp)
    client.force_login(make_user("Csp", is_staff=True, is_superuser=True))
    for path in SIGNED_IN_PAGES:
        resp = client.get(path)
        assert resp.status_code == 200, path
        _checked(resp)


@pytest.mark.django_db
def test_static_files_and_json_carry_it_too(client):
    _checked(client.get("/static/css/site.css"))
    _checked(client.get("/healthz"))


def _production_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SECRET_KEY", "HSTS_", "SECURE_", "DEBUG"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="dominoes.example.com",
        CSRF_TRUSTED_ORIGINS="https://dominoes.example.com",
        BEHIND_PROXY="true",
        SECURE_COOKIES="true",
        **extra,
    )
    return env


def test_check_deploy_is_clean_with_production_settings():
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_production_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


HSTS_PROBE = """
import django
django.setup()
from django.test import Client
resp = Client(HTTP_HOST="dominoes.example.com").get(
    "/healthz", secure=True, REMOTE_ADDR="203.0.113.9"
)
print(resp.headers.get("Strict-Transport-Security", ""))
"""


def test_hsts_is_sent_over_https_in_production():
    out = subprocess.run(
        [sys.executable, "-c", HSTS_PROBE],
        cwd=ROOT,
        env=_production_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    header = out.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"max-age=\d+", header)
    assert int(header.split("=")[1]) >= 180 * 24 * 3600
