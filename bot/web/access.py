"""Who may do what in the Activity, and the calls it makes: each request's user (through Discord), their
language, the matches they see, and the changes they make through the same service calls as the commands.

A player acts only in their own matches (the service's seat checks, as for /move); anyone who is a member of
a match's server may watch it. Membership is asked of Discord through the bot (``Members``) and kept a few
minutes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from i18n import DEFAULT, language_of

from ..domain.errors import Refusal
from ..domain.model import MatchRow
from ..domain.outcome import OfferAnswer, OfferNotice, Outcome
from ..domain.seats import game_of, user_to_move
from ..service.launches import Launches
from ..service.matches import MatchService
from ..service.offers import Offers
from .identity import DiscordOAuth, Identities, Identity, Pace

log = logging.getLogger(__name__)

MEMBERS_KEEP = 300.0  # seconds a "member of that server" answer is kept
LISTED = 50  # matches in the list
# Seconds a Play's answer waits for the thread's board first (as long as /move's mover waits for a board posted
# elsewhere: the announcer's answer_within); a slower Discord is told of by the board's own retries, not the page.
BOARD_FIRST_SECONDS = 2.0


class Members(Protocol):
    """Whether a user is a member of a server the bot is in (the chat layer asks Discord)."""

    async def is_member(self, guild_id: int, user_id: int) -> bool: ...


class Effects(Protocol):
    """What a change made in the Activity does on Discord, as the same change made by a command does."""

    async def announce(self, outcome: Outcome) -> None: ...

    async def post_offer(self, notice: OfferNotice) -> None: ...

    async def offer_answered(self, answer: OfferAnswer) -> None: ...


class Access:
    def __init__(
        self,
        service: MatchService,
        offers: Offers,
        oauth: DiscordOAuth,
        members: Members,
        effects: Effects,
        launches: Launches,
        *,
        identities: Identities | None = None,
        pace: Pace | None = None,
    ) -> None:
        self.service, self.offers, self.oauth = service, offers, oauth
        self.members, self.effects, self.launches = members, effects, launches
        self.identities = identities or Identities(oauth)
        self.pace = pace or Pace()
        self.board_first = BOARD_FIRST_SECONDS
        self.client_id: Callable[[], int | None] = oauth.client_id
        self._members: OrderedDict[tuple[int, int], tuple[float, bool]] = OrderedDict()
        self._effects: set[asyncio.Task[None]] = set()

    async def close(self) -> None:
        if self._effects:  # boards being posted finish (each is retried by the announcer if it fails)
            await asyncio.wait(self._effects, timeout=5)
        await self.oauth.close()

    # -- who ----------------------------------------------------------------------------------------

    async def exchange(self, code: str) -> tuple[dict[str, Any], Identity]:
        granted = await self.oauth.exchange(code)
        return granted, await self.identities.of(granted["access_token"])

    async def language(self, identity: Identity) -> str:
        """The language the user reads: their /settings choice, else their Discord's, else the last one seen."""
        stored = await self.service.languages.stored(identity.user_id)
        seen = language_of(identity.locale) if identity.locale else None
        return stored.chosen or seen or stored.seen or DEFAULT

    async def may_see(self, match_id: int, user_id: int) -> MatchRow:
        """The match, if the user is one of its players or a member of its server; else a refusal."""
        match = await self.service.get(match_id)
        if match.status == "cancelled":
            raise Refusal("no_match", match_id=match_id)
        if match.seat_of(user_id) is None and not await self._member(match.guild_id, user_id):
            raise Refusal("no_match_here", match_id=match_id)  # (a stranger learns nothing of it)
        return match

    async def _member(self, guild_id: int, user_id: int) -> bool:
        key, now = (guild_id, user_id), time.monotonic()
        known = self._members.get(key)
        if known is not None and known[0] > now:
            return known[1]
        member = await self.members.is_member(guild_id, user_id)
        self._members[key] = (now + MEMBERS_KEEP, member)
        while len(self._members) > 10_000:
            self._members.popitem(last=False)
        return member

    # -- what they see ------------------------------------------------------------------------------

    async def matches_of(self, user_id: int, guild_id: int | None) -> list[MatchRow]:
        """The user's lobbies and games (in one server, or every one): their turn first, then oldest turn first."""
        rows = await self.service.store.matches_of_user(user_id, guild_id, ("lobby", "active"))
        rows = await self.service.usable_only(rows)

        def order(match: MatchRow) -> tuple[bool, float]:
            game = game_of(match) if match.state is not None and match.status == "active" else None
            waiting = game is not None and user_to_move(match, game) == user_id
            return not waiting, match.turn_started_at or match.created_at

        return sorted(rows, key=order)[:LISTED]

    async def launched(
        self, user_id: int, instance_id: str | None, channel_id: int | None, mine: list[MatchRow]
    ) -> int | None:
        """The match to open first: the Open board that started this instance, the match of the thread it was
        opened in, or the user's one match waiting for them in that channel."""
        launch = self.launches.of(instance_id)
        if launch is not None:
            return launch.match_id
        if channel_id is None:
            return None
        in_thread = await self.service.store.match_by_thread(channel_id)
        if in_thread is not None and in_thread.status != "cancelled":
            return in_thread.id
        here = [m for m in mine if m.channel_id == channel_id and m.status == "active"]
        waiting = [m for m in here if user_to_move(m, game_of(m)) == user_id]
        return waiting[0].id if len(waiting) == 1 else (here[0].id if len(here) == 1 else None)

    # -- what they do -------------------------------------------------------------------------------

    async def play(
        self, match_id: int, user_id: int, version: int, actions: list[str], seen: MatchRow | None = None
    ) -> Outcome:
        """The turn, through the one path /move takes (compare-and-set on ``version``); then its board, posted
        before the page's answer is built, as /move's board is its answer: built meanwhile, the answer (and the
        page redrawing on it) took the CPU the picture and its post needed, and Play's board came later than
        /move's (docs/activity.md, the figures). The page waits at most ``BOARD_FIRST_SECONDS`` for it.
        ``seen``: the match as just read (saves reading it again)."""
        try:
            text = ",".join(actions)
            outcome = await self.service.play(match_id, user_id, text, expected_version=version, seen=seen)
        except Refusal:
            await self._unless_moved_on(match_id, version)
            raise
        await asyncio.wait({self._after(self.effects.announce(outcome), match_id)}, timeout=self.board_first)
        return outcome

    async def _unless_moved_on(self, match_id: int, version: int) -> None:
        """A turn refused on a position the page no longer shows ("not your turn": the other tab's turn came
        first) is refused as "changed": the page looks again rather than showing a puzzling reason."""
        now = await self.service.read(match_id)
        if now is not None and now.version != version:
            raise Refusal("changed_meanwhile")

    async def resign(self, match_id: int, user_id: int, version: int) -> Outcome:
        match = await self.service.get(match_id)
        if match.version != version:
            raise Refusal("old_button")
        try:
            outcome = await self.service.resign(match_id, user_id)
        except Refusal:
            await self._unless_moved_on(match_id, version)
            raise
        self._after(self.effects.announce(outcome), match_id)
        return outcome

    async def offer(self, match_id: int, user_id: int, version: int, kind: str, reply: str | None) -> str:
        match = await self.service.get(match_id)
        if match.version != version:
            raise Refusal("old_button")
        if reply is None:
            notice = await self.offers.offer(match_id, user_id, kind)
            self._after(self.effects.post_offer(notice), match_id)
            return f"offer_{kind}"
        found = next((o for o in await self.offers.open_offers(match_id) if o.kind == kind), None)
        if found is None:
            raise Refusal("offer_closed")
        answer = await self.offers.answer(match_id, user_id, kind, found.at_seq, reply == "accept")
        self._after(self.effects.offer_answered(answer), match_id)
        return answer.kind

    def _after(self, effect: Awaitable[None], match_id: int) -> asyncio.Task[None]:
        """Post what a stored change shows on Discord, in a task of its own (a page that goes away does not
        cancel it); the task, for a caller that waits for it."""

        async def run() -> None:
            try:
                await effect
            except Exception:  # the change is stored; the announcer retries its board itself
                log.exception("match %s: showing an Activity change on Discord failed", match_id)

        task = asyncio.get_running_loop().create_task(run(), name=f"hexplay-announce-activity-{match_id}")
        self._effects.add(task)
        task.add_done_callback(self._effects.discard)
        return task
