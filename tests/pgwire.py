"""A loopback proxy in front of the test PostgreSQL server that counts round trips, from the wire.

Every round trip of PostgreSQL's protocol ends with a message after which the client waits for the
server: Sync (extended protocol: a statement bound and executed), Flush (asyncpg's way of asking for a
statement's description before it binds one, when it has not prepared it before), or Query (simple
protocol: BEGIN, COMMIT, a script). Counting those three in what the client sends counts the trips,
whatever the driver does above.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
from collections import Counter

_UNTYPED_REQUESTS = {80877103, 80877104}  # SSLRequest, GSSENCRequest: answered before the startup message


class CountingProxy:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.kinds: Counter[str] = Counter()
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def trips(self) -> int:
        return self.kinds["S"] + self.kinds["H"] + self.kinds["Q"]

    def reset(self) -> None:
        self.kinds.clear()

    def url(self, template: str) -> str:
        """The server's URL with this proxy's address in its place."""
        head, _, tail = template.rpartition("@")
        _, _, path = tail.partition("/")
        return f"{head}@127.0.0.1:{self.listening}/{path}"

    async def start(self) -> CountingProxy:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.listening = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(self.host, self.port)
        tasks = [
            asyncio.create_task(self._from_client(reader, upstream_writer)),
            asyncio.create_task(self._pipe(upstream_reader, writer)),
        ]
        self._tasks.update(tasks)
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
                self._tasks.discard(task)
            for w in (writer, upstream_writer):
                w.close()

    async def _from_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        typed = False
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                if not typed:
                    head = await reader.readexactly(4)
                    (length,) = struct.unpack("!i", head)
                    body = await reader.readexactly(length - 4)
                    typed = struct.unpack("!i", body[:4])[0] not in _UNTYPED_REQUESTS
                    writer.write(head + body)
                else:
                    head = await reader.readexactly(5)
                    kind, length = head[:1].decode("latin-1"), struct.unpack("!i", head[1:])[0]
                    body = await reader.readexactly(length - 4)
                    self.kinds[kind] += 1
                    writer.write(head + body)
                await writer.drain()

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while chunk := await reader.read(65536):
                writer.write(chunk)
                await writer.drain()
