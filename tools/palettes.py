"""Fit every game's palette again and rewrite ``render/palettes.json`` (after a change of a renderer's colours
or look; docs/rendering.md).

    python tools/palettes.py

``render/palettes.py`` does the fitting; the palettes to fit are the registered games' own
(``render.registered_palettes``). A command of its own, above ``render``: as ``render/palettes.py``'s
``__main__`` block it imported ``render``, whose ``__init__`` imports it, the product's last import circle.
``tests/test_render_pixels.py`` checks that the committed file is what this writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import render  # noqa: E402
from render import palettes  # noqa: E402


def write(path: Path = palettes.SHIPPED_FILE) -> None:
    """Every registered game's palette fitted afresh, written to ``path`` as the shipped file is."""
    path.write_text(palettes.dump(palettes.regenerate(render.registered_palettes())))


if __name__ == "__main__":
    write()
    print(f"wrote {palettes.SHIPPED_FILE.relative_to(ROOT)}")
