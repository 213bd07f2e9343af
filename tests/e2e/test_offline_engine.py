"""The offline game's engine in the browser is the engine: Pyodide in the page's Web
Worker (static/js/offline/worker.js, with /static/offline/pure.zip) and CPython
reach the same state after every action of the same games, in every variant."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import engine, offline
from tests.offline.play import SEED, every_variant, play_out

pytestmark = pytest.mark.e2e

WORKER = "/static/js/offline/worker.js"
PYODIDE = "/static/vendor/pyodide/pyodide.mjs"
PURE = "/static/offline/pure.zip"

# In the page: start the worker as main.js does and call it by message.
BOOT = """async ({worker, pyodide, pure}) => {
  const w = new Worker(worker, {type: "module"});
  let next = 1;
  const waiting = new Map();
  w.onmessage = (e) => {
    const {id, ok, result, error} = e.data;
    const p = waiting.get(id);
    waiting.delete(id);
    ok ? p.resolve(result) : p.reject(new Error(error));
  };
  w.onerror = (e) => {
    for (const p of waiting.values()) p.reject(new Error(e.message));
  };
  window.offlineCall = (op, args) => new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, {resolve, reject});
    w.postMessage({id, op, args});
  });
  return await window.offlineCall("init", {pyodide, pure});
}"""


def cpython_states(game: offline.Game) -> list[dict[str, Any]]:
    """The engine state after each action of ``game``'s log, replayed in CPython."""
    replayed = offline.new_game(game.variant, game.options.to_dict(), game.levels, SEED)
    out = [engine.to_json(replayed.state)]
    for seat, action in game.log:
        replayed = offline.act(replayed, seat, action)
        out.append(engine.to_json(replayed.state))
    return out


@pytest.fixture(scope="module")
def games() -> list[offline.Game]:
    """One whole match per case, played in CPython."""
    return [
        play_out(offline.new_game(variant, options, levels, SEED))
        for variant, options, levels in every_variant()
    ]


def test_the_browser_engine_reaches_cpythons_states_in_every_variant(
    new_page, games: list[offline.Game]
) -> None:
    page = new_page()
    page.goto("/rules/")
    loaded = page.evaluate(BOOT, {"worker": WORKER, "pyodide": PYODIDE, "pure": PURE})
    assert loaded["version"]
    checked = set()
    for game in games:
        upload = offline.upload_of(game)
        text = page.evaluate(
            "(a) => window.offlineCall('states', a)",
            {
                "variant": upload["variant"],
                "options": upload["options"],
                "levels": upload["levels"],
                "seed": upload["seed"],
                "actions": upload["actions"],
            },
        )
        browser = json.loads(text)  # text: its integers exceed JavaScript's
        expected = cpython_states(game)
        assert len(browser) == len(expected) == len(game.log) + 1
        for number, (there, here) in enumerate(zip(browser, expected, strict=True)):
            assert there == here, f"{game.variant}: state after action {number} differs"
        assert engine.from_json(browser[-1]).phase == "match_over"
        checked.add(game.variant)
    assert checked == set(engine.VARIANTS)


def test_the_browser_plays_the_computer_as_cpython_does(new_page) -> None:
    """The worker's own game, computers moving by its bots: the moves it makes
    are the moves CPython's bots make (easy and medium decide alike anywhere).
    It plays on an engine restored from the memory snapshot the first start
    kept, as every later start of the offline game does."""
    page = new_page()
    page.goto("/rules/")
    first = page.evaluate(BOOT, {"worker": WORKER, "pyodide": PYODIDE, "pure": PURE})
    assert first["snapshot"] == "made"
    assert page.evaluate("() => window.offlineCall('kept', {})") is True
    page.reload()
    later = page.evaluate(BOOT, {"worker": WORKER, "pyodide": PYODIDE, "pure": PURE})
    assert later["snapshot"] == "restored"
    assert later["version"] == first["version"]
    game = offline.new_game("all_fives", {"target": 50}, ["medium"], SEED)
    answer = page.evaluate(
        "(a) => window.offlineCall('start', a)",
        {
            "variant": "all_fives",
            "options": {"target": 50},
            "levels": ["medium"],
            "seed": SEED,
        },
    )
    assert answer["frame"] == offline.state_frame(game)
    for _ in range(60):
        if answer["over"]:
            break
        if answer["computer"] is not None:
            game = offline.computer_move(game, answer["computer"])
            answer = page.evaluate(
                "(a) => window.offlineCall('computer', a)", {"seat": answer["computer"]}
            )
        else:
            action = engine.action_to_dict(engine.legal_actions(game.state, 0)[0])
            game = offline.act(game, 0, action)
            answer = page.evaluate(
                "(a) => window.offlineCall('act', a)", {"seat": 0, "action": action}
            )
        assert json.loads(answer["game"]) == offline.game_to_json(game)
        assert answer["frame"] == offline.state_frame(game)
    refused = page.evaluate(
        "(a) => window.offlineCall('act', a)",
        {"seat": 0, "action": {"type": "play", "tile": [9, 9], "end": "left"}},
    )
    assert refused["refused"] in ("illegal", "wait")


# A kept snapshot spoilt as a browser's storage can leave it: cut short, or with
# a restore that never finished (the tab closed, or Pyodide hung on it).
SPOIL = """async (how) => {
  const base = await new Promise((resolve, reject) => {
    const req = indexedDB.open("dominoes-engine", 1);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const tx = base.transaction("snapshot", "readwrite");
  const store = tx.objectStore("snapshot");
  const kept = await new Promise((resolve) => {
    const req = store.get("current");
    req.onsuccess = () => resolve(req.result);
  });
  if (how === "short") store.put({...kept, bytes: new Uint8Array(64)}, "current");
  else store.put(kept.key, "trying");
  await new Promise((resolve) => { tx.oncomplete = resolve; });
  base.close();
  return kept.key;
}"""


@pytest.mark.parametrize("how", ["short", "unfinished"])
def test_a_snapshot_that_cannot_be_restored_is_replaced(new_page, how) -> None:
    """A kept snapshot that cannot be trusted costs one plain start: it is
    dropped, the engine starts afresh and plays, and a good snapshot is kept in
    its place."""
    page = new_page()
    page.goto("/rules/")
    page.evaluate(BOOT, {"worker": WORKER, "pyodide": PYODIDE, "pure": PURE})
    assert page.evaluate("() => window.offlineCall('kept', {})") is True
    assert page.evaluate(SPOIL, how)
    page.reload()
    again = page.evaluate(BOOT, {"worker": WORKER, "pyodide": PYODIDE, "pure": PURE})
    assert again["snapshot"] == "made"
    answer = page.evaluate(
        "(a) => window.offlineCall('start', a)",
        {"variant": "draw", "options": {}, "levels": ["easy"], "seed": SEED},
    )
    assert answer["frame"] == offline.state_frame(
        offline.new_game("draw", {}, ["easy"], SEED)
    )
    assert page.evaluate("() => window.offlineCall('kept', {})") is True
    page.reload()
    last = page.evaluate(BOOT, {"worker": WORKER, "pyodide": PYODIDE, "pure": PURE})
    assert last["snapshot"] == "restored"
