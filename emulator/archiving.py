"""Threads archive themselves, as Discord's do: ``auto_archive_duration`` minutes (60, 1440, 4320 or 10080) after
their last activity (made, a message, unarchived), a thread is archived, a THREAD_UPDATE says so, and clients
leave it out of the channel list until a message unarchives it (Discord's thread metadata: "the thread will stop
showing in the channel list after auto_archive_duration minutes of inactivity").

Idle time is counted on the store's clock (``Store.clock``): the system's, or in the sandbox the clock its
"+1 day" moves on, so a finished match's thread leaves the list as it would on Discord. The emulator looks every
:data:`ARCHIVE_CHECK_SECONDS`; the sandbox also looks right after its clock moves.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from .gateway import GUILDS, Gateway
from .host import Host
from .models import Channel

log = logging.getLogger(__name__)

ARCHIVE_CHECK_SECONDS = 30.0


class ArchiveHost(Host, Protocol):
    """What archiving needs of the emulator: its store, its gateway (THREAD_UPDATE) and its observers."""

    gateway: Gateway


def archive_idle_threads(emu: ArchiveHost) -> list[Channel]:
    """Archive every thread idle for its ``auto_archive_duration``, telling the bot and the observers; the threads."""
    archived = emu.store.idle_threads()
    for thread in archived:
        emu.store.set_archived(thread, True)
        emu.gateway.dispatch("THREAD_UPDATE", emu.store.channel_payload(thread), intents=GUILDS)
        emu._observe("channel_updated", thread)
    return archived


def unarchive(emu: ArchiveHost, thread: Channel) -> None:
    """A message sent to an archived thread (not locked) unarchives it, as Discord does: the bot and the observers
    are told, and its idle time starts again."""
    emu.store.set_archived(thread, False)
    emu.gateway.dispatch("THREAD_UPDATE", emu.store.channel_payload(thread), intents=GUILDS)
    emu._observe("channel_updated", thread)


async def keep_archiving(emu: ArchiveHost, every: float = ARCHIVE_CHECK_SECONDS) -> None:
    """Look for idle threads every ``every`` seconds until cancelled."""
    while True:
        await asyncio.sleep(every)
        try:
            archive_idle_threads(emu)
        except Exception:  # one bad look must not stop the next
            log.exception("archiving idle threads failed")
