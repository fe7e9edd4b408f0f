"""A full disk or a read-only database: the player is told why and that nothing was saved; the match is
untouched."""

from __future__ import annotations

from bot.chat import words
from bot.chat.words import errors


async def fill_the_disk(store) -> None:
    """The database may not grow past its size now, as on a full disk (SQLite answers SQLITE_FULL alike)."""
    async with store.transaction() as db:
        await db.execute("CREATE TABLE IF NOT EXISTS filler (data BLOB)")
    async with store.reading() as db:
        pages = (await (await db.execute("PRAGMA page_count")).fetchone())[0]
        await db.execute(f"PRAGMA max_page_count = {pages + 1}")
    try:
        while True:
            async with store.transaction() as db:
                await db.execute("INSERT INTO filler VALUES (zeroblob(2000))")
    except Exception as error:
        assert "disk is full" in str(error), error


async def test_a_move_on_a_full_disk_says_so_and_changes_nothing(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    await fill_the_disk(world.store)
    players = [alice, bob]
    for turn in range(40):  # a move fits in its table's last page until it does not
        before = await world.service.get(match_id)
        answer = await world.emu.invoke(players[turn % 2], thread, "move", {"move": "bide"})
        if answer.ephemeral:
            break
    else:
        raise AssertionError("the database never filled up")
    assert answer.text == words.REFUSALS["disk_full"]({})
    after = await world.service.get(match_id)
    assert (after.version, after.state) == (before.version, before.state)
    assert len(await world.store.moves(match_id)) == turn

    async with world.store.reading() as db:
        await db.execute("PRAGMA max_page_count = 1073741823")  # the operator frees space
    assert not (await world.emu.invoke(players[turn % 2], thread, "move", {"move": "bide"})).ephemeral
    assert (await world.service.get(match_id)).version == before.version + 1


async def refuse_writes(store) -> None:
    """Every write now fails as on a read-only file: SQLite answers SQLITE_READONLY and stores nothing."""
    async with store.reading() as db:
        await db.execute("PRAGMA query_only = 1")


async def test_a_read_only_database_says_nothing_was_saved_never_may_or_may_not(world):
    alice, bob = world.users[:2]
    match_id, thread = await world.start_two_player()
    before = await world.service.get(match_id)
    await refuse_writes(world.store)
    moved = await world.emu.invoke(alice, thread, "move", {"move": "bide"})  # a move: the store's one transaction
    explored = await world.emu.invoke(bob, thread, "explore", {})  # a private board, stored outside any move
    await explored.wait_followups(1)
    for answer in (moved, explored):
        text = answer.text if answer.ephemeral and not answer.messages else answer.messages[-1].content
        assert text == errors.read_only_database(), text
        assert errors.something_went_wrong() not in text
    after = await world.service.get(match_id)
    assert (after.version, after.state) == (before.version, before.state)

    async with world.store.reading() as db:
        await db.execute("PRAGMA query_only = 0")  # the operator makes it writable again
    assert not (await world.emu.invoke(alice, thread, "move", {"move": "bide"})).ephemeral
    assert (await world.service.get(match_id)).version == before.version + 1
