"""The words of the games' own data that players read, in their language.

The engines keep their data in English (``GameInfo``: seat colours, the /rules summary, option lines, quick
actions); each such string is copied here, marked with ``N_`` for the catalogs, and said with ``t`` through
the small functions below. ``tests/test_game_words.py`` checks that every string of every game's info is
here, so a new colour or option cannot reach a player untranslated.
"""

from __future__ import annotations

from games import GameInfo
from games.interface import OptionSpec, QuickAction
from i18n import N_, t

COLOURS = (
    N_("Red"),
    N_("Blue"),
    N_("Yellow"),
    N_("Green"),
    N_("Purple"),
    N_("Grey"),
    N_("Black"),
    N_("White"),
    N_("Orange"),
)
"""Seat colours (also the ``colour`` field of an engine's reason, and the engines' own ``say(colour)``)."""

SUMMARIES = (
    # TRANSLATORS: the /rules text of Bide (Markdown; keep the notation in backticks as it is).
    N_(
        """\
**Bide** — 2 to 6 players on a hex-hex board of 61 points (side 5).
Each turn you draw a disc from your pool into your hand, then either
**bide** (keep it), **play** one disc on an empty point, or **release**
every disc in your hand, one after another (only with 2 or more in hand).
A release obliges every opponent to release their whole hand next turn.
Each placed disc sends a **shock wave**: along each of its six lines the
discs are pushed one point outwards; a line full to the edge does not move.
When the board is full, each disc scores its distance from the edge; your
best connected group is your score. Ties are broken by removing the outer
ring and scoring again.
Notation: `bide` (or `pass`), `e5`, release `e5,d4,c3`."""
    ),
    # TRANSLATORS: the /rules text of Begird (Markdown; keep the notation in backticks as it is).
    N_(
        """\
**Begird** — 2 players, Black and White, on a hexagonal board of 243 cells
surrounded by 15 numbered **islands**.
Players take turns placing one stone of their colour on any empty cell;
Black starts. **Pie rule:** on the second turn White may answer `swap`
instead of placing, taking over Black's stone (and Black) while the other
player continues as White.
**Win** with a group of your stones that touches at least 3 islands spread
so widely that the shortest run of consecutive islands containing them all
is at least 9 islands long. Draws are impossible.
Variants: `small` (75 cells, 9 islands, a run of 6) and `y` (the game of Y:
a triangle whose 3 sides are the islands; touch all three).
Notation: a cell such as `e5`, or `swap`."""
    ),
    # TRANSLATORS: the /rules text of Play Bai (Markdown; keep the notation in backticks as it is).
    N_(
        """\
**Play Bai** — 2 teams of 3 playballers on a hexagonal field of 61 cells.
Each team defends the 3 dotted **end zones** on its side (Orange the left
corners, Blue the right ones) and scores by carrying the ball into one of the
opponent's. A turn is **1 to 3 moves** (only 1 or 2 on a set's kick-off),
by any of your playballers:
• **step** to an adjacent empty cell;
• **jump** over an unbroken line of playballers (either team) to the first
  free cell beyond; at the edge you **bounce back** (still a move).
Jumping over the ball carrier takes the ball; so does entering the loose
ball's cell. Between and around moves, **pass** as often as you like to a
team-mate in a straight line with no opponent in between.
No playballer may be on a dot when the turn ends, and the turn must change
the position. Enter an opponent's end zone only with the ball: that is a
**goal**, the turn ends, and the conceding team kicks off the next set.
First to **3 goals** wins (expert: two goals in a row).
Notation: step `b2-c2`, jump `b2^se` (or `b2-d2`), pass `e5>b5`; a turn is
e.g. `b2-c2 e5>b5 b5^ne`."""
    ),
    # TRANSLATORS: the /rules text of Bump (Markdown; keep the notation in backticks as it is).
    N_(
        """\
**Bump** — 2 players, 12 pieces each, on two hexagonal areas joined by six
gates. Every piece has one **bumper** (its facing); its other sides are blind.
**Win:** start your turn with a piece on your opponent's centre.
**Move** one piece with up to 3 points: shift to empty adjacent spaces first
(never through a wall, a piece or your own centre), then rotate 60° per point.
**Bumps:** a bumper facing a blind side of an adjacent piece pushes it one
space away; the pushed piece may bump in turn (chains). A push that would be
an illegal shift (a wall, a piece, its own centre) **captures** it. Several
bumpers on one piece: you choose. A bump repeating three times captures
(stasis). Bumpers facing each other are stable.
Notation: `03,05-4` (from 03 to 05, facing 4), `03-2`, `pass`; choices in
parentheses `03,04-0 (06)`; reinforcement `R,01-0`. Spaces: `C1`, `C2`,
axis+step `05` (gate 0 is `05`), axis+step+offset `011`."""
    ),
)
"""Each game's rules summary (/rules)."""

OPTION_DESCRIPTIONS = (
    N_("board side: 4 (37 points), 5 (61) or 6 (91)"),
    N_("board: standard (243 cells, 15 islands), small (75 cells, 9 islands) or y (the game of Y)"),
    N_("field side: 5 (61 cells) or 6 (91 cells)"),
    N_("expert: true = two goals in a row win (instead of 3 goals)"),
    N_("first: the seat (1 or 2) that kicks off the first set"),
    N_("reserve pieces for seat 1 (reinforcement variant): 0–3"),
    N_("reserve pieces for seat 2 (reinforcement variant): 0–3"),
)
"""Each game option's line for players (the option keys and values are typed: they stay)."""

QUICK_LABELS = (
    # TRANSLATORS: a button of Bide that plays `bide`.
    N_("Bide"),
    # TRANSLATORS: a button of Begird that plays `swap`.
    N_("Swap"),
)
"""The labels of the quick-action buttons."""

WORDS = COLOURS + SUMMARIES + OPTION_DESCRIPTIONS + QUICK_LABELS


def colour(name: str) -> str:
    """A seat colour's name ("Red") in the current language."""
    return t(name)


def summary(info: GameInfo) -> str:
    """The game's rules summary (/rules) in the current language."""
    return t(info.summary)


def option_description(spec: OptionSpec) -> str:
    """An option's line for players in the current language."""
    return t(spec.description)


def quick_label(action: QuickAction) -> str:
    """A quick-action button's label in the current language."""
    return t(action.label)
