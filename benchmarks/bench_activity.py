"""The Activity at phone size on a slow phone: Chromium at 390 × 844 with a 4× CPU slowdown (CDP
Emulation.setCPUThrottlingRate), in the sandbox, Begird matches on the small board played to their end.

Figures, each the median and the worst of its samples, printed beside their goals and the `/move` baseline
measured in the same run:

- first paint: from the sandbox client opening the Activity's frame (the bot answered LAUNCH_ACTIVITY) to the
  board on the screen (the frame after it was drawn), the SDK's handshake, sign-in and the match's view
  included — reopened several times;
- a tap answered: from the touch event to the frame showing its highlight (the page alone), and to the
  position the tap leads to (the server's turn builder answered and the preview drawn);
- Play → the thread's board post: from the Play press to the board post in the player's chat page, beside
  `/move` typed in the other player's chat page (Enter → its board post), turn for turn in the same match. Two
  matches, alice tapping in the first and bob in the second, so that each side opens one game and ends one (a
  first picture and a winning one cost more than the others); each turn's figure is printed too.

    python benchmarks/bench_activity.py   # needs Chromium (apt-get install chromium) and the built page (make)
"""

from __future__ import annotations

import datetime as dt
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright

from tests.activity_pages import open_board, open_chat, start_match, tap
from tests.sandbox_process import ROOT, SandboxProcess

CHROMIUM = "/usr/bin/chromium"
SLOWDOWN = 4
REOPENINGS = 5
ALICE = ["j5", "i5", "h5", "g5", "f5", "e4", "d3", "c2", "b1"]  # tests/test_activity_browser.py's short Begird
BOB = ["a5", "j1", "a4", "j2", "b6", "i1", "c7", "h1"]
TURNS = [cell for pair in zip_longest(ALICE, BOB) for cell in pair if cell]  # alice's 9th turn ends the game
NEW_BOARD = """() => { window.nextBoardPost = new Promise((resolve, reject) => {
  const count = () => document.querySelectorAll('#messages .message img').length;
  const before = count();
  new MutationObserver((changes, observer) => {
    if (count() > before) { observer.disconnect(); resolve(performance.timeOrigin + performance.now()); }
  }).observe(document.querySelector('#messages'), {childList: true, subtree: true});
  setTimeout(() => reject(new Error('no board post within 30 s')), 30000);
}); }"""


def slow_down(page) -> None:
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})


def line(name: str, samples: list[float], goal: str) -> str:
    median, worst = statistics.median(samples), max(samples)
    return f"  {name:<44} median {median:7.0f} ms   worst {worst:7.0f} ms   n={len(samples):<3} {goal}"


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def first_paints(page) -> list[float]:
    """Open the Activity, measure, close it; again."""
    found: list[float] = []
    for _ in range(REOPENINGS):
        progress(f"opening the Activity ({len(found) + 1} of {REOPENINGS})")
        frame = open_board(page)
        frame.wait_for_function("hexplay.seen.firstPaint > 0")
        opened = page.evaluate("ActivityHost.current().openedAt")
        found.append(frame.evaluate("hexplay.seen.firstPaint") - opened)
        page.locator("#activity-close").click()
        page.wait_for_selector("#activity-frame", state="detached")
    return found


def board_post_after(page, act, sandbox, thread) -> tuple[float, float]:
    """Milliseconds from ``act()``'s own start time (epoch ms) to the next board post: stored by the imitation
    Discord (its message's time), and shown in ``page``'s chat."""
    page.evaluate(NEW_BOARD)  # (the promise is kept on the page: evaluate would wait for it)
    started = act()
    shown = page.evaluate("() => window.nextBoardPost") - started
    posts = [m for m in sandbox.call(f"/api/messages?user=alice&channel={thread}") if m["attachments"]]
    stored = dt.datetime.fromisoformat(posts[-1]["time"]).timestamp() * 1000 - started
    return stored, shown


@dataclass
class Turns:
    """Milliseconds from each turn's start to its board post: stored by the imitation Discord, and shown in the
    mover's chat; Play's and /move's, and each turn's kind in turn order."""

    plays: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)
    plays_shown: list[float] = field(default_factory=list)
    moves_shown: list[float] = field(default_factory=list)
    order: list[tuple[str, float]] = field(default_factory=list)


def one_match(browser, sandbox, tapper: str, turns: Turns) -> tuple[list[float], list[float], list[float]]:
    """A Begird on the small board where ``tapper`` plays by tapping and Play, the other player by typing /move;
    alice moves first and her last turn ends the game. Its first paints (alice's match only), taps and previews."""
    thread = start_match(sandbox, "begird", "alice", "bob", "board=small")
    pages = {name: open_chat(browser, sandbox, name, thread) for name in ("alice", "bob")}
    try:
        for page in pages.values():
            slow_down(page)
        paints = first_paints(pages[tapper]) if tapper == "alice" else []
        frame = open_board(pages[tapper])
        for turn, cell in enumerate(TURNS):
            mover = "alice" if turn % 2 == 0 else "bob"
            page = pages[mover]
            frame.wait_for_function(f"hexplay.page.latest.plies === {turn}")  # the Activity shows the last turn
            if mover == tapper:
                progress(f"{tapper}'s match, turn {turn + 1}: {mover} taps {cell} and plays")
                frame.wait_for_function("hexplay.turn.state !== null && !hexplay.turn.busy")
                tap(page, frame, cell)
                frame.wait_for_function("hexplay.turn.state.actions.length === 1 && !hexplay.turn.busy")

                def press_play() -> float:
                    frame.locator("#play").click()
                    return frame.evaluate(
                        "performance.timeOrigin + performance.getEntriesByName('hexplay:play').pop().startTime"
                    )

                stored, shown = board_post_after(page, press_play, sandbox, thread)
                turns.plays.append(stored)
                turns.plays_shown.append(shown)
                turns.order.append(("Play", stored))
            else:
                progress(f"{tapper}'s match, turn {turn + 1}: {mover} types /move {cell}")

                def type_move(page=page, notation=cell) -> float:
                    page.locator("#composer").fill(f"/move move:{notation}")
                    page.keyboard.press("Escape")
                    started = page.evaluate("performance.timeOrigin + performance.now()")
                    page.keyboard.press("Enter")
                    return started

                stored, shown = board_post_after(page, type_move, sandbox, thread)
                turns.moves.append(stored)
                turns.moves_shown.append(shown)
                turns.order.append(("/move", stored))
        frame.wait_for_function(f"hexplay.page.latest.plies === {len(TURNS)}")
        return paints, frame.evaluate("hexplay.seen.taps"), frame.evaluate("hexplay.seen.previews")
    finally:
        for page in pages.values():
            page.close()


def main() -> int:
    if not (ROOT / "activity" / "dist" / "index.html").exists():
        raise SystemExit("the Activity page is not built: run make (it needs Node.js and npm)")
    turns = Turns()
    paints: list[float] = []
    taps: list[float] = []
    previews: list[float] = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        sandbox = SandboxProcess(Path(folder) / "data")
        sandbox.keep_reading()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            for tapper in ("alice", "bob"):  # each way opens and ends one game: like turns on both sides
                painted, tapped, previewed = one_match(browser, sandbox, tapper, turns)
                paints += painted
                taps += tapped
                previews += previewed
        finally:
            browser.close()
            sandbox.interrupt()
            sandbox.kill()
    plays, moves = turns.plays, turns.moves
    print(f"The Activity in Chromium at 390 × 844, {SLOWDOWN}× CPU slowdown (Begird, small board, to its end)")
    print(f"  (load average while it ran: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(line("first paint after the Activity opens", paints, "goal: under 1000 ms"))
    print(line("a tap answered on the screen (the page)", taps, "goal: under 100 ms"))
    print(line("a tap to the position it leads to (server)", previews, ""))
    print(line("Play → the thread's board post, posted", plays, "goal: no slower than /move"))
    print(line("/move → the thread's board post, posted", moves, "(the baseline)"))
    print(line("Play → the board post in the player's chat", turns.plays_shown, ""))
    print(line("/move → the board post in the player's chat", turns.moves_shown, ""))
    print("  each turn, posted (ms, in turn order; a match's first turn opens it, its last ends it):")
    for number, first in enumerate(range(0, len(turns.order), len(TURNS)), start=1):
        said = [f"{kind} {ms:.0f}" for kind, ms in turns.order[first : first + len(TURNS)]]
        print(f"    match {number}: " + ", ".join(said))
    ok = (
        max(paints) < 1000
        and statistics.median(taps) < 100
        and statistics.median(plays) <= statistics.median(moves) * 1.1
    )
    print("within the goals" if ok else "OUTSIDE THE GOALS")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
