"""A throwaway PostgreSQL server for the tests: a real cluster in a temporary folder, on a loopback port.

Built from Debian's ``postgresql`` package (``.ci/run`` installs it). Without its binaries the PostgreSQL
tests skip with one line; with ``HEXPLAY_REQUIRE_POSTGRES=1`` (CI) they fail instead. As root, the
server runs as the ``postgres`` user, as PostgreSQL requires.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER, PASSWORD, DATABASE = "hexplay", "s3cret-pw", "hexplay"
SKIP_REASON = "the server binaries were not found (install Debian's postgresql package; .ci/run does)"


def binaries() -> Path | None:
    """The folder of initdb/pg_ctl/postgres, if the server is installed."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]).parent if versions else None


def required() -> bool:
    return os.environ.get("HEXPLAY_REQUIRE_POSTGRES") == "1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """initdb, start, stop, restart; a database whose URL the tests use (password authentication on TCP)."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="hexplay-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:  # PostgreSQL refuses to run as root
            entry = pwd.getpwnam("postgres")
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
            self.root.chmod(0o700)

    @property
    def url(self) -> str:
        return f"postgresql://{USER}:{PASSWORD}@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            user="postgres" if self._as_postgres else None,
            cwd=self.root,
            timeout=60,
        )
        if check and done.returncode != 0:
            log = (self.root / "log").read_text(errors="replace")[-1500:] if (self.root / "log").exists() else ""
            raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stdout}{done.stderr}\n{log}")
        return done

    def init(self) -> None:
        password_file = self.root / "pw"
        password_file.write_text(PASSWORD + "\n")
        if self._as_postgres:
            entry = pwd.getpwnam("postgres")
            os.chown(password_file, entry.pw_uid, entry.pw_gid)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            USER,
            "--pwfile",
            str(password_file),
            "-A",
            "scram-sha-256",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale",
            "C",
        )
        settings = (
            f"port = {self.port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{self.root}'\n"
            "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\nmax_connections = 100\n"
        )
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write(settings)

    def start(self) -> None:
        # The port was free when chosen; another process (an outgoing connection's own port too) may have taken it
        # before the server listened, which is no fault of the code under test: choose another and start again.
        for attempt in range(3):
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w", "-t", "30", "start")
                return
            except RuntimeError as error:
                if "Address already in use" not in str(error) or attempt == 2:
                    raise
            self.port = free_port()
            with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
                conf.write(f"port = {self.port}\n")  # (the last setting of a name is the one taken)

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def restart(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-m", "fast", "-w", "restart")

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        env = {**os.environ, "PGPASSWORD": PASSWORD}
        subprocess.run(
            [str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, name],
            check=True,
            capture_output=True,
            env=env,
            timeout=30,
        )
        return f"postgresql://{USER}:{PASSWORD}@127.0.0.1:{self.port}/{name}"

    def wait_ready(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done = self._run("pg_isready", "-h", "127.0.0.1", "-p", str(self.port), check=False)
            if done.returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError("the test PostgreSQL server did not become ready")

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


def start_cluster() -> Cluster:
    bin_dir = binaries()
    if bin_dir is None:
        raise FileNotFoundError(SKIP_REASON)
    cluster = Cluster(bin_dir)
    cluster.init()
    cluster.start()
    cluster.create_database(DATABASE)
    return cluster


def cluster_for_a_test() -> Cluster:
    """:func:`start_cluster`, or the test skipped with one line (failed in CI, ``HEXPLAY_REQUIRE_POSTGRES=1``)
    when the server is not installed."""
    import pytest

    try:
        return start_cluster()
    except FileNotFoundError:
        if required():
            pytest.fail("HEXPLAY_REQUIRE_POSTGRES=1 but " + SKIP_REASON)
        pytest.skip(SKIP_REASON)
