"""Draw offers and takeback requests: proposals the other players accept or decline.

An offer belongs to the log as it stood when it was made (``at_seq`` rows):
any move stored after it lapses it (``Store.record_move`` deletes the
match's offers in the same transaction), so an offer can never be accepted
for a position other than the one it was made in. Accepting the last
missing consent stores the result as a move of the log ("draw" or
"takeback") through the same versioned ``commit_move`` as a turn, so replay
stays the truth.
"""

from __future__ import annotations

from games import AnyGame

from ..domain.errors import Refusal, StalePosition
from ..domain.model import MatchRow, MoveRow, OfferRow
from ..domain.outcome import Change, OfferAnswer, OfferNotice, Outcome
from ..domain.replay import replay
from ..domain.seats import engine_seat_of, game_of, info, player_row
from .matches import MatchService


class Offers:
    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.store = service.store

    @staticmethod
    def _answerers(match: MatchRow, maker_id: int) -> list[int]:
        """Players still in the game, other than the maker: each must accept."""
        return [s.user_id for s in match.seats if not s.resigned and s.user_id != maker_id]

    async def offer(self, match_id: int, user_id: int, kind: str) -> OfferNotice:
        async with self.service.locks.hold(match_id):  # the same per-match lock as every change to a match
            return await self._offer(match_id, user_id, kind)

    async def _offer(self, match_id: int, user_id: int, kind: str) -> OfferNotice:
        service = self.service
        match, _ = await service.active(match_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise Refusal("not_a_player", match=match)
        if seat.resigned:
            raise Refusal("you_resigned", match=match)
        moves = await self.store.moves(match_id)
        if kind == "draw":
            if not info(match).allows_draws:
                raise Refusal("no_draws", game=info(match).name)
        else:
            last = moves[-1] if moves else None
            if last is None or last.kind != "turn" or last.user_id != user_id:
                raise Refusal("takeback_not_yours")
        pending = await self.store.get_offer(match_id, kind)
        if pending is not None and pending.at_seq == len(moves):
            raise Refusal(
                "offer_pending", match=match, kind=kind, maker_id=pending.user_id, yours=pending.user_id == user_id
            )
        offer = OfferRow(match_id, kind, user_id, len(moves), [], service.clock.now())
        await service.stored_or_refused(self.store.make_offer(match_id, match.version, offer))
        answerers = self._answerers(match, user_id)
        people = [u for u in answerers if not match.is_computer(u)]
        computers = tuple(u for u in answerers if match.is_computer(u))
        return OfferNotice(match, kind, len(moves), user_id, people, computers, tuple(answerers))

    async def open_offers(self, match_id: int) -> list[OfferRow]:
        """The match's draw offer and takeback request still open on its position (the Activity shows them)."""
        moves = await self.store.moves(match_id)
        found = [await self.store.get_offer(match_id, kind) for kind in ("draw", "undo")]
        return [offer for offer in found if offer is not None and offer.at_seq == len(moves)]

    async def posted(self, notice: OfferNotice, channel_id: int, message_id: int) -> None:
        """Where the offer was posted, so that a move lapsing it can take its buttons away."""
        await self.store.set_offer_message(notice.match.id, notice.kind, notice.at_seq, channel_id, message_id)

    async def answer(self, match_id: int, user_id: int, kind: str, at_seq: int, accept: bool) -> OfferAnswer:
        async with self.service.locks.hold(match_id):
            return await self._answer(match_id, user_id, kind, at_seq, accept)

    async def _answer(self, match_id: int, user_id: int, kind: str, at_seq: int, accept: bool) -> OfferAnswer:
        service = self.service
        match, game = await service.active(match_id)
        offer = await self.store.get_offer(match_id, kind)
        moves = await self.store.moves(match_id)
        if offer is None or offer.at_seq != at_seq or len(moves) != at_seq:
            raise StalePosition("offer_closed")
        if user_id == offer.user_id:
            if accept:
                raise Refusal("own_offer")
            await self.store.withdraw_offer(match_id, kind, at_seq)
            return OfferAnswer("withdrawn", user_id, True, match, kind, offer.user_id)
        answerers = self._answerers(match, offer.user_id)
        if user_id not in answerers:
            raise Refusal("not_asked")
        if not accept:
            await self.store.withdraw_offer(match_id, kind, at_seq)
            return OfferAnswer("declined", user_id, True, match, kind, offer.user_id)
        accepted = await self.store.accept_offer(match_id, kind, at_seq, user_id)
        if accepted is None:
            raise StalePosition("offer_closed")
        missing = tuple(u for u in answerers if u not in accepted)
        if missing:
            return OfferAnswer("accepted", user_id, False, match, kind, offer.user_id, missing)
        outcome = await (self._draw(match, game, offer) if kind == "draw" else self._take_back(match, moves, offer))
        return OfferAnswer("agreed", user_id, True, match, kind, offer.user_id, outcome=outcome)

    async def _draw(self, match: MatchRow, game: AnyGame, offer: OfferRow) -> Outcome:
        seat = engine_seat_of(match, game, offer.user_id)
        before = (game.to_move, game.ply)
        events = game.agree_draw()
        move = MoveRow(0, game.ply, seat, offer.user_id, "draw", "draw", [e.to_json() for e in events], 0.0)
        return await self.service.commit_move(
            match, game, before, move, Change("draw", user_id=offer.user_id, events=tuple(events))
        )

    async def _take_back(self, match: MatchRow, moves: list[MoveRow], offer: OfferRow) -> Outcome:
        game = game_of(match)
        before = (game.to_move, game.ply)
        taken = moves[-1]
        restored = replay(match, moves[:-1])
        holder = player_row(match, restored, taken.seat).user_id
        move = MoveRow(0, restored.ply, taken.seat, offer.user_id, "takeback", f"takeback {taken.notation}", [], 0.0)
        change = Change("takeback", user_id=offer.user_id, seat=taken.seat, holder_id=holder, notation=taken.notation)
        return await self.service.commit_move(match, restored, before, move, change)
