"""What a process tells its operator: Prometheus metrics and a health check, served over HTTP.

``metrics.py`` defines what is counted (one registry per process: the bot's, or a worker's),
``health.py`` decides whether the process is healthy (each check says why not), and ``server.py``
serves both on ``HEXPLAY_METRICS_PORT`` (``/metrics`` and ``/healthz``) on the process's event loop.
Nothing here knows Discord or the queue: the composition roots (``bot/runtime.py``, ``bot/jobs/worker.py``)
hand in what to read.
"""
