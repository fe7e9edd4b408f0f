"""Challenge limits (docs/rules.md, "Limits"): kept in the database so a restart or a clock step cannot
reset or stretch them, caps on challenges aimed at one person, and players who refuse challenges.

Every test runs on a real SQLite file; the end-to-end ones drive the real bot through the emulator."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.chat.words import settings as setting_words
from bot.domain.clock import ManualClock
from bot.domain.model import ChallengeRefusal
from bot.service.challenge_limits import (
    CAPS,
    CHALLENGES_PER_MINUTE,
    MAX_INVITATIONS_WAITING,
    SAME_PLAYER_PER_DAY,
    Challenge,
)
from bot.service.challenges import ChallengeRefusals
from bot.service.guilds import Guilds
from bot.service.matches import MatchService
from bot.store import open_store
from bot.store.sqlite import SqliteStore
from tests import backends
from tests.botworld import BotWorld
from tests.said import refusal_text, refused

pytestmark = pytest.mark.both_backends

GUILD, OTHER_GUILD, CHANNEL = 9000, 9100, 9001
ALICE, BOB, CAROL = (101, "alice"), (102, "bob"), (103, "carol")
HOUR, DAY = 3600.0, 86400.0


@pytest.fixture
async def env(database):
    """(service, clock, reopen): ``reopen()`` closes the store and gives a new service on the same database,
    as a restart of the bot does."""
    clock = ManualClock()
    stores = [await open_store(database)]

    async def reopen() -> MatchService:
        await stores[-1].close()
        stores.append(await open_store(database))
        return MatchService(stores[-1], clock, default_reminder_hours=24)

    try:
        yield MatchService(stores[0], clock, default_reminder_hours=24), clock, reopen
    finally:
        await stores[-1].close()


async def challenge(service, creator=ALICE, invited=(BOB,), guild=GUILD, **options):
    return await service.create(
        game_id="bide", creator=creator, invited=list(invited), guild_id=guild, channel_id=CHANNEL, **options
    )


def waits(error: pytest.ExceptionInfo) -> int:
    return int(re.search(r"try again in (\d+) s", refusal_text(error.value)).group(1))


# -- item 1: counts that survive a restart and clock steps --------------------------------------


async def test_a_clock_stepped_back_never_makes_a_player_wait_longer_than_the_window(env):
    service, clock, _ = env
    for _ in range(CHALLENGES_PER_MINUTE):
        await challenge(service, invited=(), players=3)
    clock.advance(-HOUR)  # NTP, a VM restored from a snapshot: the three challenges now lie an hour ahead
    with refused(match="challenges a minute") as raised:
        await challenge(service, invited=(), players=3)
    assert 1 <= waits(raised) <= 60
    clock.advance(60)  # a minute after the step at most, whatever the stored times said
    await challenge(service, invited=(), players=3)


async def test_challenge_counts_survive_a_restart(env):
    service, clock, reopen = env
    for _ in range(CHALLENGES_PER_MINUTE):
        await challenge(service, invited=(), players=3)
    clock.advance(20)
    service = await reopen()
    with refused(match="try again in 41 s"):
        await challenge(service, invited=(), players=3)
    clock.advance(41)
    await challenge(service, invited=(), players=3)


async def test_old_challenge_records_are_pruned_as_they_age(env):
    service, clock, _ = env
    await challenge(service)
    clock.advance(DAY + 1)  # past the longest window (the same-player day)
    await challenge(service, creator=CAROL)
    rows = await backends.fetch(service.store, "SELECT challenger_id FROM challenge_events ORDER BY at")
    assert {r[0] for r in rows} == {CAROL[0]}


async def test_every_path_that_invites_asks_the_one_seam(env):
    service, _clock, _ = env

    class Closed:
        """Another implementation (a shared limiter for several processes, say) plugs in the same way."""

        caps = CAPS

        def __init__(self) -> None:
            self.asked: list[Challenge] = []

        async def admit(self, request: Challenge, now: float) -> ChallengeRefusal | None:
            self.asked.append(request)
            return ChallengeRefusal("nobody", request.invited[0][0])

    match = (await service.accept((await challenge(service)).id, BOB[0])).match
    await service.resign(match.id, BOB[0])
    service.limits = closed = Closed()
    with refused(match="^bob is not taking challenges in this server"):
        await challenge(service, creator=CAROL)
    with refused(match="^bob is not taking challenges in this server"):
        await Guilds(service).rematch(match.id, ALICE[0])
    assert [(c.challenger_id, [u for u, _ in c.invited]) for c in closed.asked] == [
        (CAROL[0], [BOB[0]]),
        (ALICE[0], [BOB[0]]),
    ]


async def test_the_bot_still_counts_challenges_after_a_restart(database):
    world = await BotWorld(database).start()
    try:
        alice = world.users[0]
        for _ in range(CHALLENGES_PER_MINUTE):
            made = await world.challenge(alice, seats=3)
            assert not made.ephemeral, made.text
        await world.restart_bot()
        answer = await world.challenge(alice, seats=3)
        assert answer.ephemeral and "challenges a minute; try again in" in answer.text
        violations = list(world.emu.violations)
    finally:
        await world.stop()
    assert violations == []


async def test_a_database_of_version_9_keeps_its_preferences_and_gains_the_limit_tables(tmp_path):
    import sqlite3

    from bot.store.sqlite.migrations import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    for script in MIGRATIONS[:9]:
        db.executescript(script)
    db.execute(
        "INSERT INTO preferences (user_id, guild_id, reminders, delay_hours, via) VALUES (102, 9000, 0, 5, 'ping')"
    )
    db.execute("PRAGMA user_version = 9")
    db.commit()
    db.close()
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        prefs = await store.get_preferences(BOB[0], GUILD)
        assert (prefs.reminders, prefs.delay_hours, prefs.via, prefs.challenges) == (False, 5, "ping", "everyone")
        service = MatchService(store, ManualClock())
        await challenge(service)
        assert await store.blocked_by(BOB[0]) == []
    finally:
        await store.close()


# -- item 2: challenges aimed at one person -----------------------------------------------------


async def test_open_invitations_waiting_on_one_player_are_capped_per_server(env):
    service, clock, _ = env
    challengers = [(200 + i, f"p{i}") for i in range(MAX_INVITATIONS_WAITING)]
    lobbies = [await challenge(service, creator=c) for c in challengers]
    with refused() as raised:
        await challenge(service, creator=CAROL)
    assert refusal_text(raised.value) == (
        f"bob already has {MAX_INVITATIONS_WAITING} challenges waiting for an answer "
        "in this server, so nothing was sent. Try again once they have answered some."
    )
    await challenge(service, creator=CAROL, invited=(ALICE,))  # others are not affected
    await challenge(service, creator=CAROL, guild=OTHER_GUILD)  # nor bob in another server
    await challenge(service, creator=(300, "dan"), invited=(), players=3)  # nor open seats anyone may join
    await service.decline(lobbies[0].id, BOB[0])
    clock.advance(61)
    await challenge(service, creator=CAROL)


async def test_the_same_player_is_challenged_at_most_so_often_a_day_counting_cancelled_ones(env):
    service, clock, _ = env
    for _ in range(SAME_PLAYER_PER_DAY):
        lobby = await challenge(service)
        await service.cancel(lobby.id, ALICE[0])
        clock.advance(61)
    with refused() as raised:
        await challenge(service)
    assert refusal_text(raised.value) == (
        f"You have challenged bob {SAME_PLAYER_PER_DAY} times in the last 24 hours "
        "(cancelled challenges count), so nothing was sent. Try again in 24 h."
    )
    with refused(match="challenged bob"):  # in a lobby of three too
        await challenge(service, invited=(BOB, CAROL))
    with refused(match="challenged bob"):  # and in another server: the same person is pinged
        await challenge(service, guild=OTHER_GUILD)
    await challenge(service, invited=(CAROL,))  # someone else: fine
    await challenge(service, creator=CAROL)  # bob by someone else: fine
    clock.advance(DAY - SAME_PLAYER_PER_DAY * 61 + 61)  # the first one is a day old
    await challenge(service)


async def test_a_player_refuses_challenges_from_everyone_in_a_server_or_from_one_person_everywhere(env):
    service, clock, _ = env
    refusals = ChallengeRefusals(service.store, clock)
    await refusals.update(BOB[0], GUILD, challenges="nobody")
    with refused() as raised:
        await challenge(service)
    assert refusal_text(raised.value).startswith("bob is not taking challenges in this server, so nothing was sent.")
    await challenge(service, guild=OTHER_GUILD)  # the setting is per server
    await refusals.update(BOB[0], GUILD, challenges="everyone", block=ALICE)
    await challenge(service, creator=CAROL)
    clock.advance(61)
    for guild in (GUILD, OTHER_GUILD):  # a block follows the person into every server
        with refused(match="^bob is not taking challenges from you, so nothing was sent.$"):
            await challenge(service, guild=guild)
    with refused(match="bob is not taking challenges from you"):
        await challenge(service, invited=(CAROL, BOB))  # one refusing invitee refuses the whole lobby
    assert await service.store.open_lobbies(ALICE[0], GUILD) == 0  # nothing was created
    await refusals.update(BOB[0], GUILD, unblock=ALICE)
    await challenge(service)
    shown = await refusals.settings(BOB[0], GUILD)
    assert "from everyone" in setting_words.challenge_settings(shown.challenges, shown.blocked)


async def test_refusal_settings_refuse_nonsense_with_a_reason(env):
    service, clock, _ = env
    refusals = ChallengeRefusals(service.store, clock)
    with refused(match="cannot block yourself"):
        await refusals.update(BOB[0], GUILD, block=BOB)
    with refused(match="everyone or nobody"):
        await refusals.update(BOB[0], GUILD, challenges="some")
    with refused(match="not blocked"):
        await refusals.update(BOB[0], GUILD, unblock=ALICE)
    await refusals.update(BOB[0], GUILD, block=ALICE)
    await refusals.update(BOB[0], GUILD, block=ALICE)  # twice is once
    assert await service.store.blocked_by(BOB[0]) == [ALICE[0]]


async def test_a_rematch_obeys_the_same_rules_and_computer_seats_are_never_limited(env):
    service, clock, _ = env
    servers = Guilds(service)
    match = (await service.accept((await challenge(service)).id, BOB[0])).match
    await service.resign(match.id, BOB[0])
    await ChallengeRefusals(service.store, clock).update(ALICE[0], GUILD, block=BOB)
    with refused(match="alice is not taking challenges from you"):
        await servers.rematch(match.id, BOB[0])
    clock.advance(61)
    assert (await servers.rematch(match.id, ALICE[0])).status == "lobby"  # alice may still ask bob
    # against the computer: no per-person cap, however often (only alice's own pace counts)
    for _ in range(SAME_PLAYER_PER_DAY + MAX_INVITATIONS_WAITING + 1):
        clock.advance(61)
        lobby = await challenge(service, invited=(), computer="easy")
        started = await service.start_if_ready(lobby.id)
        await service.resign(started.match.id, ALICE[0])
        clock.advance(61)
        again = await servers.rematch(started.match.id, ALICE[0])
        assert (await service.start_if_ready(again.id)).started


async def test_a_refused_challenge_is_told_privately_and_pings_nobody(world):
    alice, bob, carol = world.users[:3]
    said = await world.emu.invoke(bob, world.channel, "settings", {"challenges": "nobody"})
    assert said.ephemeral and "not taking challenges in this server" in said.text
    before = len(world.emu.messages(world.channel))
    answer = await world.challenge(alice, [bob])
    assert answer.ephemeral and answer.text.startswith("bob is not taking challenges in this server")
    assert f"<@{bob.id}>" not in answer.text and answer.response.pinged == []
    assert len(world.emu.messages(world.channel)) == before  # no lobby, no ping
    await world.emu.invoke(bob, world.channel, "settings", {"challenges": "everyone", "block": carol})
    shown = await world.emu.invoke(bob, world.channel, "settings", {})
    assert shown.ephemeral and "from everyone except" in shown.text and f"<@{carol.id}>" in shown.text
    assert shown.response.pinged == []
    answer = await world.challenge(carol, [bob])
    assert answer.ephemeral and answer.text == "bob is not taking challenges from you, so nothing was sent."
    made = await world.challenge(alice, [bob])
    assert not made.ephemeral and made.response.pinged == [bob.id]
    itself = await world.emu.invoke(bob, world.channel, "settings", {"block": bob})
    assert itself.ephemeral and "cannot block yourself" in itself.text


async def test_a_rematch_to_a_player_who_blocked_the_presser_is_refused_privately(world):
    alice, bob = world.users[:2]
    _match_id, thread = await world.start_two_player()
    asked = await world.emu.invoke(bob, thread, "resign", {})
    await world.emu.press(bob, asked.response, asked.response.buttons()[0]["custom_id"])
    final = None
    for _ in range(500):
        final = next((m for m in world.emu.messages(thread) if "Game over" in m.content and m.attachments), None)
        if final is not None:
            break
        await asyncio.sleep(0.01)
    rematch = next(b for b in final.buttons() if b["label"] == "Rematch")["custom_id"]
    await world.emu.invoke(bob, world.channel, "settings", {"block": alice})
    before = len(world.emu.messages(world.channel))
    answer = await world.emu.press(alice, final, rematch)
    assert answer.ephemeral and answer.text == "bob is not taking challenges from you, so nothing was sent."
    assert (
        len(world.emu.messages(world.channel)) == before
        and (await world.service.store.open_lobbies(alice.id, world.guild.id)) == 0
    )
    offered = await world.emu.press(bob, final, rematch)  # bob may still ask alice
    assert offered.ephemeral and "Rematch offered" in offered.text
