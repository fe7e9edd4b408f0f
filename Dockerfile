# The image of every Hexplay process: a bot (`python -m bot`, the default) or a worker (`python -m bot worker`).
# compose.yaml builds it and runs both on one PostgreSQL; README "Health and metrics" says how.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# The exact versions the tests passed with (constraints.txt), then the project itself, not editable.
COPY pyproject.toml constraints.txt README.md ./
COPY games ./games
COPY render ./render
COPY ai ./ai
COPY bot ./bot
RUN pip install -c constraints.txt . \
    && rm -rf /app/games /app/render /app/ai /app/bot

# Never root: the process needs nothing but the network (and ./data only if run on SQLite).
RUN useradd --create-home --uid 10001 hexplay && mkdir -p /app/data && chown hexplay /app/data
USER hexplay

# /healthz and /metrics of each process (compose's healthchecks read /healthz here), on the container's every
# interface: the scraper comes from outside it (outside a container the bot keeps to 127.0.0.1).
ENV HEXPLAY_METRICS_PORT=9100 \
    HEXPLAY_METRICS_HOST=0.0.0.0
EXPOSE 9100
CMD ["python", "-m", "bot"]
