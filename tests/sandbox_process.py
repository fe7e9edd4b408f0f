"""Runs `python -m sandbox` as a user would (own process, own data folder) for the sandbox tests."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class SandboxProcess:
    def __init__(self, data: Path, *options: str) -> None:
        self.data = data
        self.lines: list[str] = []
        self._reader: threading.Thread | None = None
        env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sandbox", "--sandbox", "--data", str(data), "--port", "0", *options],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.url = self._wait_for_url()

    def _wait_for_url(self, timeout: float = 90.0) -> str:
        deadline = time.monotonic() + timeout
        assert self.process.stdout is not None
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.lines.append(line.rstrip())
            found = re.search(r"open (http://127\.0\.0\.1:\d+)", line)
            if found:
                self.lines.append(self.process.stdout.readline().rstrip())  # how to use real Discord instead
                return found.group(1)
        self.process.kill()
        raise AssertionError("the sandbox printed no URL:\n" + "\n".join(self.lines))

    def keep_reading(self) -> None:
        """Read its output into ``lines`` from now on (a sandbox that prints a lot never blocks on the pipe)."""

        def read() -> None:
            assert self.process.stdout is not None
            for line in self.process.stdout:
                self.lines.append(line.rstrip())

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()

    def bot_pid(self) -> int:
        """The `python -m bot` child (its parent is the sandbox)."""
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    cmdline = (entry / "cmdline").read_bytes().split(b"\0")
                except OSError:
                    continue
                if int(fields[1]) == self.process.pid and b"bot" in cmdline:
                    return int(entry.name)
        raise AssertionError("no bot process under the sandbox")

    def call(self, path: str, body: dict | None = None) -> object:
        request = urllib.request.Request(
            self.url + path,
            method="POST" if body is not None else "GET",
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=20) as response:
            return json.loads(response.read())

    def interrupt(self, timeout: float = 30.0) -> tuple[int, str]:
        """Ctrl-C: SIGINT to the sandbox; returns its exit status and the rest of its output."""
        self.process.send_signal(signal.SIGINT)
        if self._reader is not None:
            self.process.wait(timeout)
            self._reader.join(5)
            return self.process.returncode, "\n".join(self.lines)
        output, _ = self.process.communicate(timeout=timeout)
        self.lines.extend(output.splitlines())
        return self.process.returncode, output

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
