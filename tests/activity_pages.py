"""Driving the Activity in the sandbox from a test or a benchmark: start a match through the sandbox's API,
open a player's chat page, press Open board, tap cells, choose the server's legal actions, press Play.

Where to tap is read from the server's answers the page holds (``window.hexplay``: the turn builder's legal
actions with their ``from`` and ``to`` cells), never from rules of its own.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeout

TIMEOUT = 30_000  # ms for anything the bot has to do (generous: CI machines are shared)
PHONE = {"width": 390, "height": 844}
CHOOSING = "!document.querySelector('#chooser').hidden"  # the page asks which of several actions


def wait_until(probe, what: str, timeout: float = TIMEOUT / 1000):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def start_match(sandbox, game: str, challenger: str, opponent: str, options: str = "") -> str:
    """A started match between two sandbox users, through the sandbox's API; answers its thread's id."""
    text = f"/play game:{game} opponent:{opponent}" + (f" options:{options}" if options else "")
    answer = sandbox.call("/api/send", {"user": challenger, "text": text})
    assert answer.get("ok") and not answer.get("errors"), answer

    def lobby():
        for message in reversed(sandbox.call(f"/api/messages?user={opponent}")):
            for row in message["components"]:
                for button in row.get("components", []):
                    if re.fullmatch(r"hx:lobby:accept:\d+", button.get("custom_id", "")):
                        return message, button["custom_id"]
        return None

    message, accept = wait_until(
        lobby, f"the lobby (the bot answered {answer}; {challenger} sees {last_words(sandbox, challenger)})"
    )
    answer = sandbox.call("/api/press", {"user": opponent, "message": message["id"], "custom_id": accept})
    assert answer.get("ok") and not answer.get("errors"), answer

    def thread():
        for found in sandbox.call(f"/api/messages?user={opponent}"):
            if found["id"] == message["id"] and found.get("thread"):
                return found["thread"]["id"]
        return None

    return wait_until(thread, "the match's thread")


def last_words(sandbox, user: str) -> list[str]:
    return [m["content"][:80] for m in sandbox.call(f"/api/messages?user={user}")[-3:]]


def boards_in(sandbox, user: str, thread: str) -> list[dict]:
    """The board posts (messages with a picture) of a thread, as ``user`` sees them."""
    return [m for m in sandbox.call(f"/api/messages?user={user}&channel={thread}") if m["attachments"]]


def open_chat(browser, sandbox, user: str, thread: str, viewport=PHONE):
    page = browser.new_page(viewport=viewport, has_touch=True)
    page.set_default_timeout(TIMEOUT)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"{sandbox.url}/{user}#{thread}")
    page.wait_for_function("typeof socket !== 'undefined' && socket !== null && socket.readyState === 1")
    page.wait_for_selector("#messages .message img")
    return page


def open_board(page):
    """Press the last board post's Open board button; answers the Activity's frame once its board is drawn."""
    page.locator("#messages .message", has=page.locator("img")).last.get_by_role(
        "button", name=re.compile("Open board|Ouvrir le plateau")
    ).click()
    return activity_frame(page)


def activity_frame(page):
    """The Activity's frame in ``page`` once its board is drawn."""
    frame = page.wait_for_selector("#activity-frame").content_frame()
    assert frame is not None
    frame.wait_for_url(re.compile(r"/activity/\?"))
    frame.wait_for_function("window.hexplay && window.hexplay.page.drawn > 0")
    return frame


def ready_to_build(frame):
    frame.wait_for_function("hexplay.turn.state !== null && !hexplay.turn.busy")


NEXT_FRAME = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def cell_box(frame, cell: str) -> dict:
    """Where ``cell`` is on the screen once it has stayed put over an animation frame: Playwright's own rule
    before a click ("stable"), which a tap at coordinates skips. The board refits when the space around it
    changes (the turn's footer and the panel differ in height from turn to turn)."""
    cell_at = frame.locator(f'#board polygon.cell[data-cell="{cell}"]').first
    box = cell_at.bounding_box()
    for _ in range(50):
        frame.evaluate(NEXT_FRAME)
        now = cell_at.bounding_box()
        if now == box and box is not None:
            return box
        box = now
    raise AssertionError(f"{cell} does not stay put on the screen: {box}")


def tap(page, frame, cell: str) -> dict:
    """A finger's tap at the centre of ``cell`` (a touch event, as on a phone); answers where it tapped."""
    box = cell_box(frame, cell)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    return box


def tap_taken(page, frame, cell: str) -> None:
    """Tap ``cell`` where a tap must do something, and wait until the page took it (``seen.taps``: a tap that
    meant something). Should the board have moved between the look and the tap (a refit in between), the
    tap landed elsewhere: it is tapped again where the cell is now. A tap not taken where the cell still
    is fails: that is the page's fault, not the test's."""
    taken = frame.evaluate("hexplay.seen.taps.length")
    box = tap(page, frame, cell)
    try:
        frame.wait_for_function(f"hexplay.seen.taps.length > {taken}", timeout=5_000)
        return
    except PlaywrightTimeout as waited:
        now = cell_box(frame, cell)
        if now == box:
            raise AssertionError(
                f"a tap on {cell}, where it still is, was not taken: {what_the_page_holds(frame)}"
            ) from waited
        print(f"{cell} moved from {box} to {now} as it was tapped: tapped again", flush=True)
    tap(page, frame, cell)
    frame.wait_for_function(f"hexplay.seen.taps.length > {taken}")


def legal(frame) -> list[dict]:
    return frame.evaluate("hexplay.turn.state.legal")


def choose(page, frame, action: dict) -> None:
    """Tap ``action`` (one of the server's legal next actions): its start, its end, or its button or choice."""
    before = frame.evaluate("hexplay.turn.state.actions.length")
    done = f"hexplay.turn.state.actions.length === {before + 1} && !hexplay.turn.busy"
    if action["from"] is None:
        frame.locator(f'#turn-builder button.option[data-notation="{action["notation"]}"]').click()
    else:
        tap_taken(page, frame, action["from"])
        if action["to"] is not None:
            frame.wait_for_function(f"hexplay.turn.source === {action['from']!r} || {CHOOSING} || ({done})")
            if frame.evaluate("hexplay.turn.source") is not None:
                tap_taken(page, frame, action["to"])
        frame.wait_for_function(f"{CHOOSING} || ({done})")
        if frame.locator("#chooser").is_visible():
            frame.locator(f'#chooser button.option[data-notation="{action["notation"]}"]').click()
    frame.wait_for_function(done)


def play_turn(page, frame, notations: list[str]) -> None:
    """Build a turn of these actions by tapping, then press Play."""
    ready_to_build(frame)
    for notation in notations:
        found = next((a for a in legal(frame) if a["notation"] == notation), None)
        assert found is not None, f"{notation} is not among the legal actions {[a['notation'] for a in legal(frame)]}"
        choose(page, frame, found)
    frame.locator("#play").click()


def what_the_page_holds(frame) -> str:
    """The Activity's state in one line, printed when a browser test fails (what a screenshot cannot show: the
    versions, whether the turn builder waits for the server, the notice's words)."""
    try:
        return frame.evaluate(
            """() => JSON.stringify({
                latest: hexplay.page.latest
                    && {version: hexplay.page.latest.match.version, plies: hexplay.page.latest.plies},
                viewing: hexplay.page.ply,
                turn: {match: hexplay.turn.match, version: hexplay.turn.version, busy: hexplay.turn.busy,
                       playing: hexplay.turn.playing, source: hexplay.turn.source, pending: hexplay.turn.pending,
                       actions: hexplay.turn.state && hexplay.turn.state.actions,
                       legal: hexplay.turn.state && hexplay.turn.state.legal.length},
                notice: document.querySelector('#notice').hidden ? null : document.querySelector('#notice').textContent,
            })"""
        )
    except Exception as error:  # the page itself may be what broke
        return f"(could not read the page: {error!r})"


def plies(frame) -> int:
    return frame.evaluate("hexplay.page.latest ? hexplay.page.latest.plies : -1")


def move(sandbox, user: str, thread: str, notation: str) -> None:
    answer = sandbox.call("/api/send", {"user": user, "text": f"/move move:{notation}", "channel": thread})
    assert answer.get("ok") and not answer.get("errors"), answer
