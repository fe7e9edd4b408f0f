"""The rules of bank clocks at the service: which time control a match gets, who has a bank, what ends a
turn without the increment."""

from __future__ import annotations

from bot.domain.bank import BankClock
from bot.domain.model import GuildSettings
from bot.service.guilds import Guilds
from bot.service.matches import MatchService
from bot.service.offers import Offers
from tests.said import refused

GUILD, CHANNEL = 9000, 9001
ALICE, BOB, CAROL = (101, "alice"), (102, "bob"), (103, "carol")
HOUR = 3600.0
CLOCK = BankClock(10 * HOUR, 4 * HOUR, 12 * HOUR)


async def started(service: MatchService, players=(ALICE, BOB), **options):
    service.clock.advance(61)  # past the challenge rate limit
    match = await service.create(
        game_id="bide", creator=players[0], invited=list(players[1:]), guild_id=GUILD, channel_id=CHANNEL, **options
    )
    for user in players[1:]:
        await service.accept(match.id, user[0])
    if len(players) == 1:  # against the computer alone: nobody to wait for
        await service.start_if_ready(match.id)
    return await service.get(match.id)


def banks(match) -> list[float | None]:
    return [None if s.bank is None else s.bank / HOUR for s in sorted(match.seats, key=lambda s: s.seat)]


async def test_the_servers_clock_applies_unless_the_match_names_days_a_clock_or_none(service):
    await service.store.set_guild_settings(GUILD, GuildSettings(days_per_move=3, clock=CLOCK), 1.0)
    assert (await started(service)).clock == CLOCK
    own = await started(service, clock_text="1d+12h max 2d")
    assert own.clock == BankClock(24 * HOUR, 12 * HOUR, 48 * HOUR) and own.days_per_move is None
    days = await started(service, days_per_move=7)
    assert (days.clock, days.days_per_move) == (None, 7)
    off = await started(service, clock_text="off")  # no bank clock: the server's days per move
    assert (off.clock, off.days_per_move) == (None, 3)
    with refused(match="not both"):
        await started(service, clock_text="10h+4h max 12h", days_per_move=1)


async def test_a_rematch_keeps_the_clock_and_starts_every_bank_full(service):
    match = await started(service, clock_text="10h+4h max 12h")
    service.clock.advance(5 * HOUR)
    await service.play(match.id, ALICE[0], "e5")
    await service.resign(match.id, BOB[0])
    again = await Guilds(service).rematch(match.id, ALICE[0])
    await service.accept(again.id, BOB[0])
    fresh = await service.get(again.id)
    assert fresh.clock == CLOCK and banks(fresh) == [10, 10]


async def test_the_computer_has_no_bank_and_a_person_against_it_alone_has_no_running_clock(service):
    match = await started(service, (ALICE,), clock_text="10h+4h max 12h", computer="easy")
    assert match.status == "active" and match.deadline_at is None
    assert banks(match) == [10, None]
    service.clock.advance(50 * HOUR)
    await service.play(match.id, ALICE[0], "e5")
    assert banks(await service.get(match.id)) == [10, None]  # nothing was running: nothing charged


async def test_each_of_three_players_has_a_bank_and_a_takeback_earns_no_increment(service):
    match = await started(service, (ALICE, BOB, CAROL), clock_text="10h+4h max 12h")
    service.clock.advance(HOUR)
    await service.play(match.id, ALICE[0], "e5")
    service.clock.advance(2 * HOUR)
    await service.play(match.id, BOB[0], "a1")
    assert banks(await service.get(match.id)) == [12, 12, 10]
    service.clock.advance(3 * HOUR)  # carol thinks, then bob asks to take his turn back and all agree
    offers = Offers(service)
    notice = await offers.offer(match.id, BOB[0], "undo")
    await offers.answer(match.id, ALICE[0], "undo", notice.at_seq, accept=True)
    await offers.answer(match.id, CAROL[0], "undo", notice.at_seq, accept=True)
    after = await service.get(match.id)
    assert banks(after) == [12, 12, 7]  # carol's 3 h were spent, with no increment: she played no turn
    assert after.deadline_at == service.clock.now() + 12 * HOUR  # bob's turn again, with his bank
