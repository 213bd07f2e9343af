"""Every frame type the server sends is in docs/protocol.md and handled by the
browser; every close code the server refuses with is documented and handled.

The server's frame types are read from the code that builds frames (each dict
literal with a string ``"type"``; names with a dot are channel-layer messages
between processes, not frames), so a new frame type fails here until it is
documented and the page knows it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from realtime.consumers import SERVER_FAULT

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text()

# What builds the frames each endpoint sends, and the browser code that reads them.
ENDPOINTS = {
    "/ws/tables/<id>/": {
        "server": [
            "games/payloads.py",
            "games/patches.py",
            "games/consumers.py",
            "realtime/consumers.py",
            "realtime/frames.py",
            "core/refusals.py",
        ],
        "browser": [
            *sorted((ROOT / "static/js/table").glob("*.js")),
            ROOT / "static/js/socket.js",
        ],
    },
    "/ws/presence/": {
        "server": [
            "accounts/consumers.py",
            "realtime/consumers.py",
            "realtime/frames.py",
            "core/refusals.py",
        ],
        "browser": [ROOT / "static/js/presence.js", ROOT / "static/js/socket.js"],
    },
    "/ws/lobby/": {
        "server": [
            "matchmaking/pools/consumers.py",
            "matchmaking/pools/selectors.py",
            "realtime/consumers.py",
            "realtime/frames.py",
            "core/refusals.py",
        ],
        "browser": [ROOT / "static/js/lobby.js", ROOT / "static/js/socket.js"],
    },
}


def frame_types(path: str) -> set[str]:
    """The ``"type"`` values of the dict literals in a module."""
    found = set()
    for node in ast.walk(ast.parse((ROOT / path).read_text())):
        if not isinstance(node, ast.Dict):
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            if (
                isinstance(key, ast.Constant)
                and key.value == "type"
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
                and "." not in value.value
            ):
                found.add(value.value)
    return found


def section(endpoint: str) -> str:
    """The part of docs/protocol.md about one endpoint."""
    start = PROTOCOL.index(f"## `{endpoint}`")
    end = PROTOCOL.find("\n## ", start + 1)
    return PROTOCOL[start : end if end != -1 else None]


def test_the_scan_finds_the_frames_we_know():
    table = set().union(
        *(frame_types(p) for p in ENDPOINTS["/ws/tables/<id>/"]["server"])
    )
    assert {"state", "patch", "error"} <= table
    presence = set().union(
        *(frame_types(p) for p in ENDPOINTS["/ws/presence/"]["server"])
    )
    assert {"pong", "online", "error"} <= presence


def test_every_server_frame_is_documented_and_handled():
    for endpoint, where in ENDPOINTS.items():
        sent = set().union(*(frame_types(p) for p in where["server"]))
        doc = section(endpoint)
        browser = "\n".join(p.read_text() for p in where["browser"])
        for kind in sorted(sent):
            assert f'"type": "{kind}"' in doc, f"{endpoint}: {kind} not in protocol.md"
            handled = (
                re.search(rf'\b\w+\.type === "{kind}"', browser) is not None
                # presence.js reads the count from any frame that carries one
                or (kind in {"pong", "online"} and '"online" in m' in browser)
                # an error on the presence socket changes nothing on the page
                or (endpoint == "/ws/presence/" and kind == "error")
                # the lobby's pong only answers its keep-alive ping
                or (endpoint == "/ws/lobby/" and kind == "pong")
            )
            assert handled, f"{endpoint}: the browser ignores {kind!r} frames"


def test_every_refusal_code_is_documented_and_handled():
    sources = "\n".join(
        (ROOT / p).read_text()
        for p in (
            "games/consumers.py",
            "accounts/consumers.py",
            "realtime/consumers.py",
        )
    )
    named = dict(re.findall(r"^([A-Z_]+) = (\d{4})$", sources, re.MULTILINE))
    codes = {
        int(named.get(c, c)) for c in re.findall(r"refuse\((\d{4}|[A-Z_]+)\)", sources)
    }
    assert {4401, 4404} <= codes
    socket_js = (ROOT / "static/js/table/socket.js").read_text()
    for code in sorted(codes):
        assert f"| {code} |" in PROTOCOL, f"close code {code} not in protocol.md"
        # A fault on our side (4500) is no refusal: the page reconnects.
        if code >= 4000 and code != SERVER_FAULT:
            assert f"{code}:" in socket_js, f"the table page ignores close {code}"
