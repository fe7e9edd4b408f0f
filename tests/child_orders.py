"""The orders a child process of a multi-process test reads: JSON lines on stdin from its parent
(tests/test_races_processes.py's ``Process``), after it said it is ready."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from typing import Any


async def orders() -> AsyncIterator[dict[str, Any]]:
    """Say ``{"ready": true}``, then each order as it comes, until the parent closes stdin."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    print(json.dumps({"ready": True}), flush=True)
    while line := await reader.readline():
        yield json.loads(line)
