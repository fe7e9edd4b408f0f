"""A board as data for a vector drawing (the Activity's SVG): what a picture draws, in board units.

Board units: neighbouring cell centres are 1 apart, ``y`` goes down, as in the pictures. Each game's scene
(``render/scenes/<game>.py``) takes its geometry from the same engine layouts (``games/``), and its colours,
sizes and words from the same renderer module as its PNG picture, so the two agree; only the pixel scale
differs (a picture's ``Geometry.spacing`` pixels per unit).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import hexdraw as hd
from .. import sprites

UNIT = hd.HexLayout(1 / hd.SQRT3, (0.0, 0.0))  # a layout whose cell centres are 1 apart
MARGIN = 0.15  # board units added around everything drawn, in the view box

Point = tuple[float, float]
RGB = Sequence[int]


def colour(rgb: RGB | None) -> str | None:
    return None if rgb is None else "#{:02x}{:02x}{:02x}".format(*rgb[:3])


def point(p: Point) -> list[float]:
    return [round(p[0], 3), round(p[1], 3)]


def points(ps: Iterable[Point]) -> list[list[float]]:
    return [point(p) for p in ps]


def size(value: float) -> float:
    return round(value, 3)


def label(text: str, font_size: float, ink: RGB, **extra: Any) -> dict[str, Any]:
    """A text drawn at a cell or a piece: ``size`` is the font's em height in board units."""
    return {"text": text, "size": size(font_size), "ink": colour(ink), **extra}


@dataclass
class Scene:
    """The display list of one position; layers are drawn in the order of the fields."""

    key: str  # the static layers (areas, lines, cells, labels) are the same for every position with this key
    areas: list[dict[str, Any]] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)
    cells: list[dict[str, Any]] = field(default_factory=list)
    labels: list[dict[str, Any]] = field(default_factory=list)
    pieces: list[dict[str, Any]] = field(default_factory=list)
    marks: list[dict[str, Any]] = field(default_factory=list)
    _viewbox: list[float] | None = field(default=None, repr=False)

    # -- building ----------------------------------------------------------------------------------

    def area(self, corners: Iterable[Point], fill: RGB | None, stroke: RGB | None = None, width: float = 0.0) -> None:
        self.areas.append(
            {"points": points(corners), "fill": colour(fill), "stroke": colour(stroke), "width": size(width)}
        )

    def segments(self, pairs: Iterable[tuple[Point, Point]], stroke: RGB, width: float, **extra: Any) -> None:
        listed = [[point(a), point(b)] for a, b in pairs]
        if listed:
            self.lines.append({"segments": listed, "stroke": colour(stroke), "width": size(width), **extra})

    def cell(
        self,
        name: str,
        centre: Point,
        corners: Iterable[Point],
        *,
        fill: RGB | None,
        stroke: RGB | None,
        width: float,
        text: dict[str, Any] | None = None,
        **extra: Any,
    ) -> None:
        entry: dict[str, Any] = {
            "name": name,
            "centre": point(centre),
            "shape": points(corners),
            "fill": colour(fill),
            "stroke": colour(stroke),
            "width": size(width),
        }
        if text is not None:
            entry["label"] = text
        entry.update(extra)
        self.cells.append(entry)

    def text(
        self,
        at: Point,
        words: str,
        font_size: float,
        ink: RGB,
        *,
        bold: bool = False,
        halo: RGB | None = None,
        halo_width: float = 0.0,
    ) -> None:
        entry = {"at": point(at), **label(words, font_size, ink, bold=bold)}
        if halo is not None:
            entry.update(halo=colour(halo), halo_width=size(halo_width))
        self.labels.append(entry)

    def piece(self, cell: str | None, at: Point, seat: int, shape: str, r: float, fill: RGB, **extra: Any) -> None:
        entry: dict[str, Any] = {"cell": cell, "at": point(at), "seat": seat, "shape": shape, "r": size(r)}
        entry["fill"] = colour(fill)
        for key, value in extra.items():
            entry[key] = colour(value) if key in ("stroke", "ink", "halo") and value is not None else value
        self.pieces.append(entry)

    def ring(
        self,
        at: Point,
        r: float,
        stroke: RGB,
        width: float,
        halo: RGB | None = None,
        halo_width: float = 0.0,
        kind: str = "ring",
    ) -> None:
        mark: dict[str, Any] = {
            "kind": kind,
            "at": point(at),
            "r": size(r),
            "stroke": colour(stroke),
            "width": size(width),
        }
        if halo is not None:
            mark.update(halo=colour(halo), halo_width=size(halo_width))
        self.marks.append(mark)

    def last_move_ring(self, at: Point, piece_r: float) -> None:
        """The sign every game puts around its last move (sprites.last_move_ring, in board units)."""
        self.ring(at, piece_r + 0.03, sprites.LAST_MOVE_RING, 0.045, sprites.LAST_MOVE_HALO, 0.014)

    def arrow(
        self,
        path: Sequence[Point],
        stroke: RGB,
        width: float,
        *,
        head: float,
        halo: RGB | None = None,
        halo_width: float = 0.0,
        dashed: bool = False,
        badge: str | None = None,
    ) -> None:
        mark: dict[str, Any] = {
            "kind": "arrow",
            "points": points(path),
            "stroke": colour(stroke),
            "width": size(width),
            "head": size(head),
            "dashed": dashed,
        }
        if halo is not None:
            mark.update(halo=colour(halo), halo_width=size(halo_width))
        if badge is not None:
            mark["badge"] = badge
        self.marks.append(mark)

    def on_board(self) -> Scene:
        """A new position on this scene's board: its static layers shared (never changed once built: the
        board is cached per key), its pieces and marks its own."""
        position = Scene(self.key, self.areas, self.lines, self.cells, self.labels)
        position._viewbox = self.viewbox()  # (the board's, computed once)
        return position

    # -- the result --------------------------------------------------------------------------------

    def viewbox(self) -> list[float]:
        if self._viewbox is not None:
            return self._viewbox
        xs: list[float] = []
        ys: list[float] = []
        for entry in self.cells + self.areas:
            shape = entry.get("shape") or entry.get("points") or []
            xs += [p[0] for p in shape]
            ys += [p[1] for p in shape]
        if not xs:
            return [0.0, 0.0, 1.0, 1.0]
        x0, y0 = min(xs) - MARGIN, min(ys) - MARGIN
        return [round(x0, 3), round(y0, 3), round(max(xs) + MARGIN - x0, 3), round(max(ys) + MARGIN - y0, 3)]

    def to_json(self, *, static: bool = True) -> dict[str, Any]:
        """The scene as the Activity reads it; without ``static`` the layers every position of ``key`` shares
        are left out (the page has them)."""
        out: dict[str, Any] = {"key": self.key, "viewbox": self.viewbox()}
        if static:
            out.update(areas=self.areas, lines=self.lines, cells=self.cells, labels=self.labels)
        out.update(pieces=self.pieces, marks=self.marks)
        return out


@dataclass
class Panel:
    """The picture's title bar and panel, as words."""

    title: str
    status: str
    columns: list[str]
    rows: list[dict[str, Any]]
    lines: list[str]

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "status": self.status,
            "columns": self.columns,
            "rows": self.rows,
            "lines": [line for line in self.lines if line],
        }


def panel_row(
    seat: int, swatch: RGB, cells: Sequence[str], *, to_move: bool, winner: bool, **extra: Any
) -> dict[str, Any]:
    return {"seat": seat, "colour": colour(swatch), "cells": list(cells), "to_move": to_move, "winner": winner, **extra}


def unit_vector(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length
