// The offline game's engine: a module Web Worker running the project's own Python
// (games.offline over games.engine and games.bots) under Pyodide, so the page
// never blocks while a computer player thinks and there is one engine, not a copy.
//
// Everything it loads is this site's: Pyodide's module from /static/ (its other
// files from the same folder, by their own names: `indexURL`) and the pure
// packages' zip, unpacked into Pyodide's file system. The service worker keeps
// them, so the game starts with no connection.
//
// Messages: {id, op, args} in, {id, ok: true, result} or {id, ok: false, error}
// out. `result` of a game op: {frame, game, computer, over} (see BRIDGE; `game` is
// JSON text, games.offline.game_to_json's, to keep as it is) or {refused: "wait" |
// "illegal"} for a move the rules or the turn do not allow.

const PURE_DIR = "/home/pyodide/pure";

// The Python side: every call takes and returns JSON text, so no Python object
// crosses into JavaScript and nothing needs freeing.
const BRIDGE = `
import json, random, sys, time
if ${JSON.stringify(PURE_DIR)} not in sys.path:
    sys.path.insert(0, ${JSON.stringify(PURE_DIR)})
from games import engine, offline

_game = None
_speed = None


def _speed_of_machine():
    # hard's search is counted, not timed: measured once, this machine's figure
    # keeps its move time within the level's budget (games.bots.hard.machine).
    # measure_speed's reading, without its floor of MIN_SPEED: a phone (or this
    # engine on a busy machine) may be slower still, and hard must then search
    # less to keep to its budget. Pyodide has no per-thread CPU clock; this
    # worker is one thread that only computes, so its wall clock is that time.
    global _speed
    if _speed is None:
        import statistics
        from games.bots.hard import machine
        machine.workload()  # fills the caches; not timed
        runs = []
        for _ in range(5):
            began = time.perf_counter()
            machine.workload()
            runs.append((time.perf_counter() - began) * 1000)
        ms = max(statistics.median(runs), 1e-3)
        _speed = round(min(machine.MAX_SPEED, max(0.02, machine.REFERENCE_MS / ms)), 3)
    return _speed


def _out(game):
    # The game goes out as JSON text, kept as it is: its engine state holds
    # integers beyond 2**53 (hands as bit sets), which a JavaScript number would
    # round.
    global _game
    _game = game
    return json.dumps({
        "frame": offline.state_frame(game),
        "game": json.dumps(offline.game_to_json(game)),
        "computer": offline.computer_turn(game),
        "over": engine.is_match_over(game.state),
    })


def _refused(error):
    template = getattr(error.message, "template", "")
    wait = template == "Wait for the computer players."
    return json.dumps({"refused": "wait" if wait else "illegal", "reason": str(error)})


def start(args):
    a = json.loads(args)
    try:
        game = offline.new_game(a["variant"], a["options"], a["levels"], a["seed"])
    except offline.OfflineError as error:
        return json.dumps({"refused": "options", "reason": str(error)})
    return _out(game)


def resume(args):
    return _out(offline.game_from_json(json.loads(json.loads(args)["game"])))


def act(args):
    a = json.loads(args)
    try:
        return _out(offline.act(_game, a["seat"], a["action"]))
    except offline.OfflineError as error:
        return _refused(error)


def computer(args):
    # The computer due now, whichever the page asked for: a move the person made
    # meanwhile may have changed who that is.
    seat = offline.computer_turn(_game)
    if seat is None:
        return _out(_game)
    speed = _speed_of_machine() if _game.level_of(seat) == "hard" else 1.0
    return _out(offline.computer_move(_game, seat, machine_speed=speed))


def speed(args):
    return json.dumps(_speed_of_machine())


def states(args):
    # The differential test: the state after each of a log's actions.
    a = json.loads(args)
    game = offline.new_game(a["variant"], a["options"], a["levels"], a["seed"])
    out = [engine.to_json(game.state)]
    for seat, action in a["actions"]:
        game = offline.act(game, seat, action)
        out.append(engine.to_json(game.state))
    return json.dumps(json.dumps(out))  # as text: see _out


def timings(args):
    # bench/offline.py: how long each level takes to decide in given positions.
    from games import bots
    a = json.loads(args)
    out = []
    for item in a["positions"]:
        state = engine.from_json(item["state"])
        seat = item["seat"]
        level = item["level"]
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        rng = random.Random(item.get("rng", 0))
        speed = _speed_of_machine() if level == "hard" else 1.0
        began = time.perf_counter()
        bots.choose(level, view, legal, rng, machine_speed=speed)
        out.append((time.perf_counter() - began) * 1000)
    return json.dumps(out)
`;

let python = null;

async function init({ pyodide: pyodideUrl, pure: pureUrl }) {
  const began = performance.now();
  const since = () => (performance.now() - began) / 1000;
  const pure = fetch(pureUrl); // meanwhile
  const { loadPyodide } = await import(pyodideUrl);
  const indexURL = new URL(".", new URL(pyodideUrl, self.location.href)).href;
  const py = await loadPyodide({ indexURL, fullStdLib: false });
  const loaded = since();
  const reply = await pure;
  if (!reply.ok) throw new Error(`the pure packages: HTTP ${reply.status}`);
  py.unpackArchive(await reply.arrayBuffer(), "zip", { extractDir: PURE_DIR });
  py.runPython(BRIDGE);
  python = py;
  // How long each step took, for bench/offline.py.
  return { seconds: since(), pyodide: loaded, version: py.version };
}

function call(name, args) {
  if (!python) throw new Error("the engine is not loaded");
  const fn = python.globals.get(name);
  try {
    return JSON.parse(fn(JSON.stringify(args ?? {})));
  } finally {
    fn.destroy();
  }
}

const OPS = {
  init,
  start: (args) => call("start", args),
  resume: (args) => call("resume", args),
  act: (args) => call("act", args),
  computer: (args) => call("computer", args),
  speed: (args) => call("speed", args),
  states: (args) => call("states", args),
  timings: (args) => call("timings", args),
};

// One message at a time, in order: Python runs one call after the other anyway,
// and an "act" must see the game the "computer" before it left.
let queue = Promise.resolve();

self.addEventListener("message", (event) => {
  const { id, op, args } = event.data || {};
  queue = queue.then(async () => {
    try {
      if (!OPS[op]) throw new Error(`unknown op ${op}`);
      const result = await OPS[op](args);
      self.postMessage({ id, ok: true, result });
    } catch (error) {
      self.postMessage({ id, ok: false, error: String(error?.message || error) });
    }
  });
});
