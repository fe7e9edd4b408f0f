"""The Activity in the sandbox, in a real browser (Debian's Chromium driven by Playwright), at phone width.

Each page is the sandbox's chat of one player; its board post's **Open board** button (the bot answers
LAUNCH_ACTIVITY) opens the Activity beside the chat (over it at 390 px), in an iframe whose parent speaks
the Embedded App SDK's postMessage protocol to the unchanged SDK (sandbox/static/activity.js). The players
then tap the board as a newcomer would: the tests read where to tap from the server's answers the page
holds (``window.hexplay``), never from rules of their own.

Skipped with the reason when Playwright, Chromium or the built page (Node.js) is missing; `.ci/run`
installs all three (HEXPLAY_REQUIRE_BROWSER). Screenshots go to $HEXPLAY_SCREENSHOTS (default: the test's
tmp folder) to be looked at.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.activity_pages import (
    boards_in,
    choose,
    legal,
    move,
    open_board,
    open_chat,
    play_turn,
    ready_to_build,
    start_match,
    tap,
    wait_until,
    what_the_page_holds,
)
from tests.sandbox_process import ROOT, SandboxProcess

CHROMIUM = next(
    (
        p
        for p in (shutil.which("chromium"), shutil.which("chromium-browser"), "/usr/bin/chromium")
        if p and os.path.exists(p)
    ),
    None,
)
BUILT = ROOT / "activity" / "dist" / "index.html"
if os.environ.get("HEXPLAY_REQUIRE_BROWSER"):  # .ci/run: these tests must run there
    assert CHROMIUM, "HEXPLAY_REQUIRE_BROWSER is set but Debian's chromium is not installed"
    assert BUILT.exists(), "HEXPLAY_REQUIRE_BROWSER is set but the Activity page is not built (make activity)"
    import playwright.sync_api as sync_api
else:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')"
    )
    if CHROMIUM is None:
        pytest.skip(
            "Debian's chromium is not installed (apt-get install -y chromium; .ci/run does it)", allow_module_level=True
        )
    if not BUILT.exists():
        pytest.skip(
            "the Activity page is not built: Node.js and npm are missing (apt-get install nodejs npm, then make)",
            allow_module_level=True,
        )

# A short Begird on the small board: alice's stones link islands 6 apart on her 9th turn, bob's lie apart.
BEGIRD_ALICE = ["j5", "i5", "h5", "g5", "f5", "e4", "d3", "c2", "b1"]
BEGIRD_BOB = ["a5", "j1", "a4", "j2", "b6", "i1", "c7", "h1"]
# Bump after these two turns: the first player's shift 01 → 02 bumps, and which pieces it pushes is a choice.
BUMP_OPENING = ["111-0", "191,281-0"]
BUMP_CHOICE = "01,02-2 (13)"


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    process = SandboxProcess(tmp_path_factory.mktemp("activity") / "data")
    process.keep_reading()
    yield process
    status, output = process.interrupt()
    process.kill()
    assert status == 0, output


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield browser
        browser.close()


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("HEXPLAY_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return lambda page, name: page.screenshot(path=str(folder / f"activity-{name}.png"))


# ---------------------------------------------------------------------------------------------------- tests


def test_a_whole_begird_match_played_by_tapping_at_phone_width(browser, sandbox, shots):
    thread = start_match(sandbox, "begird", "alice", "bob", "board=small")
    alice, bob = open_chat(browser, sandbox, "alice", thread), open_chat(browser, sandbox, "bob", thread)
    alice_board = bob_board = None
    try:
        alice_board, bob_board = open_board(alice), open_board(bob)
        # At 390 px the Activity takes the screen, as Discord's phone app does.
        frame_box = alice.locator("#activity-frame").bounding_box()
        assert frame_box["width"] >= 385 and frame_box["height"] >= 780, frame_box
        shots(alice, "begird-opened-390")
        # The small board's cell names read at 390 px without zooming (they fit their cells at 10 px or more).
        labels = alice_board.locator("#board .layer-labels")
        assert labels.evaluate("layer => getComputedStyle(layer).display") != "none"
        assert alice_board.locator('#board .layer-labels text:text-is("e5")').count() == 1
        assert alice_board.evaluate("hexplay.page.latest.you.to_move") is True
        posts = lambda: len(boards_in(sandbox, "alice", thread))  # noqa: E731
        for turn in range(len(BEGIRD_ALICE)):
            # (not bob's page's count: the answer to his own Play comes after its board post, maybe after this)
            before = 2 * turn
            play_turn(alice, alice_board, [BEGIRD_ALICE[turn]])
            bob_board.wait_for_function(f"hexplay.page.latest.plies >= {before + 1}")  # the other Activity redraws
            # Each Play posts the thread's board, as /move does (waiting for it keeps to Discord's pace of 5 posts a
            # channel in 5 s; faster, a board held back is replaced by the next one, by design).
            wait_until(lambda n=before: posts() >= n + 2, "the Play's board post")
            if turn == 0:
                shots(bob, "begird-bob-sees-alice-move")
            if turn == len(BEGIRD_ALICE) - 1:
                break
            play_turn(bob, bob_board, [BEGIRD_BOB[turn]])
            alice_board.wait_for_function(f"hexplay.page.latest.plies === {before + 2}")
            wait_until(lambda n=before: posts() >= n + 3, "the Play's board post")
        alice_board.wait_for_function("hexplay.page.latest.match.status !== 'active'")
        bob_board.wait_for_function("hexplay.page.latest.match.status !== 'active'")
        assert not alice_board.evaluate("hexplay.turn.active()") and not bob_board.evaluate("hexplay.turn.active()")
        shots(alice, "begird-won-alice")
        shots(bob, "begird-lost-bob")
        assert "b1" in boards_in(sandbox, "alice", thread)[-1]["content"]  # the final board
        # History: step back to the first stone and forth again.
        alice_board.locator("#first").click()
        alice_board.wait_for_function("hexplay.page.view.ply === 0 && !hexplay.page.view.latest")
        alice_board.locator("#next").click()
        alice_board.wait_for_function("hexplay.page.view.ply === 1")
        assert alice_board.locator('#board .layer-pieces [data-cell="j5"]').count() == 1
        assert alice_board.locator('#board .layer-pieces [data-cell="i5"]').count() == 0
        alice_board.locator("#last").click()
        alice_board.wait_for_function("hexplay.page.view.latest")
        assert sandbox.call("/api/debug")["violations"] == []
        assert not alice.errors and not bob.errors, alice.errors + bob.errors
    except Exception:
        shots(alice, "failed-begird-alice")
        shots(bob, "failed-begird-bob")
        for name, board in (("alice", alice_board), ("bob", bob_board)):
            print(f"{name}'s board:", what_the_page_holds(board) if board is not None else "not opened")
        raise
    finally:
        alice.close()
        bob.close()


def test_a_play_does_not_fetch_the_position_its_answer_brings(browser, sandbox, shots):
    """The live notice of the page's own Play comes before the Play's answer (the server tells watchers as it
    stores the turn): fetching the view then asked for what the answer brings, while the bot drew and posted the
    thread's board (benchmarks/bench_activity.py). The opponent's turn is still fetched at its notice."""
    # bob challenges (alice's 3 challenges a minute go to the other tests): he moves first, by tapping
    thread = start_match(sandbox, "begird", "bob", "alice", "board=small")
    bob = open_chat(browser, sandbox, "bob", thread)
    try:
        frame = open_board(bob)
        match_id = frame.evaluate("hexplay.page.latest.match.id")
        view_url = re.compile(rf"/api/activity/matches/{match_id}(\?|$)")
        fetched: list[str] = []
        bob.on("request", lambda r: r.method == "GET" and view_url.search(r.url) and fetched.append(r.url))
        posted = len(boards_in(sandbox, "bob", thread))
        play_turn(bob, frame, [BEGIRD_ALICE[0]])
        frame.wait_for_function("hexplay.page.latest.plies === 1 && !hexplay.turn.playing")
        wait_until(lambda: len(boards_in(sandbox, "bob", thread)) > posted, "the Play's board post")
        assert fetched == [], fetched
        # The socket's hello tells the version read when it connected: on a busy machine it may come after the Play
        # has drawn a later one. A notice of an older version fetches nothing (only the opponent's turn below).
        frame.evaluate("hexplay.live.hooks.onVersion(hexplay.page.latest.match.version - 1)")
        move(sandbox, "alice", thread, BEGIRD_BOB[0])
        frame.wait_for_function("hexplay.page.latest.plies === 2")
        assert len(fetched) == 1, fetched
        assert not bob.errors, bob.errors
    except Exception:
        shots(bob, "failed-own-play-notice")
        raise
    finally:
        bob.close()


def test_a_notice_that_brings_nothing_newer_keeps_the_turn_being_built(browser, sandbox, shots):
    """Two notices of one version (a notice and the socket's hello after it reconnects, or the fallback's look)
    fetch the view twice. The second answer is no newer than the board drawn: drawing it again restarted the turn
    builder, and a tap made between the two answers was lost (the whole-match test timed out so under load)."""
    thread = start_match(sandbox, "begird", "bob", "alice", "board=small")
    bob = open_chat(browser, sandbox, "bob", thread)
    try:
        frame = open_board(bob)
        ready_to_build(frame)
        stone = next(a for a in legal(frame) if a["notation"] == BEGIRD_ALICE[0])
        choose(bob, frame, stone)
        fetched = frame.evaluate("hexplay.seen.noticesFetched")
        drawn = frame.evaluate("hexplay.page.drawn")
        # a notice of a version the page has not drawn; the view it fetches is the one drawn (as the second of two)
        frame.evaluate("hexplay.live.hooks.onVersion(hexplay.page.latest.match.version + 1)")
        frame.wait_for_function(f"hexplay.seen.noticesFetched > {fetched}")
        assert frame.evaluate("hexplay.turn.state && hexplay.turn.state.actions") == [BEGIRD_ALICE[0]]
        assert frame.evaluate("hexplay.page.drawn") == drawn
        frame.locator("#play").click()
        frame.wait_for_function("hexplay.page.latest.plies === 1 && !hexplay.turn.playing")
        assert not bob.errors, bob.errors
    except Exception:
        shots(bob, "failed-notice-nothing-newer")
        print("bob's board:", what_the_page_holds(frame) if "frame" in locals() else "not opened")
        raise
    finally:
        bob.close()


def test_a_bump_turn_with_a_bump_choice(browser, sandbox, shots):
    thread = start_match(sandbox, "bump", "alice", "bob")
    alice = open_chat(browser, sandbox, "alice", thread)
    try:
        frame = open_board(alice)
        first, second = ("alice", "bob") if frame.evaluate("hexplay.page.latest.you.to_move") else ("bob", "alice")
        move(sandbox, first, thread, BUMP_OPENING[0])
        move(sandbox, second, thread, BUMP_OPENING[1])
        frame.wait_for_function("hexplay.page.latest.plies === 2")  # seen live, from the /move commands
        if first != "alice":
            alice.close()
            alice = open_chat(browser, sandbox, first, thread)
            frame = open_board(alice)
        ready_to_build(frame)
        choice = next(a for a in legal(frame) if a["notation"] == BUMP_CHOICE)
        siblings = [a for a in legal(frame) if (a["from"], a["to"]) == (choice["from"], choice["to"])]
        assert len(siblings) > 1  # the same taps lead to several turns: the page asks which
        tap(alice, frame, choice["from"])
        frame.wait_for_function(f"hexplay.turn.source === {choice['from']!r}")
        tap(alice, frame, choice["to"])
        chooser = frame.locator("#chooser")
        chooser.wait_for(state="visible")
        assert chooser.locator("button.option").count() == len(siblings)
        shots(alice, "bump-choice-390")
        chooser.locator(f'button.option[data-notation="{BUMP_CHOICE}"]').click()
        frame.wait_for_function("hexplay.turn.state.actions.length === 1 && !hexplay.turn.busy")
        shots(alice, "bump-preview-390")
        frame.locator("#play").click()
        frame.wait_for_function("hexplay.page.latest.plies === 3")
        wait_until(lambda: len(boards_in(sandbox, first, thread)) >= 4, "the board post of the Play")
        last = boards_in(sandbox, first, thread)[-1]
        assert "(13)" in last["content"] + str(last["embeds"]), last
        assert not alice.errors, alice.errors
    except Exception:
        shots(alice, "failed-bump")
        raise
    finally:
        alice.close()


def test_a_play_bai_turn_of_three_actions(browser, sandbox, shots):
    thread = start_match(sandbox, "playbai", "carol", "bob")
    carol = open_chat(browser, sandbox, "carol", thread)
    try:
        frame = open_board(carol)
        first, second = ("carol", "bob") if frame.evaluate("hexplay.page.latest.you.to_move") else ("bob", "carol")
        move(sandbox, first, thread, "b2-b3 b3-b4")  # the kick-off: two moves
        if second != "carol":
            carol.close()
            carol = open_chat(browser, sandbox, second, thread)
            frame = open_board(carol)
        frame.wait_for_function("hexplay.page.latest.plies === 1")
        ready_to_build(frame)
        chosen = []
        for _ in range(3):
            action = next(a for a in legal(frame) if a["from"] is not None)  # the server's best first
            choose(carol, frame, action)
            chosen.append(action["notation"])
        assert frame.evaluate("hexplay.turn.state.can_end") is True
        assert frame.evaluate("hexplay.turn.state.notation") == ",".join(chosen)
        shots(carol, "playbai-three-actions-390")
        frame.locator("#play").click()
        frame.wait_for_function("hexplay.page.latest.plies === 2")
        wait_until(lambda: len(boards_in(sandbox, second, thread)) >= 3, "the board post of the Play")
        assert not carol.errors, carol.errors
    except Exception:
        shots(carol, "failed-playbai")
        raise
    finally:
        carol.close()


def test_a_tap_in_someone_elses_match_does_nothing_and_a_forged_token_is_refused(browser, sandbox, shots):
    thread = start_match(sandbox, "begird", "alice", "bob", "board=small")
    carol = open_chat(browser, sandbox, "carol", thread)  # in the server, not in the match: she may watch
    try:
        frame = open_board(carol)
        assert frame.evaluate("hexplay.page.latest.you.player") is False
        assert frame.locator("#turn-builder").is_hidden() and frame.locator("#match-actions button").count() == 0
        requests: list[str] = []
        carol.on("request", lambda request: requests.append(request.url))
        tap(carol, frame, "e5")
        carol.wait_for_timeout(300)
        assert frame.locator("#board .highlight").count() == 0 and frame.locator("#chooser").is_hidden()
        assert not [url for url in requests if "/api/activity/" in url], requests
        # Her page with a token Discord never gave: the next look at the match (alice moves, the live notice
        # comes) is refused before anything is read, and the page says to reopen the board.
        frame.evaluate("hexplay.api.token = 'forged-' + hexplay.api.token")
        move(sandbox, "alice", thread, "e5")
        frame.wait_for_function("hexplay.page.locked")
        notice = frame.locator("#notice")
        assert notice.is_visible() and "open it again" in notice.inner_text(), notice.inner_text()
        shots(carol, "forged-token-390")
        tap(carol, frame, "f6")
        assert frame.locator("#board .highlight").count() == 0
        # The sandbox's client refuses to AUTHENTICATE with it, as Discord's does.
        status = carol.evaluate(
            "fetch('/api/activity/authenticate', {method: 'POST', headers: {'Content-Type': 'application/json'},"
            " body: JSON.stringify({access_token: 'forged'})}).then((r) => r.status)"
        )
        assert status == 401
        assert not carol.errors, carol.errors
    except Exception:
        shots(carol, "failed-watcher")
        raise
    finally:
        carol.close()


def test_the_activity_speaks_french_to_amelie(browser, sandbox, shots):
    thread = start_match(sandbox, "bide", "amelie", "bob")
    amelie = open_chat(browser, sandbox, "amelie", thread)
    try:
        frame = open_board(amelie)
        frame.wait_for_function("document.documentElement.lang === 'fr'")
        if frame.evaluate("hexplay.page.latest.you.to_move"):
            ready_to_build(frame)
            assert "touchez une case" in frame.locator("#turn-builder").inner_text()
            assert frame.locator("#play").inner_text() == "Jouer"
        assert frame.locator("#match-actions [data-action=resign]").inner_text() == "Abandonner"
        assert "é" in frame.locator("#app").inner_text() or "à" in frame.locator("#app").inner_text().lower()
        shots(amelie, "french-390")
        assert not amelie.errors, amelie.errors
    finally:
        amelie.close()
    desktop = open_chat(browser, sandbox, "amelie", thread, viewport={"width": 1280, "height": 800})
    try:
        open_board(desktop)
        frame_box = desktop.locator("#activity-frame").bounding_box()
        assert frame_box["width"] < 1280 * 0.6  # beside the chat, not over it
        assert desktop.locator("#messages").is_visible()
        shots(desktop, "french-desktop")
    finally:
        desktop.close()


def test_the_app_launcher_opens_the_players_matches_their_turn_first(browser, sandbox, shots):
    """The Entry Point command (the Activities button in the sandbox's header) opens the list, not a match."""
    # (each player may start 3 challenges a minute: these are carol's only ones here, and bob's second)
    start_match(sandbox, "begird", "bob", "carol", "board=small")  # bob is to move in it
    mine = start_match(sandbox, "begird", "carol", "amelie", "board=small")  # carol is to move in it
    page = open_chat(browser, sandbox, "carol", mine)
    try:
        page.locator("#menu").click()
        page.locator("#channel-list .channel:not(.thread)").first.click()  # #games, where no match lives
        page.locator("#launcher").click()
        frame = page.wait_for_selector("#activity-frame").content_frame()
        frame.wait_for_selector("#list .match")
        first = frame.locator("#list .match").first
        assert "yours" in (first.get_attribute("class") or "")
        yours = frame.locator("#list .match.yours").count()
        assert frame.locator("#list .match").nth(yours).get_attribute("class") == "match"  # theirs after
        shots(page, "launcher-list-390")
        first.click()
        frame.wait_for_function("window.hexplay.page.drawn > 0 && hexplay.page.latest.you.to_move")
        assert frame.locator("#back").is_visible()
        # Launched from a match's thread, the Activity runs in that thread (as Discord starts it in the channel
        # where the launcher was used), still on the list: the launcher opens the player's matches.
        page.locator("#activity-close").click()
        page.locator("#menu").click()
        page.locator(f'#channel-list .channel[data-id="{mine}"]').click()
        page.locator("#launcher").click()
        frame = page.wait_for_selector("#activity-frame").content_frame()
        frame.wait_for_function("window.hexplay && hexplay.page.me !== null")
        assert frame.evaluate("hexplay.page.sdk.channelId") == mine
        frame.wait_for_selector("#list .match")
        assert not page.errors, page.errors
    finally:
        page.close()
