"""compose.yaml and the Dockerfile say what the code reads: every service, setting and command checked here.

Docker is not run by the tests. The file is read by :func:`load_subset`, a reader of the part of YAML
compose.yaml uses (block mappings and lists, quoted and plain scalars, JSON-like flow lists, anchors and
``<<`` merges), which refuses anything else; where PyYAML is installed, both readings must agree. Each
process's environment then goes through ``Settings.from_env`` as the container would give it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = (ROOT / "compose.yaml").read_text(encoding="utf-8")
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
BOTS = ("bot-0", "bot-1")


# -- a reader of compose.yaml's YAML ---------------------------------------------------------------------


def _lines(text: str) -> list[tuple[int, str]]:
    """(indent, content) of each line that says something, comments dropped (a ``#`` inside quotes stays)."""
    found = []
    for raw in text.splitlines():
        quote = None
        for i, char in enumerate(raw):
            if quote:
                quote = None if char == quote else quote
            elif char in "\"'":
                quote = char
            elif char == "#" and (i == 0 or raw[i - 1] == " "):
                raw = raw[:i]
                break
        if raw.strip():
            if "\t" in raw[: len(raw) - len(raw.lstrip())]:
                raise ValueError(f"a tab in the indentation: {raw!r}")
            found.append((len(raw) - len(raw.lstrip(" ")), raw.strip()))
    return found


def _scalar(text: str, anchors: dict[str, Any]) -> Any:
    if text.startswith("*"):
        return anchors[text[1:]]
    if text.startswith(("[", '"')):
        return json.loads(text)  # compose.yaml's flow lists and quoted strings are JSON's (no YAML escapes)
    if text.startswith("'"):
        assert text.endswith("'") and "'" not in text[1:-1], text
        return text[1:-1]
    if text.startswith(("{", "&", "!", "|", ">", "%", "@", "`")):
        raise ValueError(f"YAML beyond what this reader knows: {text!r} (install PyYAML, or keep compose.yaml simple)")
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return {"true": True, "false": False, "null": None, "~": None}.get(text, text)


def load_subset(text: str) -> Any:
    lines = _lines(text)
    anchors: dict[str, Any] = {}
    position = 0

    def block(indent: int) -> Any:
        nonlocal position
        if lines[position][1].startswith("- "):
            items = []
            while position < len(lines) and lines[position][0] == indent and lines[position][1].startswith("- "):
                items.append(_scalar(lines[position][1][2:].strip(), anchors))
                position += 1
            return items
        explicit: dict[str, Any] = {}
        merged: dict[str, Any] = {}
        while position < len(lines) and lines[position][0] == indent:
            key, colon, rest = lines[position][1].partition(":")
            if not colon or (rest and not rest.startswith(" ")):
                raise ValueError(f"not a `key: value` line: {lines[position][1]!r}")
            rest = rest.strip()
            position += 1
            anchor = None
            if rest.startswith("&"):
                anchor, _, rest = rest[1:].partition(" ")
                rest = rest.strip()
            if rest:
                value = _scalar(rest, anchors)
            elif position < len(lines) and lines[position][0] > indent:
                value = block(lines[position][0])
            else:
                value = None
            if anchor:
                anchors[anchor] = value
            if key == "<<":
                merged.update(value)
            elif key in explicit:
                raise ValueError(f"{key} twice in one mapping")
            else:
                explicit[key.strip('"')] = value
        return {**merged, **explicit}  # YAML's merge: the mapping's own keys win

    document = block(0)
    if position != len(lines):
        raise ValueError(f"unexpected indentation at {lines[position][1]!r}")
    return document


def _compose() -> dict[str, Any]:
    return load_subset(COMPOSE)


def test_the_reader_agrees_with_pyyaml_where_it_is_installed():
    yaml = pytest.importorskip("yaml")
    assert load_subset(COMPOSE) == yaml.safe_load(COMPOSE)


def test_the_reader_refuses_what_it_does_not_know():
    with pytest.raises(ValueError, match="beyond"):
        load_subset("a: {b: 1}\n")
    with pytest.raises(ValueError, match="key: value"):
        load_subset("a: 1\nb:c\n")


# -- compose.yaml ----------------------------------------------------------------------------------------


DOT_ENV = {"DISCORD_TOKEN": "test-token", "POSTGRES_PASSWORD": "test-password"}  # what .env.example asks for


def interpolated(value: str) -> str:
    """Compose's ``${VAR:-default}`` and ``${VAR:?message}`` as the container sees them with .env holding
    what .env.example asks for (:data:`DOT_ENV`)."""

    def one(found: re.Match[str]) -> str:
        name, how, rest = found.group(1), found.group(2) or "", found.group(3) or ""
        if name in DOT_ENV:
            return DOT_ENV[name]
        assert how in (":-", ":?"), f"${{{name}}} has no default: it must be set in .env"
        return rest if how == ":-" else ""

    return re.sub(r"\$\{(\w+)(:[-?])?([^}]*)\}", one, value)


def environment(service: str) -> dict[str, str]:
    return {name: interpolated(str(value)) for name, value in _compose()["services"][service]["environment"].items()}


def test_the_services_are_postgres_two_bot_shards_and_workers():
    services = _compose()["services"]
    assert set(services) == {"postgres", *BOTS, "worker"}
    assert all(s["restart"] == "unless-stopped" for s in services.values())
    postgres = services["postgres"]
    assert postgres["image"] == "postgres:16"
    assert (
        postgres["volumes"] == ["postgres-data:/var/lib/postgresql/data"] and "postgres-data" in _compose()["volumes"]
    )
    assert postgres["healthcheck"]["test"][0] == "CMD-SHELL" and "pg_isready" in postgres["healthcheck"]["test"][1]
    for name in (*BOTS, "worker"):
        assert services[name]["build"] == "."
        assert services[name]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    worker = services["worker"]
    assert worker["command"] == ["python", "-m", "bot", "worker", "--concurrency", "2"]
    assert worker["deploy"] == {"replicas": 2}
    assert "command" not in services["bot-0"]  # the image's default: python -m bot


def test_each_bot_runs_its_own_shards_and_together_they_run_all():
    shards: list[int] = []
    for name in BOTS:
        settings = _settings(environment(name))
        settings.check_shards()  # the exit line python -m bot would print, if any
        assert settings.token == "test-token" and settings.shard_count == len(BOTS)
        assert settings.shard_ids is not None
        shards += settings.shard_ids
    assert sorted(shards) == list(range(len(BOTS)))
    assert "DISCORD_TOKEN" not in environment("worker")  # a worker never talks to Discord


def test_every_process_uses_postgres_and_serves_its_health_where_the_healthcheck_looks():
    services = _compose()["services"]
    postgres = services["postgres"]["environment"]
    for name in (*BOTS, "worker"):
        settings = _settings(environment(name))
        user, password, db = (interpolated(postgres[k]) for k in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"))
        assert settings.database == f"postgresql://{user}:{password}@postgres:5432/{db}"
        check = services[name]["healthcheck"]["test"]
        assert check[:3] == ["CMD", "python", "-c"], check  # the slim image has no curl
        assert f"http://127.0.0.1:{settings.metrics_port}/healthz" in check[3]
        compile(check[3], "healthcheck", "exec")


def test_the_database_password_has_no_default_and_must_be_set_in_env():
    uses = re.findall(r"\$\{POSTGRES_PASSWORD([^}]*)\}", COMPOSE)
    assert len(uses) == 2 and all(use.startswith(":?") for use in uses), uses  # compose stops without it
    dot_env = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert re.search(r"^POSTGRES_PASSWORD=$", dot_env, re.MULTILINE), ".env.example must ask for it"


def test_containers_open_health_and_metrics_to_their_network_explicitly():
    """Outside a container the bot keeps /healthz and /metrics to loopback; the image and compose open them."""
    assert re.search(r"^\s*HEXPLAY_METRICS_HOST=0\.0\.0\.0\b", DOCKERFILE, re.MULTILINE), DOCKERFILE
    for name in (*BOTS, "worker"):
        assert _settings(environment(name)).metrics_host == "0.0.0.0", name
    assert _settings({}).metrics_host == "127.0.0.1"


def test_every_hexplay_setting_compose_and_the_dockerfile_use_is_one_the_bot_reads():
    read = set(re.findall(r"\"((?:HEXPLAY|DISCORD)_\w+)\"", (ROOT / "bot" / "config.py").read_text(encoding="utf-8")))
    used = set(re.findall(r"\b(HEXPLAY_\w+)\b", COMPOSE + DOCKERFILE))
    assert used and used <= read, (
        f"compose.yaml or the Dockerfile set {sorted(used - read)}, which bot/config.py never reads"
    )


def _settings(env: dict[str, str]) -> Settings:
    with pytest.MonkeyPatch.context() as patch:
        for name in [n for n in os.environ if n.startswith(("HEXPLAY_", "DISCORD_"))]:
            patch.delenv(name)
        for name, value in env.items():
            patch.setenv(name, value)
        return Settings.from_env()


# -- the Dockerfile --------------------------------------------------------------------------------------


def test_the_image_installs_the_pinned_project_and_runs_as_nobody_in_particular():
    lines = [line.strip() for line in DOCKERFILE.splitlines() if line.strip() and not line.startswith("#")]
    assert lines[0] == "FROM python:3.12-slim"
    assert any("pip install -c constraints.txt ." in line for line in lines)
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    for line in lines:
        if line.startswith("COPY "):
            *sources, _target = shlex.split(line)[1:]
            assert all((ROOT / source).exists() for source in sources), line
    assert lines[-1] == 'CMD ["python", "-m", "bot"]'
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert ".env" in ignored  # the token never goes into an image
