#!/usr/bin/env python3
"""An example program playing dominoes through the site's open API (docs/api.md).

Standard library only. It reads the account's event stream, and for each game that
starts it reads the game's stream and plays a simple policy: the heaviest tile it
may play, else the first legal action (drawing, passing, the next hand…). The legal
actions come from the state the stream sends (``view.legal``), nothing else.

    python3 tools/example_bot.py --token T --server http://127.0.0.1:8000 \
        [--practice medium --variant draw | --challenge USER | --accept | --rated POOL]

--practice LEVEL   start a practice game against the server's computers of LEVEL
--challenge USER   challenge USER to a friendly game (it starts when they accept)
--accept           accept every challenge that arrives
--rated POOL       a bot account's rated search (POST /api/bot/seek)
--games N          stop after N games have ended (default: 1, or forever with --accept)

Each line it prints is one JSON object (``{"game": id, "status": …}`` when a game
ends), so that other programs can read what it did.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


class Client:
    """The API over HTTP, with the token in the Authorization header."""

    def __init__(self, server: str, token: str) -> None:
        if not server.startswith(("http://", "https://")):
            raise ValueError("the server is an http:// or https:// address")
        self.server = server.rstrip("/")
        self.token = token

    def _request(
        self, method: str, path: str, body: dict[str, Any] | None
    ) -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        url = self.server + path  # an http(s) address: checked in __init__
        request = urllib.request.Request(url, data=data, method=method)  # noqa: S310
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        return request

    def call(
        self, method: str, path: str, body: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """One JSON request; ``ApiError`` with the server's words when refused."""
        for _attempt in range(5):
            try:
                request = self._request(method, path, body)
                with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
                    text = response.read().decode()
                    return json.loads(text) if text else {}
            except urllib.error.HTTPError as exc:
                text = exc.read().decode(errors="replace")
                try:
                    message = json.loads(text).get("error", text)
                except ValueError:
                    message = text
                if exc.code == 429:  # over the rate: wait as told, then again
                    time.sleep(float(exc.headers.get("Retry-After", "1")))
                    continue
                raise ApiError(exc.code, message) from None
        raise ApiError(429, "still rate limited")

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The objects of an NDJSON stream, keep-alive lines skipped, until it ends."""
        request = self._request("GET", path, None)
        try:
            response = urllib.request.urlopen(request, timeout=60)  # noqa: S310
        except urllib.error.HTTPError as exc:
            raise ApiError(exc.code, exc.read().decode(errors="replace")) from None
        with response:
            for raw in response:
                line = raw.strip()
                if line:
                    yield json.loads(line)


def tile_weight(action: dict[str, Any]) -> int:
    tile = action.get("tile")
    if isinstance(tile, list):
        return int(sum(tile))
    plays = action.get("plays")
    if isinstance(plays, list):
        return sum(int(sum(p.get("tile", []))) for p in plays)
    return -1


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The heaviest tile to play, else the first legal action."""
    return max(legal, key=tile_weight)


def play_game(
    client: Client, game_id: int, log: list[dict[str, Any]] | None = None
) -> str:
    """Play one game to its end from its stream; the table's final status."""
    acted_at = -1
    seeded = False
    status = "playing"
    for frame in client.stream(f"/api/games/{game_id}/stream"):
        if log is not None:
            log.append(frame)
        if frame.get("type") != "state":
            continue
        table, you, seq = frame["table"], frame["you"], frame["seq"]
        status = table["status"]
        if status in ("finished", "cancelled"):
            break
        fair = table.get("fair") or {}
        if fair.get("seeding") and not seeded and fair["seeds"][you] is None:
            seeded = True
            _try(client, f"/api/games/{game_id}/seed", {"seed": secrets.token_hex(16)})
        view = frame.get("view") or {}
        legal = view.get("legal") or []
        if legal and seq > acted_at:
            acted_at = seq
            move = {"seq": seq, "action": choose(legal)}
            _try(client, f"/api/games/{game_id}/move", move)
    return status


def _try(client: Client, path: str, body: dict[str, Any]) -> None:
    """Send an action; a refusal (the table moved on) is said and the stream goes on."""
    try:
        client.call("POST", path, body)
    except ApiError as exc:
        if exc.status >= 500:
            raise
        print(json.dumps({"refused": path, "error": exc.message}), flush=True)


class Games:
    """The games this program plays, each in a thread of its own, and when to stop."""

    def __init__(self, client: Client, wanted: int) -> None:
        self.client = client
        self.wanted = wanted  # 0: never stop
        self.ended = 0
        self.playing: set[int] = set()
        self.done = threading.Event()
        self.lock = threading.Lock()

    def start(self, game_id: int) -> None:
        with self.lock:
            if game_id in self.playing:
                return
            self.playing.add(game_id)
        threading.Thread(target=self._play, args=(game_id,), daemon=True).start()

    def _play(self, game_id: int) -> None:
        try:
            status = play_game(self.client, game_id)
        except Exception as exc:  # the other games go on
            status = f"failed: {exc}"
        print(json.dumps({"game": game_id, "status": status}), flush=True)
        with self.lock:
            self.ended += 1
            if self.wanted and self.ended >= self.wanted:
                self.done.set()

    def listen(self, *, accept: bool) -> None:
        """Read the account's events: start each game, accept challenges if told."""
        for event in self.client.stream("/api/stream/events"):
            kind = event.get("type")
            if kind == "gameStart":
                self.start(event["game"]["id"])
            elif kind == "challenge" and accept:
                challenge = event["challenge"]
                try:
                    self.start(self.client.call("POST", challenge["accept"])["game"])
                except ApiError as exc:
                    print(
                        json.dumps({"refused": challenge["id"], "error": exc.message})
                    )
            elif kind == "challengeAnswered":
                print(json.dumps(event), flush=True)
        self.done.set()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--token", required=True)
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--practice", metavar="LEVEL")
    what.add_argument("--challenge", metavar="USER")
    what.add_argument("--accept", action="store_true")
    what.add_argument("--rated", metavar="POOL")
    parser.add_argument("--variant", default="draw")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--speed", default="fast")
    parser.add_argument("--games", type=int, default=None)
    args = parser.parse_args(argv)
    client = Client(args.server, args.token)
    wanted = args.games if args.games is not None else (0 if args.accept else 1)
    games = Games(client, wanted)
    threading.Thread(
        target=games.listen, kwargs={"accept": args.accept}, daemon=True
    ).start()
    game = {"variant": args.variant, "seats": args.seats}
    if args.practice:
        body = {**game, "level": args.practice, "speed": args.speed}
        games.start(client.call("POST", "/api/practice", body)["game"])
    elif args.challenge:
        sent = client.call("POST", f"/api/challenge/{args.challenge}", game)
        print(json.dumps(sent), flush=True)
    elif args.rated:
        print(json.dumps(client.call("POST", "/api/bot/seek", {"pool": args.rated})))
    games.done.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
