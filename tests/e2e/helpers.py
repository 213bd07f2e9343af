"""Steps a person takes at the table, for the browser tests."""

from __future__ import annotations

import itertools
import json
import re
import time
from pathlib import Path

from playwright.sync_api import Page, WebSocket, expect

from tests.support.frames import TableFrames

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PASSWORD = "a-Long-pass-42"
_names = itertools.count(1)


def signup(page: Page, prefix: str = "player") -> str:
    """Create an account through the sign-up form; the browser is then signed in."""
    name = f"{prefix}{int(time.time() * 1000) % 10_000_000}{next(_names)}"
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", f"{name}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    expect(page.locator("header")).to_contain_text(name)
    return name


def start_practice(
    page: Page,
    variant: str,
    *,
    seats: int = 2,
    levels: tuple[str, ...] = ("easy",),
    target: int | None = None,
    speed: str = "instant",
) -> None:
    """Fill the Play form and start; waits for the table's first state."""
    page.goto("/play/")
    page.select_option("select[name=variant]", variant)
    page.select_option("select[name=seats]", str(seats))
    if target is not None:
        page.select_option("select[name=target]", str(target))
    for i, level in enumerate(levels, start=1):
        page.select_option(f"select[name=bot_{i}]", level)
    page.select_option("select[name=bot_speed]", speed)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    wait_ready(page)


def create_room(page: Page, *, seats: int = 3) -> None:
    """Create a friend room of Draw from the home page; the page is then the room."""
    page.goto("/")
    page.get_by_role("link", name="Create a room").click()
    page.select_option("select[name=variant]", "draw")
    page.select_option("select[name=seats]", str(seats))
    page.select_option("select[name=target]", "50")
    page.fill("input[name=clock]", "90")
    page.select_option("select[name=bot_level]", "easy")
    page.get_by_role("button", name="Create the room").click()
    page.wait_for_url(re.compile(r"/rooms/\d+/$"))


def wait_ready(page: Page) -> None:
    """Wait for the table's first state, dealt unless the table is still waiting
    (a fair table deals once the page has sent its client seed)."""
    page.wait_for_function(
        """() => {
          const f = window.dominoTable && window.dominoTable.ui.frame;
          return !!f && (f.view !== null || !(f.table.fair && f.table.fair.seeding));
        }"""
    )


def frame(page: Page) -> dict:
    """The state frame the page renders now."""
    return page.evaluate("() => window.dominoTable.ui.frame")


class Received(list[dict]):
    """The states a page's table sockets received, in arrival order, and the
    ``seq`` of those that came as patches."""

    def __init__(self) -> None:
        super().__init__()
        self.patched: set[int] = set()


def record_state_frames(page: Page) -> Received:
    """Every state the page's table sockets receive, in arrival order: a ``patch``
    as the state it stands for (applied here, in Python, to the socket's state
    before it)."""
    frames = Received()

    def watch(ws: WebSocket) -> None:
        reader = TableFrames()

        def on_frame(payload: str | bytes) -> None:
            data = json.loads(payload)
            if data.get("type") in ("state", "patch"):
                frames.append(reader.read(data))
            if data.get("type") == "patch":
                frames.patched.add(data["seq"])

        ws.on("framereceived", on_frame)

    page.on("websocket", watch)
    return frames


def shows_the_servers_state(page: Page, received: Received) -> bool:
    """Check that the state the page renders is the one the server's frames stand
    for (``received``); whether it came as a patch, which the page applied itself."""
    shown = frame(page)
    same = [f for f in received if f["seq"] == shown["seq"]]
    assert same, f"no frame numbered {shown['seq']} was received"
    assert shown == same[-1]
    return len(same) == 1 and shown["seq"] in received.patched


def wait_for_me(page: Page, timeout: float = 20) -> dict:
    """Wait until this seat has something to do (or the match is over)."""
    page.wait_for_function(
        """() => {
          const f = window.dominoTable.ui.frame;
          if (!f || !f.view) return false;
          return f.view.phase === 'match_over' || f.view.legal.length > 0
              || f.table.status !== 'playing';
        }""",
        timeout=timeout * 1000,
    )
    return frame(page)


def wait_seq_after(page: Page, seq: int, timeout: float = 15) -> None:
    try:
        page.wait_for_function(
            f"() => window.dominoTable.ui.frame.seq > {seq}", timeout=timeout * 1000
        )
    except Exception:
        f = frame(page)
        error = page.locator("#error").inner_text()
        raise AssertionError(
            f"the table stayed at seq {seq}: error {error!r}, phase "
            f"{f['view']['phase']}, legal {f['view']['legal']}, claim "
            f"{f['view']['claim']}, timer {f['table']['timer']}"
        ) from None


def label(tile: list[int]) -> str:
    return f"{tile[0]}\u2013{tile[1]}"


def main_button(page: Page):
    return page.locator("#main-action")


def play_tile(page: Page, play: dict, *, keyboard: bool = False) -> None:
    """Play ``play`` (a legal play action) the way a person does."""
    tile = page.get_by_role("button", name=label(play["tile"]), exact=True)
    plays = [
        a
        for a in frame(page)["view"]["legal"]
        if a["type"] == "play" and sorted(a["tile"]) == sorted(play["tile"])
    ]
    if keyboard:
        tile.focus()
        page.keyboard.press("Enter")
    else:
        tile.click()
    if len(plays) > 1:
        end = page.locator(f'.board .end[data-end="{play["end"]}"]')
        expect(end).to_be_enabled()
        if keyboard:
            for _ in range(8):
                if end.evaluate("e => e === document.activeElement"):
                    break
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
        else:
            end.click()


_PRESS_NEXT_HAND = """seq => {
  const button = document.getElementById('main-action');
  if (window.dominoTable.ui.frame.seq !== seq || button.disabled
      || button.textContent.trim() !== 'Next hand') return false;
  button.click();
  return true;
}"""


def _next_hand(page: Page, seq: int) -> str:
    """Press "Next hand" at the hand's end ``seq``. Any seat starts the next
    hand, so another page's press may reach this one first: then nothing is
    done here ('')."""
    if page.evaluate(_PRESS_NEXT_HAND, seq):
        return "next_hand"
    if frame(page)["seq"] != seq:
        return ""
    expect(main_button(page)).to_have_text("Next hand")
    main_button(page).click()
    return "next_hand"


def act_once(page: Page, *, prefer: str | None = None) -> str:
    """Make one decision by clicking; return what was done ('' when nothing was:
    the match ended, or another seat started the next hand first)."""
    f = wait_for_me(page)
    view = f["view"]
    if view["phase"] == "match_over" or f["table"]["status"] != "playing":
        return ""
    legal = view["legal"]
    types = [a["type"] for a in legal]
    seq = f["seq"]
    button = main_button(page)
    if "next_hand" in types:
        done = _next_hand(page, seq)
    elif "muggins" in types:
        expect(button).to_have_text(re.compile(r"^Muggins"))
        done = "muggins"
        button.click()
    elif "claim" in types:
        expect(button).to_have_text(re.compile(r"^Claim \d+"))
        done = "claim"
        button.click()
    elif view["phase"] == "close":
        done = "continue"
        button.click()
    elif "play" in types:
        plays = [a for a in legal if a["type"] == "play"]
        doubles = [a for a in legal if a["type"] == "play_doubles"]
        if prefer == "doubles" and doubles:
            page.get_by_role(
                "button", name=re.compile(r"^Lay .* together$")
            ).first.click()
            done = "play_doubles"
        else:
            if prefer == "points":
                plays.sort(key=lambda a: -(a.get("points") or 0))
            elif prefer == "doubles":
                plays.sort(key=lambda a: a["tile"][0] != a["tile"][1])
            play_tile(page, plays[0])
            done = "play"
    elif "draw" in types:
        expect(button).to_have_text("Draw")
        done = "draw"
        button.click()
    else:
        expect(button).to_have_text("Pass (knock)")
        done = "pass"
        button.click()
    wait_seq_after(page, seq)
    return done


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
