"""Draw offers and takeback requests: proposals the other players accept or decline.

An offer belongs to the log as it stood when it was made (``at_seq`` rows):
any move stored after it lapses it (``Store.apply_move`` deletes the
match's offers in the same transaction), so an offer can never be accepted
for a position other than the one it was made in. Accepting the last
missing consent stores the result as a move of the log ("draw" or
"takeback") through the same versioned ``apply_move`` as a turn, so replay
stays the truth.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import Event

from .service import MatchService, Outcome, ServiceError, mention
from .domain.model import MatchRow, MoveRow, OfferRow

KINDS = {"draw": "a draw", "undo": "to take back their last turn"}


@dataclass
class OfferNotice:
    """A new offer, for the bot to post with Accept / Decline buttons."""

    match: MatchRow
    kind: str
    at_seq: int
    text: str
    answerer_ids: list[int]  # the people asked (pinged)
    computer_ids: tuple[int, ...] = ()  # computer seats asked: the computer player answers for them


@dataclass
class OfferAnswer:
    """What an answer did: the text for the offer message; ``outcome`` when it changed the match."""

    text: str
    closed: bool
    outcome: Outcome | None = None


class Offers:
    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.store = service.store

    def _answerers(self, match: MatchRow, maker_id: int) -> list[int]:
        """Players still in the game, other than the maker: each must accept."""
        return [s.user_id for s in match.seats if not s.resigned and s.user_id != maker_id]

    async def offer(self, match_id: int, user_id: int, kind: str) -> OfferNotice:
        async with self.service.match_lock(match_id):  # the same per-match lock as every change to a match
            return await self._offer(match_id, user_id, kind)

    async def _offer(self, match_id: int, user_id: int, kind: str) -> OfferNotice:
        service = self.service
        match, game = await service.active(match_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise ServiceError(f"You are not a player in {service.title(match)}.")
        if seat.resigned:
            raise ServiceError(f"You have resigned from {service.title(match)}.")
        moves = await self.store.moves(match_id)
        if kind == "draw":
            if not service.info(match).allows_draws:
                raise ServiceError(f"{service.info(match).name} cannot be drawn: every game has a winner.")
        else:
            last = moves[-1] if moves else None
            if last is None or last.kind != "turn" or last.user_id != user_id:
                raise ServiceError("Only the player who made the last turn can ask to take it back, "
                                   "and only before the next turn is played.")
        pending = await self.store.get_offer(match_id, kind)
        if pending is not None and pending.at_seq == len(moves):
            who = "You have" if pending.user_id == user_id else f"<@{pending.user_id}> has"
            raise ServiceError(f"{who} already asked for {KINDS[kind]} in {service.title(match)}; "
                               "it is waiting for an answer.")
        offer = OfferRow(match_id, kind, user_id, len(moves), [], service.clock.now())
        await service._guarded(self.store.make_offer(match_id, match.version, offer))
        answerers = self._answerers(match, user_id)
        people = [u for u in answerers if not match.is_computer(u)]
        computers = tuple(u for u in answerers if match.is_computer(u))
        asked = " ".join(mention(match, u) for u in answerers)
        what = "offers a draw" if kind == "draw" else "asks to take back their last turn"
        how = "accept or decline" if people else "the computer is considering it"
        text = (f"**{service.title(match)}**: <@{user_id}> {what}. {asked}: {how} "
                "(the offer lapses if a turn is played first).")
        return OfferNotice(match, kind, len(moves), text, people, computers)

    async def answer(self, match_id: int, user_id: int, kind: str, at_seq: int, accept: bool) -> OfferAnswer:
        async with self.service.match_lock(match_id):
            return await self._answer(match_id, user_id, kind, at_seq, accept)

    async def _answer(self, match_id: int, user_id: int, kind: str, at_seq: int, accept: bool) -> OfferAnswer:
        service = self.service
        match, game = await service.active(match_id)
        offer = await self.store.get_offer(match_id, kind)
        moves = await self.store.moves(match_id)
        if offer is None or offer.at_seq != at_seq or len(moves) != at_seq:
            raise ServiceError("This offer is no longer open: it was answered, or a turn was played since.")
        if user_id == offer.user_id:
            if accept:
                raise ServiceError("You made this offer; the other players answer it.")
            await self.store.withdraw_offer(match_id, kind, at_seq)
            return OfferAnswer(f"<@{user_id}> withdrew the offer.", closed=True)
        answerers = self._answerers(match, offer.user_id)
        if user_id not in answerers:
            raise ServiceError("Only the other players of this match can answer this offer.")
        if not accept:
            await self.store.withdraw_offer(match_id, kind, at_seq)
            return OfferAnswer(f"{mention(match, user_id)} declined {KINDS[kind]} (asked by <@{offer.user_id}>).",
                               closed=True)
        accepted = await self.store.accept_offer(match_id, kind, at_seq, user_id)
        if accepted is None:
            raise ServiceError("This offer is no longer open: it was answered, or a turn was played since.")
        missing = [u for u in answerers if u not in accepted]
        if missing:
            waiting = " ".join(mention(match, u) for u in missing)
            return OfferAnswer(f"{mention(match, user_id)} accepted; waiting for {waiting}.", closed=False)
        outcome = await (self._draw(match, game, offer) if kind == "draw" else self._take_back(match, moves, offer))
        return OfferAnswer(f"Accepted: {outcome.line}", closed=True, outcome=outcome)

    async def _draw(self, match: MatchRow, game, offer: OfferRow) -> Outcome:
        service = self.service
        seat = service.engine_seat_of(match, game, offer.user_id)
        before = (game.to_move, game.ply)
        events = game.agree_draw()
        move = MoveRow(0, game.ply, seat, offer.user_id, "draw", "draw", [e.to_json() for e in events], 0.0)
        return await service._record(match, game, before, move, events, "The players agreed a draw.")

    async def _take_back(self, match: MatchRow, moves: list[MoveRow], offer: OfferRow) -> Outcome:
        service = self.service
        game = service.game_of(match)
        before = (game.to_move, game.ply)
        taken = moves[-1]
        label = service.seat_label(match, service.replay(match, moves[:-1]), taken.seat)
        restored = service.replay(match, moves[:-1])
        move = MoveRow(0, restored.ply, taken.seat, offer.user_id, "takeback", f"takeback {taken.notation}", [], 0.0)
        events: list[Event] = []
        line = f"By agreement, {label}'s turn `{taken.notation}` was taken back."
        return await service._record(match, restored, before, move, events, line)
