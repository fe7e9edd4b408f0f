"""The sandbox in a real browser (Debian's Chromium driven by Playwright): two players in two pages.

Skipped with the reason when Playwright or Chromium is missing; `.ci/run` installs both.
Screenshots go to $HEXPLAY_SCREENSHOTS (default: the test's tmp folder) to be looked at.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.sandbox_process import SandboxProcess

CHROMIUM = next(
    (
        p
        for p in (shutil.which("chromium"), shutil.which("chromium-browser"), "/usr/bin/chromium")
        if p and os.path.exists(p)
    ),
    None,
)
if os.environ.get("HEXPLAY_REQUIRE_BROWSER"):  # .ci/run: these tests must run there
    assert CHROMIUM, "HEXPLAY_REQUIRE_BROWSER is set but Debian's chromium is not installed"
    import playwright.sync_api as sync_api
else:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')"
    )
    if CHROMIUM is None:
        pytest.skip(
            "Debian's chromium is not installed (apt-get install -y chromium; .ci/run does it)", allow_module_level=True
        )
TIMEOUT = 30_000  # ms for anything the bot has to do (generous: CI machines are shared)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    process = SandboxProcess(tmp_path_factory.mktemp("sandbox") / "data")
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
    return lambda page, name: page.screenshot(path=str(folder / f"{name}.png"))


def open_page(browser, sandbox, user):
    page = browser.new_page(viewport={"width": 1100, "height": 820})
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{sandbox.url}/{user}")
    page.wait_for_selector("#channel-list .channel")
    # Act only once the live socket is open and its refresh done, so no update is missed.
    page.wait_for_function("typeof socket !== 'undefined' && socket !== null && socket.readyState === 1")
    page.wait_for_load_state("networkidle")
    page.errors = errors
    return page


def type_and_pick(page, text, label):
    """Type into the composer, then click the pop-up suggestion whose label starts with ``label``."""
    composer = page.locator("#composer")
    composer.type(text)
    page.locator("#popup .item .label", has_text=label).first.click()


def wait_boards(page, count):
    page.wait_for_function(f"document.querySelectorAll('#messages .message img').length >= {count}")


def open_thread(page):
    page.locator(".channel.thread").first.click()
    page.wait_for_selector("#messages .message img")


def test_two_players_play_bide_in_two_pages(browser, sandbox, shots):
    alice, bob = open_page(browser, sandbox, "alice"), open_page(browser, sandbox, "bob")
    try:
        play_a_short_bide_game(alice, bob, sandbox, shots)
    except Exception:
        shots(alice, "failed-alice")  # what each page showed when it failed
        shots(bob, "failed-bob")
        raise


def play_a_short_bide_game(alice, bob, sandbox, shots):

    # alice builds /play from the pop-ups: the command, the game's choices, the user list.
    alice.locator("#composer").click()
    type_and_pick(alice, "/pl", "/play")
    type_and_pick(alice, "game:", "Bide")
    type_and_pick(alice, "opponent:", "bob")
    assert alice.locator("#composer").input_value() == "/play game:bide opponent:bob "
    alice.keyboard.press("Enter")
    lobby = bob.locator(".message", has_text="invites you to play Bide")
    lobby.wait_for()
    shots(bob, "1-lobby-seen-by-bob")

    # bob accepts with the button; the match's thread appears for both, with the board picture. Other tests of
    # this module's sandbox may have left threads: wait for this match's (threads are listed newest first).
    threads = {page: page.locator(".channel.thread").count() for page in (alice, bob)}
    lobby.get_by_role("button", name="Accept").click()
    for page in (bob, alice):
        page.wait_for_function(f"document.querySelectorAll('.channel.thread').length > {threads[page]}")
        open_thread(page)
    assert alice.locator("#messages .message img").first.evaluate("img => img.naturalWidth") > 300

    # alice's move from the bot's own autocomplete (an AUTOCOMPLETE interaction through the emulator).
    alice.locator("#composer").click()
    alice.locator("#composer").type("/move move:e")
    suggestion = alice.locator("#popup .item .label", has_text="e5")
    suggestion.first.wait_for()
    shots(alice, "2-autocomplete")
    suggestion.first.click()
    assert alice.locator("#composer").input_value() == "/move move:e5 "
    alice.keyboard.press("Enter")
    wait_boards(bob, 2)
    assert "e5" in bob.locator(".message").last.inner_text()

    # bob plays "bide" with the board's button.
    bob.locator(".message").last.get_by_role("button", name="Bide").click()
    wait_boards(alice, 3)
    assert "bob" in alice.locator(".message").last.inner_text()
    shots(alice, "3-thread-after-two-turns")

    # A private answer (/board) is shown to alice only.
    alice.locator("#composer").type("/board")
    alice.keyboard.press("Escape")
    alice.keyboard.press("Enter")
    private = alice.locator(".message.ephemeral")
    private.first.wait_for()
    assert "Only you can see this" in private.first.inner_text()
    bob.wait_for_timeout(500)
    assert bob.locator(".message.ephemeral").count() == 0

    # A day later by the sandbox clock, alice (to move) gets a reminder in her DMs.
    alice.locator("#clock-panel button", has_text="+1 day").click()
    badge = alice.locator("#dm-link .badge")
    badge.wait_for()
    alice.locator("#dm-link").click()
    alice.wait_for_function("document.querySelector('#channel-title').textContent.includes('Hexplay')")
    reminder = alice.locator(".message", has=alice.get_by_role("button", name="Snooze for this turn"))
    reminder.first.wait_for()
    assert "Bide #1" in reminder.first.inner_text()
    shots(alice, "4-reminder-in-dm")
    assert bob.locator("#dm-link .badge").count() == 0  # it is not bob's turn

    # The reminder's "Open the board" link opens the match's thread in the page, not discord.com.
    reminder.first.get_by_role("button", name="Open the board").click()
    alice.wait_for_selector(".message.highlight")
    assert "Bide #1" in alice.locator("#channel-title").inner_text()

    # alice resigns: the confirmation is private, the result public.
    alice.locator("#composer").type("/resign")
    alice.keyboard.press("Escape")
    alice.keyboard.press("Enter")
    alice.locator(".message.ephemeral").get_by_role("button", name="Yes, resign").click()
    bob.locator(".message", has_text="resign").last.wait_for()
    shots(bob, "5-game-over-seen-by-bob")

    # The replay is an animated GIF attachment, shown in the page.
    bob.locator("#composer").type("/history gif:true")
    bob.keyboard.press("Escape")
    bob.keyboard.press("Enter")
    replay = bob.locator(".message.ephemeral img[src$='.gif']")
    replay.wait_for()
    bob.wait_for_function("img => img.complete && img.naturalWidth > 300", arg=replay.element_handle())
    shots(bob, "6-replay-gif")
    assert alice.locator("#violations").is_hidden()  # the bot broke none of Discord's rules
    assert sandbox.call("/api/debug")["violations"] == []
    assert not alice.errors and not bob.errors, alice.errors + bob.errors


def test_refusals_are_shown_where_the_player_typed(browser, sandbox, shots):
    carol = open_page(browser, sandbox, "carol")
    carol.locator("#composer").click()
    carol.locator("#composer").type("/move")
    carol.keyboard.press("Escape")
    carol.keyboard.press("Enter")
    sync_api.expect(carol.locator("#composer-error")).to_contain_text("Missing: move:")
    carol.locator("#composer").fill("/nosuchcommand")
    carol.keyboard.press("Escape")
    carol.keyboard.press("Enter")
    sync_api.expect(carol.locator("#composer-error")).to_contain_text("There is no command /nosuchcommand")
    shots(carol, "7-refusal")
    assert not carol.errors


def test_on_a_phone_the_channel_list_folds_away_and_pictures_take_the_width(browser, sandbox, shots):
    """Issue 26: at 390 px the sidebar kept ~45% of the width and pictures were 128 px wide; Discord's
    timestamps (<t:…:R>) and escapes (\\( for "(") were shown raw."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{sandbox.url}/carol")
    page.wait_for_function("typeof socket !== 'undefined' && socket !== null && socket.readyState === 1")
    try:
        # The channel list is folded away: the channel takes the width, ☰ brings the list back.
        assert page.locator("#main").bounding_box()["width"] >= 385
        assert page.locator("#sidebar").bounding_box()["x"] + page.locator("#sidebar").bounding_box()["width"] <= 0
        page.locator("#menu").click()
        page.wait_for_function("document.querySelector('#sidebar').getBoundingClientRect().left >= 0")
        page.locator("#channel-list .channel").first.click()
        page.wait_for_function("document.querySelector('#sidebar').getBoundingClientRect().right <= 0")

        # A board picture fills the width of the message column.
        page.locator("#composer").click()
        page.locator("#composer").type("/play game:bump computer:easy")
        page.locator("#popup").wait_for(state="visible")
        page.keyboard.press("Escape")
        page.keyboard.press("Enter")
        page.locator("#menu").click()
        page.locator(".channel.thread").first.click()
        page.wait_for_selector("#messages .message img")
        page.wait_for_function("document.querySelector('#messages .message img').getBoundingClientRect().width > 0")
        width = page.locator("#messages .message img").first.bounding_box()["width"]
        assert width >= 0.8 * 390, width
        shots(page, "phone-390")

        # Discord's markup, as its client shows it.
        now = page.evaluate("Math.floor(Date.now() / 1000) + state.clockOffset")  # the bot's clock
        html = page.evaluate(
            f"markdown('Claim it <t:{now + 23 * 3600 + 60}:R> \\\\(or <t:{now - 7200}:R>\\\\) \\\\*not bold\\\\*')"
        )
        assert "in 23 hours" in html and "2 hours ago" in html, html
        assert "(or" in html and "\\" not in html and "<strong>" not in html and "*not bold*" in html, html
        for style in "tTdDfF":
            shown = page.evaluate(f"markdown('<t:{now}:{style}>')")
            assert "&lt;t:" not in shown and "<time" in shown, (style, shown)
    except Exception:
        shots(page, "failed-phone")
        raise
    finally:
        page.close()


def test_amelie_reads_the_page_in_french_and_its_pop_up_markup_threads_and_clock_behave(browser, sandbox, shots):
    """Issue 37, the sandbox page: its own words stayed English for a French user; a pop-up with a title and no
    suggestions showed "null"; Discord's "-#" subtext was shown raw; a finished match's thread never archived; the
    clock could not be set back to real time from the page."""
    page = open_page(browser, sandbox, "amelie")
    try:
        # The page's own words come from the catalogs in her language, elision included ("en tant qu'alice").
        page.wait_for_function("document.documentElement.lang === 'fr'")
        assert page.locator("#channels .section-title.channels").text_content() == "Salons textuels"
        assert page.locator("#clock-label").text_content() == "Horloge du bac à sable\u202f:"
        assert page.locator("#clock-panel button[data-hours='24']").text_content() == "+1 jour"
        assert "Jouer en tant qu’alice" in page.locator("#new-tab").get_attribute("title")
        assert page.locator("#composer").get_attribute("placeholder").startswith("Envoyer un message dans #games")

        # A pop-up with a title and no suggestions: the title alone, never "null".
        page.locator("#composer").click()
        page.locator("#composer").type("/jouer jeu:bide places:")  # a whole number: no suggestion to offer
        page.wait_for_function("document.querySelector('#popup .title')?.textContent.includes('(nombre entier)')")
        popup = page.locator("#popup").inner_text()
        assert "null" not in popup and page.locator("#popup .item").count() == 0, popup
        page.locator("#composer").fill("")

        # Discord's subtext is small grey text, not "-#".
        html = page.evaluate("markdown('Les notes\\n-# Accuracy: Lichess')")
        assert '<small class="subtext">Accuracy: Lichess</small>' in html and "-#" not in html, html

        # A game with the computer, resigned: its thread leaves the list a week later by the sandbox clock, as a
        # thread idle for its auto-archive duration (7 days: the bot's) does on Discord.
        threads = "[...document.querySelectorAll('.channel.thread')].map((c) => c.dataset.id)"
        before = page.evaluate(threads)
        page.locator("#composer").type("/play game:bide computer:easy")
        page.keyboard.press("Escape")
        page.keyboard.press("Enter")
        page.wait_for_function(f"{threads}.length > {len(before)}")
        [thread] = [id for id in page.evaluate(threads) if id not in before]  # hers: other tests' threads listed too
        # "amelie used /jouer": the command as her Discord names it, whatever she typed.
        page.wait_for_function("document.querySelector('#messages .message .used .mention')?.textContent === '/jouer'")
        page.locator(f'.channel[data-id="{thread}"]').click()
        page.wait_for_selector("#messages .message img")
        page.locator("#composer").type("/resign")
        page.keyboard.press("Escape")
        page.keyboard.press("Enter")
        page.locator(".message.ephemeral").get_by_role("button", name="Oui, abandonner").click()
        page.locator(".message", has_text="Game over").last.wait_for()
        sandbox.call("/api/clock", {"user": "amelie", "hours": 24 * 7 - 1})
        page.wait_for_timeout(300)
        assert page.locator(f'.channel[data-id="{thread}"]').count() == 1  # not yet: idle under a week
        page.locator("#clock-panel button[data-hours='1']").click()
        page.wait_for_function(f"!document.querySelector('.channel[data-id=\"{thread}\"]')")
        shots(page, "french-archived-thread")

        # Back to the real time from the page.
        back = page.locator("#real-time")
        assert back.is_visible() and back.text_content() == "Revenir à l’heure réelle"
        back.click()
        page.wait_for_function("document.querySelector('#clock-offset').textContent === 'heure réelle'")
        assert back.is_hidden() and sandbox.call("/api/state?user=amelie")["clock_offset"] == 0
        assert not page.errors, page.errors
    except Exception:
        shots(page, "failed-french")
        raise
    finally:
        page.close()
