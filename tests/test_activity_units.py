"""The Activity server's small parts: users' tokens kept boundedly and asked about once, each user's pace, the
chat layer's sentences made plain for a page, the page's language before the user is known."""

from __future__ import annotations

import asyncio

import pytest

from bot.domain.model import MatchRow, SeatRow
from bot.web.identity import Identities, Identity, Pace, Unauthorized
from bot.web.server import _accepted
from bot.web.views import plain


class FakeDiscord:
    """Discord's /users/@me as the Identities see it (the real one is tested end to end)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def me(self, token: str) -> Identity:
        self.calls.append(token)
        await asyncio.sleep(0.01)
        if token.startswith("bad"):
            raise Unauthorized(token)
        return Identity(int(token.removeprefix("t")), f"user{token}", "fr")


async def test_one_token_asked_at_once_is_one_call_and_bad_ones_are_not_kept() -> None:
    discord = FakeDiscord()
    identities = Identities(discord, keep_for=60, capacity=3)  # type: ignore[arg-type]
    found = await asyncio.gather(*(identities.of("t1") for _ in range(5)))
    assert {i.user_id for i in found} == {1} and discord.calls == ["t1"]
    for _ in range(2):
        with pytest.raises(Unauthorized):
            await identities.of("bad")
    assert discord.calls == ["t1", "bad", "bad"]  # a refused token is asked about again, never kept
    for token in ("t2", "t3", "t4"):
        await identities.of(token)
    await identities.of("t1")  # forgotten (the least recently used, beyond 3): asked again
    assert discord.calls[-1] == "t1" and len(identities._known) == 3
    for missing in (None, "", "x" * 600):
        with pytest.raises(Unauthorized):
            await identities.of(missing)


def test_a_users_pace_is_a_token_bucket() -> None:
    pace = Pace(rate=10, burst=3, capacity=2)
    assert [pace.take(1, now=0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert pace.take(1, now=0.0) == pytest.approx(0.1)  # the fourth at once waits a tenth of a second
    assert pace.take(1, now=0.1) == 0.0  # one token back after 0.1 s
    assert pace.take(2, now=0.1) == 0.0  # another user has their own bucket
    pace.take(3, now=0.2)
    assert 1 not in pace._buckets  # at most two users followed: the longest idle forgotten (a full bucket)


def test_the_chat_layers_sentences_read_plainly_on_a_page() -> None:
    match = MatchRow(
        id=7,
        game="begird",
        options={},
        players=2,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        lobby_message_id=None,
        board_channel_id=None,
        board_message_id=None,
        creator_id=10,
        status="active",
        state=None,
        version=1,
        created_at=0.0,
        updated_at=0.0,
        turn_started_at=None,
        result=None,
        seats=[SeatRow(1, 10, "alice"), SeatRow(2, 11, "bob")],
    )
    said = "It is not your turn in **Begird #7**: <@11> is to move \\(see `/board`\\)."
    assert plain(said, match) == "It is not your turn in Begird #7: bob is to move (see /board)."


@pytest.mark.parametrize(
    ("header", "language"),
    [("fr-FR,fr;q=0.9,en;q=0.8", "fr"), ("de-DE, fr;q=0.5", "fr"), ("de", "en"), (None, "en"), ("en-GB", "en")],
)
def test_the_pages_language_before_the_user_is_known(header, language) -> None:
    assert _accepted(header) == language
