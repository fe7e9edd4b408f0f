"""A board in words: a picture's description (alt text, at most Discord's 1,024 characters of the language
said), ``/board text`` for screen readers (every piece named, split over messages), and the descriptions of the
other pictures (a preview, a hint, a replay, a review's graph). Read from ``bot/service/describe.py``'s data."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from games import AnyGame, Event
from i18n import number, pt, t, tn

from ...domain.model import MatchRow
from ...domain.seats import info, title
from ...service.describe import Group, LastTurn, material, position_groups
from .markup import MESSAGE_LIMIT, fit_words
from .shared import joined_and, seat_name, semicolon, versus

DESCRIPTION_LIMIT = 1024  # Discord's limit on an attachment's description; the words are cut in the language said


def _plain_label(match: MatchRow, game: AnyGame, seat: int | None) -> str:
    """``alice (Red)`` without markdown: alt text and screen readers read it as it is."""
    if seat is None:
        return t("nobody")
    colours = info(match).seat_names
    colour = t(colours[seat - 1]) if seat - 1 < len(colours) else t("seat {seat}", seat=seat)
    row = match.user_of(game.player_of_seat(seat))
    return f"{seat_name(row) if row is not None else '?'} ({colour})"


_MATERIAL_WORDS: dict[str, Callable[[int], str]] = {
    "score": lambda n: t("score {score}", score=number(n)),
    "hand": lambda n: t("{count} in hand", count=number(n)),
    "pool": lambda n: t("{count} in the pool", count=number(n)),
    "stones": lambda n: tn("{count} stone", "{count} stones", n),
    "goals": lambda n: tn("{count} goal", "{count} goals", n),
    "playballers": lambda n: tn("{count} playballer", "{count} playballers", n),
    "on board": lambda n: t("{count} on the board", count=number(n)),
    # English forms are the same: French agrees "prise(s)" with the count
    "captured": lambda n: tn("{count} captured", "{count} captured", n),
    "reserves": lambda n: t("{count} in reserve", count=number(n)),
}


def _material_line(match: MatchRow, game: AnyGame) -> str:
    parts = []
    for m in material(game):
        counts = ", ".join(_MATERIAL_WORDS.get(k, lambda n, k=k: f"{k} {n}")(n) for k, n in m.counts)
        parts.append(t("{player}: {counts}", player=_plain_label(match, game, m.seat), counts=counts) if counts else "")
    shown = [p for p in parts if p]
    return (semicolon().join(shown) + ".") if shown else ""


def _state_line(match: MatchRow, game: AnyGame) -> str:
    if game.is_over:
        winners = [_plain_label(match, game, s) for s in game.winners]
        if len(winners) > 1:
            return t("Game over: {winners} share the win.", winners=joined_and(winners))
        return t("Game over: {winner} wins.", winner=winners[0]) if winners else t("Game over: a draw.")
    return t("Turn {turn}: {player} to move.", turn=game.ply + 1, player=_plain_label(match, game, game.to_move))


_EVENT_WORDS: dict[str, Callable[[Event], str]] = {
    "place": lambda e: t("placed on {cell}", cell=e.cell),
    "move": lambda e: t("moved {src} to {dst}", src=e.src, dst=e.dst),
    "jump": lambda e: t("jumped {src} to {dst}", src=e.src, dst=e.dst),
    "push": lambda e: t("pushed {src} to {dst}", src=e.src or "", dst=e.dst or e.cell),
    "capture": lambda e: t("captured on {cell}", cell=e.cell),
    "swap": lambda e: t("swapped sides"),
    "pass": lambda e: t("passed"),
    "resign": lambda e: t("resigned"),
    "goal": lambda e: t("scored a goal"),
    "shift": lambda e: (
        t("moved {src} to {dst}", src=e.src, dst=e.dst) if e.src != e.dst else t("turned {cell}", cell=e.src)
    ),
    "rotate": lambda e: t("turned {cell}", cell=e.cell),
    "reinforce": lambda e: t("brought a reserve piece onto {cell}", cell=e.cell),
    "guard": lambda e: t("stands on the opponent's centre {cell}: guard your centre", cell=e.cell),
}


def _last_turn_line(match: MatchRow, game: AnyGame, turn: LastTurn | None, played: bool = True) -> str:
    """The last move by whom, and what it did: the engine's words (Game.describe_turn), else its events'. A turn
    not ``played`` (a preview's, a hint's) is said as the turn shown, never as a move made."""
    if turn is None:
        return t("No move yet.")
    who = _plain_label(match, game, turn.seat) if turn.seat is not None else ""
    described = game.describe_turn(list(turn.events), turn.notation, say=t) if turn.notation else ""
    if not described or described == turn.notation:
        effects = [_EVENT_WORDS[e.kind](e) for e in turn.events if e.kind in _EVENT_WORDS][:8]
        described = ", ".join(effects)
        if turn.notation:
            described = f"{turn.notation}" + (f" ({described})" if described else "")
    described = described.rstrip(".") or t("a turn")
    if not played:
        if who:
            return t("The turn shown, by {player}, not played: {move}.", player=who, move=described)
        return t("The turn shown, not played: {move}.", move=described)
    if who:
        return t("Last move, by {player}: {move}.", player=who, move=described)
    return t("Last move: {move}.", move=described)


def board_description(
    match: MatchRow, game: AnyGame, turn: LastTurn | None, played: bool = True, heading: str | None = None
) -> str:
    """A board picture's description (alt text): the match, whose turn or the result, each player's
    scores or material, and the last move and what it did (``played`` False: the turn a preview shows); at most
    1,024 characters of the words said (French runs longer than English), cut at a word. ``heading`` says what
    the board is instead of the match's name (a puzzle's position)."""
    names = versus([_plain_label(match, game, s) for s in range(1, game.players + 1)])
    parts = [
        heading or t("{match} board, {players}.", match=title(match), players=names),
        _state_line(match, game),
        _last_turn_line(match, game, turn, played),
        _material_line(match, game),
    ]
    return fit_words(" ".join(p for p in parts if p), DESCRIPTION_LIMIT)


def picture_description(what: str, match: MatchRow | None = None) -> str:
    """A picture that is not the match's current board (a preview, a hint, a review graph, standings)."""
    about = t("{match}: {picture}", match=title(match), picture=what) if match is not None else what
    return fit_words(about, DESCRIPTION_LIMIT)


# the compass words of a Bump piece's facing, by the digit the notation uses (0 = east, clockwise)
_COMPASS: tuple[Callable[[], str], ...] = (
    lambda: pt("compass point", "E"),
    lambda: pt("compass point", "SE"),
    lambda: pt("compass point", "SW"),
    lambda: pt("compass point", "W"),
    lambda: pt("compass point", "NW"),
    lambda: pt("compass point", "NE"),
)


_GROUP_WORDS: dict[str, Callable[[int], str]] = {
    "disc": lambda n: tn("{count} disc", "{count} discs", n),
    "stone": lambda n: tn("{count} stone", "{count} stones", n),
    "playballer": lambda n: tn("{count} playballer", "{count} playballers", n),
    "piece": lambda n: tn("{count} piece", "{count} pieces", n),
}


def _facing(cell: str, facing: int) -> str:
    direction = f"{_COMPASS[facing]()} ({facing})" if 0 <= facing < len(_COMPASS) else str(facing)
    return t("{cell} facing {direction}", cell=cell, direction=direction)


def _group_line(match: MatchRow, game: AnyGame, group: Group) -> str:
    if group.kind == "ball":
        cell = group.cells[0]
        if group.seat:
            return t("The ball: on {cell}, held by {player}.", cell=cell, player=_plain_label(match, game, group.seat))
        return t("The ball: loose on {cell}.", cell=cell)
    cells = list(group.cells)
    if group.facings:
        cells = [_facing(c, f) for c, f in zip(group.cells, group.facings, strict=True)]
    count = len(cells)
    things = _GROUP_WORDS[group.kind](count)  # every kind describe.py gives has its words
    if group.kind == "stone":
        if not group.where:
            things = t("{stones} in open water", stones=things)
        else:
            islands = tn(
                "island {numbers}",
                "islands {numbers}",
                len(group.where),
                numbers=joined_and([str(k) for k in group.where]),
            )
            things = t("{stones} touching {islands}", stones=things, islands=islands)
    listed = ", ".join(cells) if cells else pt("no cells", "none")
    return t("{player}, {things}: {cells}.", player=_plain_label(match, game, group.seat), things=things, cells=listed)


def board_text(match: MatchRow, game: AnyGame, turn: LastTurn | None, heading: str | None = None) -> list[str]:
    """``/board text``: the position in words for screen readers, as private messages of at most
    2,000 characters each. A large position is split over several messages (at line breaks, a long
    list at its commas) rather than summarised: every piece is named. ``heading`` as for
    :func:`board_description`."""
    names = versus([_plain_label(match, game, s) for s in range(1, game.players + 1)])
    lines = [
        heading or t("{match}, {players}.", match=title(match), players=names),
        _state_line(match, game),
        _last_turn_line(match, game, turn),
        _material_line(match, game),
        t("Position:"),
        *(_group_line(match, game, g) for g in position_groups(game)),
    ]
    return _pack([line for line in lines if line])


def _pack(lines: list[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Lines gathered into messages of at most ``limit`` characters; a longer line split at ", "."""
    pieces: list[str] = []
    for line in lines:
        while len(line) > limit:
            cut = line.rfind(", ", 0, limit - 1)
            cut = cut if cut > 0 else limit - 1
            pieces.append(line[: cut + 1])
            line = line[cut + 2 :] if line[cut : cut + 2] == ", " else line[cut + 1 :]
        pieces.append(line)
    messages: list[str] = []
    for piece in pieces:
        if messages and len(messages[-1]) + 1 + len(piece) <= limit:
            messages[-1] += "\n" + piece
        else:
            messages.append(piece)
    return messages


_MENTION_OR_TIME = re.compile(r"<@!?\d+>|<t:\d+(?::[a-zA-Z])?>")
_MARKS = re.compile(r"\*\*|__|`|\|\||\\(?=[^\w\s])")


def plain(text: str, names: Mapping[int, str] | None = None) -> str:
    """A message's words for alt text: no markdown, no pings (a screen reader reads them as symbols): a ping
    of someone in ``names`` is said as their name, anyone else's as "a player"."""
    text = _MENTION_OR_TIME.sub(lambda m: _mentioned(m.group(), names or {}), text)
    return " ".join(_MARKS.sub("", text).split())


def _mentioned(markup: str, names: Mapping[int, str]) -> str:
    if not markup.startswith("<@"):
        return ""  # a timestamp: the words around it say when
    name = names.get(int(markup.strip("<@!>")))
    return name if name is not None else t("a player")


def described(
    lead: str, content: str = "", match: MatchRow | None = None, names: Mapping[int, str] | None = None
) -> str:
    """A picture beside a message that already says it in words: what the picture is, then those words (the
    people it pings named from ``names``)."""
    return picture_description(f"{lead} {plain(content, names)}".strip(), match)


def preview_description(match: MatchRow, game: AnyGame, turn: LastTurn | None, hint: str = "") -> str:
    """A position after a turn that is not played: /preview, /hint (``hint``: the suggested turn), the turn builder."""
    board = board_description(match, game, turn, played=False)
    if hint:
        return fit_words(
            t("Hint: the computer suggests {move}; the board after it, not played. {board}", move=hint, board=board),
            DESCRIPTION_LIMIT,
        )
    return fit_words(t("Preview, not played. {board}", board=board), DESCRIPTION_LIMIT)


def replay_description(match: MatchRow, game: AnyGame) -> str:
    """A GIF replay: how many turns it shows, and where the match stands at its end."""
    replay = tn(
        "an animated replay of the match, {count} turn. At its end: {state}",
        "an animated replay of the match, {count} turns. At its end: {state}",
        game.ply,
        state=_state_line(match, game),
    )
    return picture_description(replay, match)
