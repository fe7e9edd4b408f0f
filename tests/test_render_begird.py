"""Begird's pictures: decode the PNG/GIF with Pillow and look at the pixels."""

from __future__ import annotations

import io
import math
import random
from collections import deque

import pytest
from PIL import Image

import render
from games.begird import Begird, rule_words, winning_group
from games.begirdboard import VARIANTS, island_cells, layout, shores
from games.interface import Event
from i18n import speaking, t
from render import begird as rb
from render.animation import replay

NAMES = ["Alice", "Bob"]


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im.convert("RGB")


def pixels(im: Image.Image):
    """Every pixel of ``im`` (``get_flattened_data`` on Pillow ≥ 12.1, ``getdata`` before)."""
    flat = getattr(im, "get_flattened_data", None)
    return flat() if flat is not None else im.getdata()


def near(pixel, colour, tolerance: float = 30.0) -> bool:
    return math.dist(pixel[:3], colour[:3]) < tolerance


def stone_of_pixel(pixel) -> int | None:
    """1 (Black) or 2 (White) when ``pixel`` is a stone's colour, else None."""
    for seat, colour in ((1, rb.BLACK_STONE), (2, rb.WHITE_STONE)):
        if near(pixel, colour, 30):
            return seat
    return None


def around(centre, radius: float, angles=range(0, 360, 30)) -> list[tuple[int, int]]:
    x, y = centre
    return [
        (round(x + radius * math.cos(math.radians(a))), round(y + radius * math.sin(math.radians(a)))) for a in angles
    ]


def random_game(variant: str, seed: int, fill: float = 0.45) -> Begird:
    """A random position that is not over (retrying seeds), Black to move."""
    board = layout(variant).board
    for attempt in range(100):
        rng = random.Random(seed * 1000 + attempt)
        cells = {name: rng.choice((1, 2)) for name in board.names if rng.random() < fill}
        try:
            game = Begird.from_position(2, {"board": variant}, {"board": cells, "to_move": 1})
        except Exception:
            continue
        if not game.is_over:
            return game
    raise AssertionError("no unfinished random position found")


def shortest_path(variant: str, a: str, b: str) -> list[str]:
    lay = layout(variant)
    board = lay.board
    ia, ib = board.parse(a), board.parse(b)
    prev: dict[int, int | None] = {ia: None}
    todo = deque([ia])
    while todo:
        x = todo.popleft()
        if x == ib:
            break
        for n in lay.neighbours[x]:
            if n not in prev:
                prev[n] = x
                todo.append(n)
    out: list[str] = []
    at: int | None = ib
    while at is not None:
        out.append(board.names[at])
        at = prev[at]
    return out


# Per board: shore cells of three far-apart islands, joined through ``centre`` by Black.
WIN_PLANS = {
    "standard": (("e13", "r5", "e1"), "i9"),  # islands 1, 6, 11
    "small": (("c7", "j3", "e1"), "e5"),  # islands 1, 4, 7
    "y": (("e5", "m6", "h1"), "i4"),  # islands 1, 2, 3
}


def won_game(variant: str, seed: int = 1) -> tuple[Begird, list[Event]]:
    """Black wins by placing ``centre``, joining three shores; White holds one stone fewer elsewhere."""
    ends, centre = WIN_PLANS[variant]
    black: set[str] = set()
    for end in ends:
        black.update(shortest_path(variant, centre, end))
    board = layout(variant).board
    others = [n for n in board.names if n not in black]
    random.Random(seed).shuffle(others)
    position = {n: 1 for n in black if n != centre}
    position.update(dict.fromkeys(others[: len(black) - 1], 2))
    game = Begird.from_position(2, {"board": variant}, {"board": position, "to_move": 1})
    assert not game.is_over
    events = game.play_turn(centre)
    assert game.is_over and game.winners == (1,)
    return game, events


def render_decoded(game, events=(), names=NAMES, width: int = rb.DEFAULT_WIDTH) -> Image.Image:
    data = render.render_png(game, player_names=names, last_events=list(events), width=width)
    assert len(data) < 300_000
    return decode(data)


# -- size and registry ---------------------------------------------------------------------------


def test_registered():
    assert "begird" in render.registered()


def test_picture_width():
    assert rb.picture_width("standard", 1080) == 1280  # cell names readable on a phone
    assert rb.picture_width("standard", 1500) == 1500
    assert rb.picture_width("small", 1080) == 1080
    assert rb.picture_width("y", 1080) == 1080
    assert rb.picture_width("standard", 600) == 600  # GIF frames are honoured
    with pytest.raises(ValueError):
        rb.picture_width("standard", 100)


@pytest.mark.parametrize("variant", VARIANTS)
def test_size(variant):
    game = Begird.new(2, {"board": variant})
    data = render.render_png(game, player_names=NAMES)
    im = decode(data)
    assert im.width >= 1000
    assert im.width == rb.picture_width(variant, render.DEFAULT_WIDTH)
    assert len(data) < 300_000
    # The cells are big enough for their names: at least 45 px between centres.
    assert rb.cell_spacing(game) >= 45


# -- stones where they belong, names on empty cells -------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_stones_at_occupied_cells_only(variant):
    game = random_game(variant, seed=len(variant))
    im = render_decoded(game)
    sp = rb.cell_spacing(game)
    for i, name in enumerate(game.board.names):
        owner = game.cells[i]
        centre = rb.cell_centre(game, name)
        found = stone_of_pixel(im.getpixel(centre))
        if owner:
            colour = ("Black", "White")[owner - 1]
            assert found == owner, f"{name}: expected a {colour} stone, got {im.getpixel(centre)}"
            for xy in around(centre, sp * 0.3):
                assert stone_of_pixel(im.getpixel(xy)) == owner, f"{name}: stone too small at {xy}"
        else:
            assert found is None, f"{name} is empty but its centre is stone-coloured: {im.getpixel(centre)}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_names_on_empty_cells_only(variant):
    """Name ink (dark brown) inside every empty cell, none inside a stone."""
    game = random_game(variant, seed=7)
    im = render_decoded(game)
    sp = rb.cell_spacing(game)
    half = int(sp * 0.3)
    for i, name in enumerate(game.board.names):
        x, y = rb.cell_centre(game, name)
        box = im.crop((x - half, y - half // 2, x + half, y + half // 2))
        inky = sum(1 for p in pixels(box) if near(p, rb.NAME_INK, 40))
        if game.cells[i]:
            assert inky == 0, f"{name}: its name shows through the stone"
        else:
            assert inky >= 6, f"{name}: no name drawn in the empty cell"


# -- islands ---------------------------------------------------------------------------------


def test_land_centres_follow_the_engine():
    for variant in VARIANTS:
        centres = rb.land_centres(variant)
        islands = island_cells(variant)
        assert [len(c) for c in centres] == [len(i) for i in islands]
        # Land cells sit one spacing outside the board: next to a shore cell.
        sp = rb.cell_spacing(variant)
        for k, shore in enumerate(shores(variant)):
            shore_px = [rb.cell_centre(variant, n) for n in shore]
            for xy in centres[k]:
                assert min(math.dist(xy, s) for s in shore_px) == pytest.approx(sp, abs=1.5)


def _is_label_cell(island, cell) -> bool:
    return len(island) % 2 == 1 and rb.label_cell(island) == cell


@pytest.mark.parametrize("variant", VARIANTS)
def test_island_land_drawn(variant):
    game = random_game(variant, seed=3)
    im = render_decoded(game)
    islands = island_cells(variant)
    count = len(islands)
    for k, (island, centres) in enumerate(zip(islands, rb.land_centres(game), strict=False)):
        tone = rb.land_tone(k, count)
        assert tone != rb.land_tone((k + 1) % count, count), "neighbouring islands share a tone"
        for cell, xy in zip(island, centres, strict=False):
            if _is_label_cell(island, cell):
                continue  # the island's number is written there
            assert near(im.getpixel(xy), tone, 25), f"island {k + 1}: no land at {cell}, {im.getpixel(xy)}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_island_numbers_written(variant):
    """White number ink at each island's label point."""
    game = Begird.new(2, {"board": variant})
    im = render_decoded(game)
    g = rb.geometry(variant, rb.picture_width(variant, rb.DEFAULT_WIDTH))
    half = int(g.spacing * 0.3)
    for k, island in enumerate(island_cells(variant)):
        x, y = (round(v) for v in g.layout.centre(rb.label_cell(island)))
        box = im.crop((x - half, y - half, x + half, y + half))
        assert sum(1 for p in pixels(box) if near(p, rb.NUMBER_INK, 20)) >= 10, f"island {k + 1} has no number"


# -- the last stone, the winner --------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_last_stone_marked(variant):
    game = Begird.new(2, {"board": variant})
    rng = random.Random(5)
    events: list[Event] = []
    for _ in range(8):
        events = game.play_turn(rng.choice([n for n in game.legal_notations() if n != "swap"]))
    last = next(e.cell for e in events if e.kind == "place")
    im = render_decoded(game, events)
    sp = rb.cell_spacing(game)

    ring_r = sp * (rb.STONE_R + 0.03)  # the middle of the ring every game puts around its last move

    def ringed(name):
        return sum(1 for xy in around(rb.cell_centre(game, name), ring_r) if near(im.getpixel(xy), (255, 255, 255), 40))

    assert ringed(last) >= 9  # of 12 points around it
    assert stone_of_pixel(im.getpixel(rb.cell_centre(game, last))) == game.cells[game.board.parse(last)]
    for i, name in enumerate(game.board.names):
        if game.cells[i] and name != last:
            assert ringed(name) <= 3, f"{name} looks ringed like the last stone"


@pytest.mark.parametrize("variant", VARIANTS)
def test_won_game_highlights_group_and_islands(variant):
    game, events = won_game(variant)
    group, touched = winning_group(game)
    assert len(touched) >= 3
    im = render_decoded(game, events)
    sp = rb.cell_spacing(game)
    ring_r = sp * rb.WIN_RING_R  # the ring is centred on this radius

    def gold(name):
        return sum(1 for xy in around(rb.cell_centre(game, name), ring_r) if near(im.getpixel(xy), rb.WIN_RING, 45))

    for name in group:
        assert gold(name) >= 9, f"{name} of the winning group is not ringed in gold"
        assert stone_of_pixel(im.getpixel(rb.cell_centre(game, name))) == 1
    group_set = set(group)
    for i, name in enumerate(game.board.names):
        if game.cells[i] and name not in group_set:
            assert gold(name) == 0, f"{name} is not in the winning group but looks ringed"
    islands = island_cells(variant)
    for k, (island, centres) in enumerate(zip(islands, rb.land_centres(game), strict=False)):
        expected = rb.WIN_LAND if k + 1 in touched else rb.land_tone(k, len(islands))
        for cell, xy in zip(island, centres, strict=False):
            if not _is_label_cell(island, cell):
                assert near(im.getpixel(xy), expected, 25), f"island {k + 1} at {cell}: {im.getpixel(xy)}"
    rows, _lines = rb.panel_text(game, NAMES, events)
    assert "winner" in rows[0][2]
    assert "wins" in rb.status_line(game, NAMES)
    won = rb.win_line(game)
    assert won.startswith("Gold: the winning group, touching islands ")
    assert all(str(k) in won for k in touched)
    if len(islands) > 3:
        run = layout(variant).covering_run(sum(1 << (k - 1) for k in touched))
        assert won.endswith(f"(it leaves no more than {len(islands) - run} islands in a row untouched)")


def test_resignation_has_no_gold():
    game = random_game("small", seed=11)
    events = game.resign(1)
    im = render_decoded(game, events)
    assert "resignation" in rb.status_line(game, NAMES)
    assert not any(near(p, rb.WIN_LAND, 10) for p in pixels(im))
    assert "Alice (Black) resigned" in rb.panel_text(game, NAMES, events)[1][1]


# -- the pie rule ------------------------------------------------------------------------------


def test_swap_announced_and_colours_follow_seats():
    game = Begird.new(2, {"board": "standard"})
    game.play_turn("i9")
    events = game.play_turn("swap")
    assert game.swapped
    # Names are given in sitting order; after the swap the second player (Bob) plays Black.
    im = render_decoded(game, events, names=["Alice", "Bob"])
    names = render.names_by_seat(game, ["Alice", "Bob"])
    assert names == ["Bob", "Alice"]
    assert stone_of_pixel(im.getpixel(rb.cell_centre(game, "i9"))) == 1
    rows, lines = rb.panel_text(game, names, events)
    assert rows[0][0] == "Bob (Black)" and rows[1][0] == "Alice (White)" and "to move" in rows[1][2]
    # The swap is stated once: by the last turn, as it has just happened.
    assert lines[0] == ""
    assert "Bob swapped" in lines[1] and "Black" in lines[1]
    assert "swap" not in rb.status_line(game, names).lower()
    assert rb.status_line(game, names).startswith("Turn 3 · Alice (White) to move")
    # And the next placement: the swap line says it, once.
    events = game.play_turn("j9")
    rows, lines = rb.panel_text(game, names, events)
    assert "Alice (White) placed j9" in lines[1]
    assert "Bob plays Black by the swap" in lines[0] and "swap" not in lines[1]
    assert "to move" in rows[0][2]
    im = render_decoded(game, events, names=names)
    assert stone_of_pixel(im.getpixel(rb.cell_centre(game, "j9"))) == 2


def test_swap_offered_before_answer():
    game = Begird.new(2, {"board": "small"})
    events = game.play_turn("e5")
    _, lines = rb.panel_text(game, NAMES, events)
    assert "White may answer swap" in lines[0]
    assert "swap" not in rb.status_line(game, NAMES), "said once, in the panel"
    # Once White has placed instead, nothing more about the swap ("No swap" is gone).
    events = game.play_turn("f5")
    assert rb.panel_text(game, NAMES, events)[1][0] == ""


def test_default_names_are_colours():
    game = Begird.new(2, {"board": "y"})
    rows, _ = rb.panel_text(game, rb.seat_names(None), ())
    assert rows[0][0] == "Black" and rows[1][0] == "White"
    im = decode(render.render_png(game))
    assert im.width >= 1000


# -- GIF ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_gif_of_a_short_game(variant):
    start = Begird.new(2, {"board": variant})
    rng = random.Random(2)
    turns = []
    trial = start.copy()
    for k in range(6):
        turn = "swap" if k == 1 else rng.choice([n for n in trial.legal_notations() if n != "swap"])
        trial.play_turn(turn)
        turns.append(turn)
    frames = replay(start, turns)
    data = render.render_gif(frames, player_names=NAMES)
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF"
    assert im.n_frames == len(frames) == 7
    im.seek(im.n_frames - 1)
    last = im.convert("RGB")
    assert last.width == render.GIF_WIDTH
    # The final frame shows every stone of the final position.
    final = frames[-1][0]
    for i, name in enumerate(final.board.names):
        if final.cells[i]:
            xy = rb.cell_centre(final, name, render.GIF_WIDTH)
            assert stone_of_pixel(last.getpixel(xy)) == final.cells[i]


# -- read on a phone: zoom, one vocabulary ------------------------------------------------------


def test_zoom_shows_the_cells_around_the_last_stone_at_double_scale():
    game = Begird.from_position(2, {"board": "standard"}, {"board": {"i10": 2}, "to_move": 1})
    events = game.play_turn("i9")
    width = rb.picture_width("standard")
    g = rb.geometry("standard", width)
    plain = render.render_image(game, player_names=NAMES, last_events=events)
    zoomed = decode(render.render_png(game, player_names=NAMES, last_events=events, zoom="last"))
    assert zoomed.size == plain.size
    sp = rb.cell_spacing(game) * rb.ZOOM
    centre = (width / 2, g.title_h + (g.board_bottom - g.title_h) / 2)  # i9 is mid-board: no clamping
    for xy in around(centre, sp * 0.3):
        assert stone_of_pixel(zoomed.getpixel(xy)) == 1, f"the zoomed i9 stone is not at {xy}"
    east = (centre[0] + sp, centre[1])
    for xy in around(east, sp * 0.3):
        assert stone_of_pixel(zoomed.getpixel(xy)) == 2, "i10 sits one (doubled) spacing east"
    assert rb.zoom_cell(game, "last", events) == "i9"
    assert rb.zoom_cell(game, "A1") == "a1"
    with pytest.raises(ValueError):
        render.render_png(game, zoom="zz99")


def test_zoom_is_offered_by_the_games_that_have_it():
    assert render.can_zoom("begird")
    assert not render.can_zoom("bide")
    from games.bide import Bide

    with pytest.raises(ValueError):
        render.render_png(Bide.new(2), zoom="last")


def test_one_vocabulary():
    game = Begird.new(2, {"board": "standard"})
    game.play_turn("i9")
    game.play_turn("j9")
    status = rb.status_line(game, NAMES)
    assert status.startswith("Turn 3 · Alice (Black) to move") and "Ply" not in status
    _, lines = rb.panel_text(game, NAMES, [])
    assert lines[0] == "", "no 'No swap'"
    assert rb.rule_line(game) == (
        "To win, a group leaves no 7 islands in a row untouched (islands 1, 5 and 9 do it). "
        "Island 15's own colour only sets it apart from island 1."
    )
    assert rb.rule_line(Begird.new(2, {"board": "y"})).startswith("To win, a group touches all three sides")
    assert rb.LAST_MARK == render.sprites.LAST_MOVE_RING


@pytest.mark.parametrize("variant", ["standard", "small", "y"])
def test_the_picture_and_the_autocomplete_word_the_winning_rule_alike(variant):
    """Issue 37: the autocomplete said "to win, a group must touch islands spanning 9 of the 15" on every line
    while the picture said it otherwise: one wording (``games.begird.rule_words``), in English and in French."""
    from bot.chat.words.moves import move_choices
    from bot.service.suggestions import suggest_moves

    game = Begird.new(2, {"board": variant})
    for language in ("en", "fr"):
        with speaking(language):
            labels = [label for label, _ in move_choices(suggest_moves(game, ""))]
            rule = rule_words(game.layout, t)
            assert sum(rule in label for label in labels) == 1, labels  # once in the list
            assert rb.rule_line(game).startswith(rule)


@pytest.mark.parametrize("variant", ["standard", "small", "y"])
def test_the_last_islands_colour_of_its_own_is_explained_where_it_is_drawn(variant):
    """Issue 37: island 15 (9 on the small board, 3 on Y's) is drawn in a third colour, so that neighbours always
    differ on an odd ring; the panel says so, lest a player look for a rule in it."""
    game = Begird.new(2, {"board": variant})
    count = game.layout.island_count
    tones = [rb.land_tone(k, count) for k in range(count)]
    assert tones.count(tones[-1]) == 1 and len(set(tones[:-1])) == 2  # the last island alone has its colour
    assert f"Island {count}'s own colour only sets it apart from island 1." in rb.rule_line(game)
    assert "has its own only to set it apart from island 1" in " ".join(game.info.summary.split())  # /rules too
    with speaking("fr"):
        assert f"L’île {count} n’a sa propre couleur" in rb.rule_line(game)


@pytest.mark.parametrize("variant", ["standard", "small"])
def test_the_win_rule_line_states_the_rule_the_engine_plays(variant):
    """Issue 26: "a group touching islands 1, 5 and 9 wins: they span 9 of the 15" did not teach the
    rule. The line now says what a player can check on the ring, and its number is the engine's rule:
    a group wins exactly when it leaves fewer islands in a row untouched; its example wins."""
    import re

    lay = layout(variant)
    line = rb.rule_line(Begird.new(2, {"board": variant}))
    gap = int(re.search(r"leaves no (\d+) islands in a row untouched", line).group(1))
    n = lay.island_count
    for mask in range(1 << n):
        untouched = n - lay.covering_run(mask)
        assert bool(lay.win_table[mask]) == (untouched < gap), (mask, untouched)
    example = [
        int(k) for k in re.search(r"\(islands ([\d, and]+) do it\)", line).group(1).replace("and", ",").split(",")
    ]
    assert lay.win_table[sum(1 << (k - 1) for k in example)]
