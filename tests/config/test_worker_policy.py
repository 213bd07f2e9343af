"""The offline game's worker script is served with its own Content-Security-Policy:
the site's, plus compiling WebAssembly (Pyodide); every other file keeps the
site's policy."""

from __future__ import annotations

import pytest
from django.test import Client

from config.security import DEFAULT_POLICY, static_headers, worker_policy


def test_the_worker_policy_adds_webassembly_to_scripts_only() -> None:
    policy = worker_policy(DEFAULT_POLICY)
    directives = dict(
        (d.split()[0], d.split()[1:]) for d in policy.split("; ") if d.strip()
    )
    assert directives["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
    assert "'unsafe-eval'" not in policy
    rest = [d for d in policy.split("; ") if not d.startswith("script-src")]
    assert rest == [
        d for d in DEFAULT_POLICY.split("; ") if not d.startswith("script-src")
    ]
    assert worker_policy("default-src 'self'") == (
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'"
    )


@pytest.mark.parametrize(
    ("url", "own"),
    [
        ("/static/js/offline/worker.js", True),
        ("/static/js/offline/worker.0123456789ab.js", True),
        ("/static/js/offline/main.js", False),
        ("/static/js/offline/worker.js.gz", False),
        ("/static/vendor/pyodide/pyodide.mjs", False),
    ],
)
def test_only_the_worker_script_gets_its_own_policy(url: str, own: bool) -> None:
    headers: dict[str, str] = {}
    static_headers(headers, "/any/path", url)
    assert ("Content-Security-Policy" in headers) == own


def test_the_served_worker_carries_its_policy(client: Client) -> None:
    worker = client.get("/static/js/offline/worker.js")
    assert worker.status_code == 200
    assert "'wasm-unsafe-eval'" in worker["Content-Security-Policy"]
    main = client.get("/static/js/offline/main.js")
    assert main.status_code == 200
    assert "'wasm-unsafe-eval'" not in main["Content-Security-Policy"]
