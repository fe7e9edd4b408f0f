"""render/scenes: the board as data for the Activity's SVG says what the picture says, for every game.

Each position is a seeded random game; the scene must name every cell of the engine, put each piece where the
engine has it, mark the last turn, and word its panel as the picture's panel does (the same functions)."""

from __future__ import annotations

import json
import random

import pytest

from games import get
from i18n import speaking
from render import begird as begird_pic
from render import bide as bide_pic
from render import bump as bump_pic
from render import playbai as playbai_pic
from render.scenes import UnknownScene, view

GAMES = [("bide", {}), ("bide", {"side": 6}), ("begird", {}), ("begird", {"board": "y"}), ("playbai", {}), ("bump", {})]


def played(game_id: str, options: dict, seed: int, turns: int = 10):
    rng = random.Random(seed)
    game = get(game_id).new(2, options)
    last: list = []
    for _ in range(turns):
        if game.is_over:
            break
        events: list = []
        while True:
            actions = game.legal_actions()
            if game.can_end_turn() and (not actions or rng.random() < 0.4):
                events += game.end_turn()
                break
            events += game.apply_action(rng.choice(actions))
        last = events
    return game, last


@pytest.mark.parametrize(("game_id", "options"), GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_scene_names_every_cell_and_puts_each_piece_where_the_engine_has_it(game_id, options, seed) -> None:
    game, last = played(game_id, options, seed)
    scene, panel = view(game, player_names=["alice", "bob"], last_events=last)
    drawn = scene.to_json()
    json.dumps(drawn)  # JSON as it is sent
    assert {c["name"] for c in drawn["cells"]} == set(game.cell_names())
    x0, y0, width, height = drawn["viewbox"]
    for cell in drawn["cells"]:
        assert len(cell["shape"]) == 6 and cell["label"]["text"] == cell["name"]
        assert all(x0 <= x <= x0 + width and y0 <= y <= y0 + height for x, y in cell["shape"])
    centres = {c["name"]: c["centre"] for c in drawn["cells"]}
    on_board = [p for p in drawn["pieces"] if p["shape"] != "ball" and not p.get("twin")]
    assert sorted(p["cell"] for p in on_board) == sorted(occupied(game))
    for piece in on_board:
        if game_id != "bump":  # (a Bump gate's piece stands in the part its bumper faces)
            assert piece["at"] == centres[piece["cell"]]
    assert (drawn["marks"] != []) == marks_expected(game_id, last)
    assert [row["cells"][0] for row in panel.to_json()["rows"]][:1] and panel.status


def occupied(game) -> list[str]:
    names = game.cell_names()
    if game.info.id in ("bide", "begird"):
        return [names[i] for i, seat in enumerate(game.cells) if seat]
    if game.info.id == "playbai":
        return [game.field.board.names[i] for seat in (1, 2) for i in game.pieces(seat)]
    return [bump_pic.NAMES[space] for space, pid in enumerate(game.board.cells) if pid >= 0]


def marks_expected(game_id: str, last: list) -> bool:
    kinds = {e.kind for e in last}
    if game_id == "bump":
        return True  # the two centres are always ringed
    if game_id == "playbai":
        return bool(kinds & {"move", "jump", "goal"}) or any(e.kind == "pass" and e.src for e in last)
    return "place" in kinds or "push" in kinds


def test_the_panel_says_what_the_pictures_panel_says() -> None:
    names = ["alice", "bob"]
    with speaking("fr"):
        game, last = played("begird", {}, 4)
        rows = view(game, player_names=names, last_events=last)[1].to_json()["rows"]
        assert [r["cells"] for r in rows] == begird_pic.panel_text(game, begird_pic.seat_names(names), last)[0]
        game, last = played("playbai", {}, 4)
        rows = view(game, player_names=names, last_events=last)[1].to_json()["rows"]
        assert [r["cells"] for r in rows] == playbai_pic.panel_cells(game, playbai_pic.seat_names(names))
        game, last = played("bump", {}, 4)
        panel = view(game, player_names=names, last_events=last)[1].to_json()
        assert [r["cells"] for r in panel["rows"]] == bump_pic.panel_cells(game, bump_pic.seat_names(names))
        assert bump_pic.legend_line() in panel["lines"]
        game, last = played("bide", {}, 4)
        panel = view(game, player_names=names, last_events=last)[1].to_json()
        assert panel["status"] == bide_pic.status_line(game, bide_pic.seat_names(2, names))
        assert "Tour" in panel["status"]  # in the reader's language


def test_without_the_static_layers_only_the_position_is_sent() -> None:
    game, last = played("begird", {}, 5)
    scene, _ = view(game, last_events=last)
    light = scene.to_json(static=False)
    assert set(light) == {"key", "viewbox", "pieces", "marks"} and light["key"] == "begird:standard"
    assert len(json.dumps(light)) < len(json.dumps(scene.to_json())) / 10


def test_a_game_without_a_scene_is_refused_clearly() -> None:
    class Other:
        class info:
            id = "chess"

    with pytest.raises(UnknownScene, match="chess"):
        view(Other())  # type: ignore[arg-type]
