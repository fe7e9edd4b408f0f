"""``/metrics`` (Prometheus) and ``/healthz`` over HTTP, on the process's own event loop (aiohttp).

One server per process on ``HEXPLAY_METRICS_PORT``: the bot's close path and the worker's stop close it
like any other background duty (``run_forever`` / ``stop``). prometheus-client renders the registry;
values read from elsewhere are refreshed just before (each refresher bounded: a slow database leaves the
last values in place rather than holding the scrape).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from aiohttp import web
from prometheus_client import CollectorRegistry
from prometheus_client.exposition import choose_encoder

from ..domain.errors import CannotListen
from .health import Check, problems

log = logging.getLogger(__name__)

Refresh = Callable[[], Awaitable[None]]

REFRESH_SECONDS = 2.0  # a refresher taking longer is cancelled; the scrape shows the last values it set
SHUTDOWN_SECONDS = 2.0  # a scrape in flight at a stop gets this long to finish


class MetricsServer:
    """Serves a registry at ``/metrics`` and the process's checks at ``/healthz`` on ``host:port``
    (port 0: any free port, told by :attr:`port` once listening)."""

    def __init__(
        self,
        port: int,
        registry: CollectorRegistry,
        checks: Sequence[Check],
        refreshers: Sequence[Refresh] = (),
        role: str = "bot",
        host: str = "127.0.0.1",  # this machine only; a container's HEXPLAY_METRICS_HOST=0.0.0.0 opens it
    ) -> None:
        self.wanted_port, self.host = port, host
        self.registry = registry
        self.checks = tuple(checks)
        self.refreshers = tuple(refreshers)
        self.role = role  # said in /healthz's answer: which kind of process answered
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._starting = asyncio.Lock()  # the runtime starts it early, the bot's duties again: it listens once
        self._stopped = asyncio.Event()

    async def start(self) -> int:
        """Listen (once; again does nothing) and return the port; CannotListen says why not in one line."""
        async with self._starting:
            if self._runner is None and not self._stopped.is_set():
                await self._listen()
        if self.port is None:
            raise CannotListen("the health and metrics server was stopped before it listened")
        return self.port

    async def _listen(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.wanted_port).start()
        except OSError as error:
            await runner.cleanup()
            raise CannotListen(
                f"HEXPLAY_METRICS_PORT {self.wanted_port}: cannot listen on {self.host}:{self.wanted_port} "
                f"({error.strerror or error})"
            ) from None
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        log.info("health at http://%s:%d/healthz, metrics at /metrics", self.host, self.port)

    async def run_forever(self) -> None:
        """Listen (if not already) until stopped."""
        if not self._stopped.is_set():
            await self.start()
        await self._stopped.wait()

    async def stop(self, grace: float = SHUTDOWN_SECONDS) -> None:
        """Stop listening; a scrape in flight finishes (bounded). Stopping again does nothing."""
        self._stopped.set()
        async with self._starting:  # a start under way finishes first, then is undone
            runner, self._runner = self._runner, None
        if runner is not None:
            await asyncio.wait_for(runner.cleanup(), max(grace, 0.1) + SHUTDOWN_SECONDS)

    # -- the endpoints ---------------------------------------------------------------------

    async def _healthz(self, request: web.Request) -> web.Response:
        reasons = await problems(self.checks)
        if reasons:
            return web.json_response({"status": "unhealthy", "role": self.role, "reasons": reasons}, status=503)
        return web.json_response({"status": "ok", "role": self.role})

    async def _metrics(self, request: web.Request) -> web.Response:
        await asyncio.gather(*(self._refresh(refresh) for refresh in self.refreshers))
        encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
        return web.Response(body=encoder(self.registry), headers={"Content-Type": content_type})

    async def _refresh(self, refresh: Refresh) -> None:
        try:
            await asyncio.wait_for(refresh(), REFRESH_SECONDS)
        except Exception as error:  # the last values stay; the scrape is answered
            log.warning("metrics: a value could not be refreshed (%s: %s)", type(error).__name__, error)
