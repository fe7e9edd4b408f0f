"""The sandbox's files are private to whoever runs it: its emulated Discord holds every player's DMs.

What the sandbox creates is created private (folders 0700, files 0600); what exists already keeps its
mode (a data folder may be shared with a real bot's, ``./data``, which is not the sandbox's to change).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO, cast


def private_folder(path: Path) -> None:
    """The folder, created 0700 if missing (its missing parents too)."""
    for folder in reversed([path, *path.parents]):
        if not folder.exists():
            folder.mkdir(mode=0o700, exist_ok=True)


def write_private(path: Path, data: bytes) -> None:
    """A new file of ``data``, 0600 (a file left at the path, such as an old temporary one, is replaced)."""
    path.unlink(missing_ok=True)
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as file:
        file.write(data)


def open_private(path: Path, mode: str) -> BinaryIO:
    """``open(path, mode)`` in binary, the file created 0600 if missing (``"wb"``: emptied, ``"ab"``: appended)."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if mode == "ab" else os.O_TRUNC)
    return cast(BinaryIO, os.fdopen(os.open(path, flags, 0o600), mode))
