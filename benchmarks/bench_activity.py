"""The Activity at phone size on a slow phone: Chromium at 390 × 844 with a 4× CPU slowdown (CDP
Emulation.setCPUThrottlingRate), in the sandbox, a Begird match on the small board played to its end.

Figures, each the median and the worst of its samples, printed beside their goals and the `/move` baseline
measured in the same run:

- first paint: from the sandbox client opening the Activity's frame (the bot answered LAUNCH_ACTIVITY) to the
  board on the screen (the frame after it was drawn), the SDK's handshake, sign-in and the match's view
  included — reopened several times;
- a tap answered: from the touch event to the frame showing its highlight (the page alone), and to the
  position the tap leads to (the server's turn builder answered and the preview drawn);
- Play → the thread's board post: from the Play press to the board post in the player's chat page, beside
  `/move` typed in the other player's chat page (Enter → its board post), turn for turn in the same match.

    python benchmarks/bench_activity.py   # needs Chromium (apt-get install chromium) and the built page (make)
"""

from __future__ import annotations

import datetime as dt
import os
import statistics
import sys
import tempfile
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


def main() -> int:
    if not (ROOT / "activity" / "dist" / "index.html").exists():
        raise SystemExit("the Activity page is not built: run make (it needs Node.js and npm)")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        sandbox = SandboxProcess(Path(folder) / "data")
        sandbox.keep_reading()
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            thread = start_match(sandbox, "begird", "alice", "bob", "board=small")
            alice, bob = open_chat(browser, sandbox, "alice", thread), open_chat(browser, sandbox, "bob", thread)
            slow_down(alice)
            slow_down(bob)
            paints = first_paints(alice)
            frame = open_board(alice)
            plays: list[float] = []  # to the board post stored by Discord
            moves: list[float] = []
            plays_shown: list[float] = []  # to the board post shown in the player's chat
            moves_shown: list[float] = []
            for turn, cell in enumerate(ALICE):
                progress(f"turn {2 * turn + 1}: alice taps {cell} and plays")
                frame.wait_for_function("hexplay.turn.state !== null && !hexplay.turn.busy")
                tap(alice, frame, cell)
                frame.wait_for_function("hexplay.turn.state.actions.length === 1 && !hexplay.turn.busy")

                def press_play() -> float:
                    frame.locator("#play").click()
                    return frame.evaluate(
                        "performance.timeOrigin + performance.getEntriesByName('hexplay:play').pop().startTime"
                    )

                stored, shown = board_post_after(alice, press_play, sandbox, thread)
                plays.append(stored)
                plays_shown.append(shown)
                if turn == len(BOB):
                    break
                frame.wait_for_function(f"hexplay.page.latest.plies === {2 * turn + 1}")

                def type_move(notation=BOB[turn]) -> float:
                    bob.locator("#composer").fill(f"/move move:{notation}")
                    bob.keyboard.press("Escape")
                    started = bob.evaluate("performance.timeOrigin + performance.now()")
                    bob.keyboard.press("Enter")
                    return started

                stored, shown = board_post_after(bob, type_move, sandbox, thread)
                moves.append(stored)
                moves_shown.append(shown)
                frame.wait_for_function(f"hexplay.page.latest.plies === {2 * turn + 2}")
            taps = frame.evaluate("hexplay.seen.taps")
            previews = frame.evaluate("hexplay.seen.previews")
        finally:
            browser.close()
            sandbox.interrupt()
            sandbox.kill()
    print(f"The Activity in Chromium at 390 × 844, {SLOWDOWN}× CPU slowdown (Begird, small board, to its end)")
    print(f"  (load average while it ran: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(line("first paint after the Activity opens", paints, "goal: under 1000 ms"))
    print(line("a tap answered on the screen (the page)", taps, "goal: under 100 ms"))
    print(line("a tap to the position it leads to (server)", previews, ""))
    print(line("Play → the thread's board post, posted", plays, "goal: no slower than /move"))
    print(line("/move → the thread's board post, posted", moves, "(the baseline)"))
    print(line("Play → the board post in the player's chat", plays_shown, ""))
    print(line("/move → the board post in the player's chat", moves_shown, ""))
    ok = (
        max(paints) < 1000
        and statistics.median(taps) < 100
        and statistics.median(plays) <= statistics.median(moves) * 1.1
    )
    print("within the goals" if ok else "OUTSIDE THE GOALS")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
