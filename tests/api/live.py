"""A real daphne serving the site on the embedded default, for the API's tests of
whole matches (the example bot over HTTP), and accounts with tokens made in its
database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.support.servers import daphne_start, free_port

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
STRIP = ("DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "ENV_FILE")

MAKE_ACCOUNTS = """
import json, sys
from django.contrib.auth.models import User
from accounts.models import BotAccount
from api.tokens import token_create
bots = sys.argv[1] == "bots"
out = {}
for name in sys.argv[2:]:
    user = User.objects.create_user(name, password="a-Long-pass-42")
    if bots:
        BotAccount.objects.create(user=user)
    scopes = ["read", "bot"] if bots else ["read", "play"]
    out[name] = token_create(owner=user, name="bot", scopes=scopes)[1]
print("TOKENS" + json.dumps(out))
"""


@dataclass
class Live:
    url: str
    env: dict[str, str]

    def accounts(self, *names: str) -> dict[str, str]:
        """New players in the server's database; their tokens' secrets by name."""
        return self._made("people", names)

    def bots(self, *names: str) -> dict[str, str]:
        """New bot accounts, with tokens of the ``bot`` scope, by name."""
        return self._made("bots", names)

    def _made(self, kind: str, names: tuple[str, ...]) -> dict[str, str]:
        done = subprocess.run(
            [PYTHON, "-c", _shell(MAKE_ACCOUNTS), kind, *names],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        )
        line = next(x for x in done.stdout.splitlines() if x.startswith("TOKENS"))
        tokens: dict[str, str] = json.loads(line[len("TOKENS") :])
        return tokens


def _shell(code: str) -> str:
    return "import django; django.setup()\n" + code


def live_server(tmp: Path) -> Iterator[Live]:
    env = {k: v for k, v in os.environ.items() if k not in STRIP}
    env.update(
        SQLITE_PATH=str(tmp / "db.sqlite3"),
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=str(ROOT),
        STATIC_MANIFEST="false",
        # A closed stream gives its place back when the server next writes to it,
        # a keep-alive line at the latest: a short interval keeps these tests quick.
        API_KEEPALIVE_SECONDS="1",
    )
    python = PYTHON if Path(PYTHON).exists() else sys.executable
    subprocess.run(
        [python, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=180,
    )
    port = int(os.environ.get("E2E_PORT") or free_port())
    server = daphne_start(env, port=port, log=tmp / "daphne.log")
    try:
        yield Live(url=server.url, env=env)
    finally:
        server.stop()
