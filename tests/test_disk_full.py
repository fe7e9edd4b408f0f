"""A full disk: the player is told the disk is full and that nothing was saved; the match is untouched."""

from __future__ import annotations

from bot.chat import words


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
