"""Whether a process is healthy: each check answers None (healthy) or why not, in a few words.

``/healthz`` (``server.py``) runs a process's checks together: 200 when none has a reason, 503 with the
reasons otherwise. A check never hangs the answer: the database's is bounded (a pool waiting for a free
connection, a server that does not answer), the others read what the process already knows.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

Check = Callable[[], Awaitable[str | None]]

DATABASE_SECONDS = 2.0  # the database answers SELECT 1 within this, or the process is not healthy


def database(ping: Callable[[], Awaitable[None]], timeout: float = DATABASE_SECONDS) -> Check:
    """The database answers ``SELECT 1`` (``Store.ping``) within ``timeout`` seconds."""

    async def check() -> str | None:
        try:
            await asyncio.wait_for(ping(), timeout)
        except TimeoutError:
            return f"the database did not answer within {timeout:g} s"
        except Exception as error:  # a closed pool, a refused connection, a stopped database thread: all "down"
            return f"the database does not answer ({type(error).__name__}: {error})"[:300]
        return None

    return check


def known(problem: Callable[[], str | None]) -> Check:
    """A check over what the process already knows (the gateway's shards, the queue loop), as a Check."""

    async def check() -> str | None:
        return problem()

    return check


async def problems(checks: Sequence[Check]) -> list[str]:
    """The reasons the process is not healthy, all checks run together (none: healthy)."""
    found = await asyncio.gather(*(check() for check in checks))
    return [reason for reason in found if reason]
