"""Computer seats in Discord (issue 11), end to end: the real bot, the emulator and the real search.

The games are small (Bide side 4, Begird's small board, Bump) and the level easy
(a few hundredths of a second a turn), so a whole game takes seconds.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.domain.replay import replay
from bot.domain.seats import game_of, player_names, user_to_move
from bot.service.computer import ComputerPlayer, turn_seed
from bot.service.schedule import DAY

THINK_TIMEOUT = 30.0  # seconds a computer turn may take on a busy 2-core machine (easy takes ~0.05 s)


class BlockingThinker:
    """Thinks forever (until cancelled): the computer stays "thinking" for as long as a test needs."""

    def __init__(self, draw_answer: bool = False) -> None:
        self.asked: list[tuple[str, int]] = []
        self.draw_answer = draw_answer

    async def turn(self, state, level, seed):
        self.asked.append((level, seed))
        await asyncio.Event().wait()

    async def draw(self, state, player, seed):
        self.asked.append(("draw", seed))
        return self.draw_answer

    def close(self) -> None:
        pass


def hold_the_computer(world, thinker) -> None:
    """Swap the bot's process pool for a test thinker (the real one is shut down)."""
    world.bot.chat.computer.thinker.close()
    world.bot.chat.computer.thinker = thinker


async def play_computer(world, game="bide", **options):
    """alice starts a match against the computer with /play; returns (match_id, thread, result)."""
    alice = world.users[0]
    result = await world.emu.invoke(alice, world.channel, "play", {"game": game, **options})
    assert not result.ephemeral, result.text
    thread = await world.wait_thread()
    match = await world.store.match_by_thread(thread.id)
    assert match is not None and match.status == "active"
    return match.id, thread, result


async def until(predicate, timeout: float = THINK_TIMEOUT, step: float = 0.02):
    async def wait():
        while True:
            value = await predicate()
            if value:
                return value
            await asyncio.sleep(step)

    return await asyncio.wait_for(wait(), timeout)


async def humans_turn_or_over(world, match_id, human_id):
    """Until the person is to move (or the game is over) and the latest board is posted, as a player waits."""

    async def ready():
        match = await world.store.get_match(match_id)
        game = game_of(match)
        to_move = game.is_over or user_to_move(match, game) == human_id
        return to_move and match.announced_version >= match.version

    await until(ready)


def plain(text: str) -> str:
    """Message text without Discord's markdown escapes (names are escaped: ``Hexplay \\(easy\\)``)."""
    return text.replace("\\", "")


def no_computer_pings(world) -> None:
    """No message anywhere pings a pseudo user id (computer seats are below zero)."""
    for message in world.emu.all_messages():
        assert "<@-" not in message.content, message.content


async def test_a_whole_bide_game_against_the_easy_computer(world):
    alice = world.users[0]
    match_id, thread, started = await play_computer(world, computer="easy", options="side=4")
    match = await world.service.get(match_id)
    computer = next(s for s in match.seats if s.is_computer)
    assert computer.computer == "easy" and computer.user_id < 0 and computer.name == "Hexplay (easy)"
    assert player_names(match) == ["alice", "⚙ AI easy"]  # short, to fit every picture's table
    assert "🤖 Hexplay (easy)" in plain(world.emu.message(started.response.id).content)  # the lobby says who plays
    first = next(m for m in world.emu.messages(thread) if m.attachments)
    assert "begins" in first.content and f"<@{alice.id}>" in first.content and "🤖" in first.content
    rng = random.Random(11)
    for _ in range(200):
        game = await world.game(match_id)
        if game.is_over:
            break
        assert (await world.user_to_move(match_id)) is alice  # the computer has answered before alice moves
        legal = [n for n in game.legal_notations() if n != "bide"] or game.legal_notations()
        played = await world.emu.invoke(alice, thread, "move", {"move": rng.choice(legal)})
        assert not played.ephemeral, played.text
        if not (await world.game(match_id)).is_over:
            assert "is thinking" in played.text and "🤖 Hexplay (easy)" in plain(played.text)
            assert (await world.store.get_reminder(match_id)) is None  # never a reminder for the computer
        await humans_turn_or_over(world, match_id, alice.id)
    match = await world.service.get(match_id)
    assert match.status == "finished"
    moves = await world.store.moves(match_id)
    assert {m.user_id for m in moves} == {alice.id, computer.user_id}
    assert replay(match, moves).to_json() == match.state  # the log replays to the state
    # one board per turn, in the order of the log: each computer board comes after the board before it
    await until(lambda: _settled(world, match_id))
    boards = [m for m in world.emu.messages(thread) if m.attachments][1:]
    authors = ["computer" if m.content.startswith("**🤖 Hexplay") else "alice" for m in boards]
    assert authors == ["computer" if m.user_id < 0 else "alice" for m in moves], "\n".join(m.content for m in boards)
    final = boards[-1].content
    assert "Game over" in final and f"<@{alice.id}>" in final
    no_computer_pings(world)
    assert not await world.bot.chat.ratings.settle(match)  # never rated: the computer played
    assert await world.store.leaderboard(world.guild.id, "bide") == []
    # Rematch: the computer is ready at once, so the new match starts (seats rotated: the computer opens)
    rematch = next(b for b in boards[-1].buttons() if b["label"] == "Rematch")
    pressed = await world.emu.press(alice, boards[-1], rematch["custom_id"])
    assert pressed.ephemeral and "Rematch started" in pressed.text
    again = await world.store.get_match(match_id + 1)
    assert again.status == "active" and [s.computer for s in again.seats] == ["easy", None]
    await humans_turn_or_over(world, again.id, alice.id)
    assert [m.user_id for m in await world.store.moves(again.id)] == [computer.user_id]
    no_computer_pings(world)


async def _settled(world, match_id):
    match = await world.store.get_match(match_id)
    return match.announced_version >= match.version


async def test_inviting_the_bot_seats_the_medium_computer_and_it_answers(world):
    alice = world.users[0]
    match_id, thread, _ = await play_computer(world, game="begird", opponent=world.emu.bot, options="board=small")
    match = await world.service.get(match_id)
    assert [(s.name, s.computer) for s in match.seats] == [("alice", None), ("Hexplay (medium)", "medium")]
    game = await world.game(match_id)
    played = await world.emu.invoke(alice, thread, "move", {"move": game.legal_notations()[0]})
    assert not played.ephemeral, played.text
    answer = await world.emu.wait_for_message(
        thread, check=lambda m: m.content.startswith("**🤖 Hexplay"), timeout=THINK_TIMEOUT
    )
    assert f"<@{alice.id}>, your move" in answer.content and answer.attachments
    assert (await world.game(match_id)).ply == 2


async def test_two_computer_seats_in_bide_play_one_after_the_other(world):
    alice = world.users[0]
    match_id, thread, _ = await play_computer(world, computer="easy", computers=2, options="side=4")
    match = await world.service.get(match_id)
    seats = sorted(match.seats, key=lambda s: s.seat)
    assert [(s.user_id, s.name) for s in seats] == [
        (alice.id, "alice"),
        (-1, "Hexplay 1 (easy)"),
        (-2, "Hexplay 2 (easy)"),
    ]
    assert player_names(match) == ["alice", "⚙ AI 1 easy", "⚙ AI 2 easy"]
    await world.emu.invoke(alice, thread, "move", {"move": "d4"})
    await humans_turn_or_over(world, match_id, alice.id)
    assert (await world.game(match_id)).ply == 3
    moves = await world.store.moves(match_id)
    assert [m.user_id for m in moves] == [alice.id, -1, -2]
    no_computer_pings(world)


async def test_a_restart_while_the_computer_thinks_resumes_its_turn(world):
    alice = world.users[0]
    match_id, thread, _ = await play_computer(world, computer="easy", options="side=4")
    blocking = BlockingThinker()
    hold_the_computer(world, blocking)
    await world.emu.invoke(alice, thread, "move", {"move": "d4"})
    await until(lambda: _async(bool(blocking.asked)))
    assert world.bot.chat.computer.thinking(match_id)
    assert blocking.asked == [("easy", turn_seed(match_id, 1))]  # seeded by match and ply
    await world.restart_bot()  # a stop in the middle of its thinking
    await humans_turn_or_over(world, match_id, alice.id)
    moves = await world.store.moves(match_id)
    assert [m.user_id for m in moves] == [alice.id, -1]  # played once, after the restart
    await until(lambda: _settled(world, match_id))
    computer_boards = [m for m in world.emu.messages(thread) if m.content.startswith("**🤖 Hexplay")]
    assert len(computer_boards) == 1


async def _async(value):
    return value


async def test_the_computer_gets_no_reminders_deadlines_or_claims(world):
    alice = world.users[0]
    match_id, thread, _ = await play_computer(world, computer="easy", options="side=4", days=1)
    match = await world.service.get(match_id)
    assert match.days_per_move == 1 and match.deadline_at is None  # nobody could claim alice's time
    hold_the_computer(world, BlockingThinker())
    await world.emu.invoke(alice, thread, "move", {"move": "d4"})
    match = await world.service.get(match_id)
    assert match.deadline_at is None and await world.store.get_reminder(match_id) is None
    world.clock.advance(40 * DAY)
    before = len(world.emu.all_messages())
    assert await world.bot.reminders.run_once() == 0
    assert len(world.emu.all_messages()) == before  # no DM, no ping, no time-out notice
    claim = await world.bot.chat.timelimits.due()
    assert claim == []


async def test_hint_is_private_and_only_where_allowed(world):
    alice, bob = world.users[:2]
    match_id, thread, _ = await play_computer(world, computer="easy", options="side=4")
    asked = await world.emu.invoke(alice, thread, "hint", {})
    await asked.wait_followups(1, timeout=THINK_TIMEOUT)
    assert asked.ephemeral and "Hint: the medium computer would play `" in asked.text
    notation = asked.text.split("`")[1]
    assert notation in (await world.game(match_id)).legal_notations()
    assert f"Play it with `/move move:{notation}`" in asked.text  # the command as it is typed (issue 37)
    assert " played " not in asked.text and "would play" in asked.text.split("\n")[1], asked.text
    assert asked.followups[0].attachments  # the board after the hinted move
    assert (await world.game(match_id)).ply == 0  # nothing was played
    stranger = await world.emu.invoke(bob, thread, "hint", {"match": match_id})
    assert stranger.ephemeral and "not a player" in stranger.text
    # between people: refused unless the match was created with hints
    _, people = await world.start_two_player(options="side=4")
    refused = await world.emu.invoke(alice, people, "hint", {})
    assert refused.ephemeral and "No hints" in refused.text
    lobby = await world.challenge(alice, [bob], options="side=4", hints=True)
    assert "hints allowed" in lobby.response.content
    accept = next(b for b in lobby.response.buttons() if b["label"] == "Accept")
    await world.emu.press(bob, lobby.response, accept["custom_id"])
    agreed = await world.wait_thread(int(accept["custom_id"].rsplit(":", 1)[1]))
    not_yours = await world.emu.invoke(bob, agreed, "hint", {})
    assert not_yours.ephemeral and "for your own turn" in not_yours.text
    allowed = await world.emu.invoke(alice, agreed, "hint", {})
    await allowed.wait_followups(1, timeout=THINK_TIMEOUT)
    assert allowed.ephemeral and "Hint:" in allowed.text


@pytest.mark.parametrize("accepts", [False, True])
async def test_the_computer_answers_a_draw_offer(world, accepts):
    alice = world.users[0]
    match_id, thread, _ = await play_computer(world, game="bump", computer="easy")
    hold_the_computer(world, BlockingThinker(draw_answer=accepts))
    offer = await world.emu.invoke(alice, thread, "draw", {})
    assert not offer.ephemeral and "the computer is considering it" in offer.text
    assert "<@-" not in offer.text
    word = "Accepted" if accepts else "declined"
    shown = await until(lambda: _async(word in world.emu.message(offer.response.id).content))
    assert shown and world.emu.message(offer.response.id).buttons() == []
    match = await world.service.get(match_id)
    if accepts:
        assert match.status == "finished" and match.result["winners"] == []
        final = await until(
            lambda: _async([m for m in world.emu.messages(thread) if "agreed a draw" in m.content and m.attachments])
        )
        assert f"<@{alice.id}>" in final[0].content
    else:
        assert match.status == "active"
    no_computer_pings(world)


async def test_the_real_search_decides_a_draw_offer_off_the_loop(world):
    alice = world.users[0]
    _match_id, thread, _ = await play_computer(world, game="bump", computer="easy")
    offer = await world.emu.invoke(alice, thread, "draw", {})
    answered = await until(
        lambda: _async(any(w in world.emu.message(offer.response.id).content for w in ("Accepted", "declined")))
    )
    assert answered


async def test_bad_computer_requests_get_a_clear_private_reason(world):
    alice, bob = world.users[:2]
    too_many = await world.emu.invoke(
        alice, world.channel, "play", {"game": "bide", "computer": "easy", "computers": 4, "seats": 4}
    )
    assert too_many.ephemeral and "do not fit in 4 seats" in too_many.text
    two_seat = await world.emu.invoke(alice, world.channel, "play", {"game": "begird", "computers": 2})
    assert two_seat.ephemeral and "Begird" in two_seat.text
    crowded = await world.emu.invoke(
        alice, world.channel, "play", {"game": "begird", "opponent": bob, "computer": "hard"}
    )
    assert crowded.ephemeral and "exactly 2 players, not 3 (you, 1 invited player and 1 computer seat)" in crowded.text
    match_id, thread, _ = await play_computer(world, computer="easy", options="side=4")
    hold_the_computer(world, BlockingThinker())
    await world.emu.invoke(alice, thread, "move", {"move": "d4"})
    early = await world.emu.invoke(alice, thread, "move", {"move": "e5"})
    assert early.ephemeral and "not your turn" in early.text and "🤖 Hexplay (easy)" in plain(early.text)
    hint = await world.emu.invoke(alice, thread, "hint", {})
    assert hint.ephemeral and "for your own turn" in hint.text
    assert await world.store.match_by_thread(thread.id) is not None
    assert (await world.game(match_id)).ply == 1


async def test_a_changed_position_makes_the_computer_look_again(world):
    """A version conflict (a takeback while it thought) is not an error: it looks at the new position."""
    alice = world.users[0]
    match_id, thread, _ = await play_computer(world, computer="easy", options="side=4")
    computer: ComputerPlayer = world.bot.chat.computer
    gated = GatedThinker("a1")
    hold_the_computer(world, gated)
    await world.emu.invoke(alice, thread, "move", {"move": "d4"})
    await until(lambda: _async(len(gated.asked) == 1))
    undo = await world.emu.invoke(alice, thread, "undo", {})  # the computer accepts a takeback
    assert not undo.ephemeral and "the computer is considering it" in undo.text
    await until(lambda: _async("Accepted" in world.emu.message(undo.response.id).content))
    gated.gate.set()  # its answer for the old position arrives now
    await until(lambda: _async(not computer.thinking(match_id)))
    moves = await world.store.moves(match_id)
    assert [m.kind for m in moves] == ["turn", "takeback"]  # the stale "a1" was refused by the version guard
    assert (await world.user_to_move(match_id)) is alice and (await world.game(match_id)).ply == 0
    no_computer_pings(world)


class GatedThinker(BlockingThinker):
    """Answers ``notation`` once its gate is opened."""

    def __init__(self, notation: str) -> None:
        super().__init__()
        self.notation = notation
        self.gate = asyncio.Event()

    async def turn(self, state, level, seed):
        self.asked.append((level, seed))
        await self.gate.wait()
        return {"turn": self.notation, "level": level, "seconds": 0.0, "simulations": 0}


def test_thinking_processes_leave_when_the_bot_is_killed(tmp_path):
    """A bot killed without closing its pool (SIGKILL, an unhandled SIGTERM) leaves no thinking process behind."""
    import os
    import subprocess
    import sys
    import time
    from pathlib import Path

    script = tmp_path / "killed_bot.py"
    script.write_text(
        "import asyncio, os, sys\n"
        "from ai.worker import Thinker\n"
        "from games import new_game\n"
        "async def main():\n"
        "    thinker = Thinker(1, start_method='spawn')\n"
        "    await thinker.turn(new_game('bide', 2).to_json(), 'easy', 1)\n"
        "    print(*thinker._pool._processes, flush=True)\n"
        "    os._exit(0)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    workers = [int(pid) for pid in done.stdout.split()]
    assert workers, done.stderr

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True

    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers)


@pytest.mark.parametrize("game, options", [("playbai", "first=2"), ("bump", None)])
async def test_the_computer_plays_every_game(world, game, options):
    """Play Bai's multi-action turns and Bump's chains go through /move's path; with first=2 it opens."""
    alice = world.users[0]
    extra = {"options": options} if options else {}
    match_id, thread, _ = await play_computer(world, game=game, computer="easy", **extra)
    if options == "first=2":  # the computer opens, after the first board
        await humans_turn_or_over(world, match_id, alice.id)
        assert [m.user_id for m in await world.store.moves(match_id)] == [-1]
    state = await world.game(match_id)
    played = await world.emu.invoke(alice, thread, "move", {"move": state.legal_notations()[0]})
    assert not played.ephemeral, played.text
    await humans_turn_or_over(world, match_id, alice.id)
    moves = await world.store.moves(match_id)
    assert [m.user_id for m in moves][-2:] == [alice.id, -1]
    boards = [m for m in world.emu.messages(thread) if m.attachments]
    assert boards[-1].content.startswith("**🤖 Hexplay") and f"<@{alice.id}>, your move" in boards[-1].content
    no_computer_pings(world)


async def test_an_open_seat_beside_the_computer_can_be_joined_or_started_without(world):
    alice, _bob = world.users[:2]
    lobby = await world.emu.invoke(
        alice, world.channel, "play", {"game": "bide", "computer": "easy", "seats": 3, "options": "side=4"}
    )
    message = lobby.response
    assert "1 open seat" in message.content and "the computer, always ready" in message.content
    labels = {b["label"] for b in message.buttons()}
    assert {"Join", "Start", "Cancel"} <= labels and "Accept" not in labels
    start = next(b for b in message.buttons() if b["label"] == "Start")
    pressed = await world.emu.press(alice, message, start["custom_id"])
    assert not pressed.ephemeral, pressed.text
    match_id = int(start["custom_id"].rsplit(":", 1)[1])
    await world.wait_thread(match_id)
    match = await world.service.get(match_id)
    assert match.status == "active" and [(s.seat, s.computer) for s in match.seats] == [(1, None), (2, "easy")]
    no_computer_pings(world)
