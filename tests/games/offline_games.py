"""Whole offline practice games played in CPython through ``games.offline`` (the
browser's own code), and their uploads as the offline page sends them."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

from django.test import Client
from django.urls import reverse

from games import bots, engine, offline

FINISHED_AT = "2026-12-01T10:00:00+00:00"


def played(
    variant: str = "block",
    levels: tuple[str, ...] = ("medium",),
    *,
    options: dict[str, Any] | None = None,
    seed: str | None = None,
    person_seed: int = 1,
) -> offline.Game:
    """A match against ``levels`` played to its end, the person's seat by the easy
    bot; to the variant's smallest target unless ``options`` say otherwise."""
    spec = engine.VARIANTS[variant]
    chosen = {"target": min(spec.targets), **(options or {})}
    game = offline.new_game(variant, chosen, list(levels), seed or offline.seed_new())
    rng = random.Random(person_seed)
    while not engine.is_match_over(game.state):
        due = offline.computer_turn(game)
        if due is not None:
            game = offline.computer_move(game, due)
            continue
        legal = engine.legal_actions(game.state, 0)
        choice = bots.choose("easy", engine.view(game.state, 0), legal, rng)
        game = offline.act(game, 0, engine.action_to_dict(choice or legal[0]))
    return game


def upload(game: offline.Game, **changes: Any) -> dict[str, Any]:
    """The body the offline page posts for ``game``, with ``changes`` applied."""
    body = {
        **offline.upload_of(game),
        "id": str(uuid.uuid4()),
        "finished_at": FINISHED_AT,
    }
    body.update(changes)
    return body


def signed_in(user: Any) -> Client:
    """A browser tab of ``user``'s that checks CSRF tokens, as a real one does."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def send(client: Client, body: Any, *, raw: bytes | None = None) -> Any:
    """POST an upload as the offline page does: the CSRF token asked for first."""
    url = reverse("offline-results")
    token = client.get(url).json()["csrf"]
    data = raw if raw is not None else json.dumps(body)
    return client.post(
        url, data, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
