"""The tests' own PostgreSQL clusters (tests/postgres.py): a port taken between its choice and the server's start
is no fault of the code under test, so the cluster starts on another one rather than failing a test."""

from __future__ import annotations

import socket

import pytest

from tests import postgres


def test_a_cluster_whose_port_was_taken_meanwhile_starts_on_another() -> None:
    bin_dir = postgres.binaries()
    if bin_dir is None:
        if postgres.required():
            pytest.fail("HEXPLAY_REQUIRE_POSTGRES=1 but " + postgres.SKIP_REASON)
        pytest.skip(postgres.SKIP_REASON)
    cluster = postgres.Cluster(bin_dir)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", cluster.port))
        taken.listen()
        chosen = cluster.port
        try:
            cluster.init()
            cluster.start()
            assert cluster.port != chosen
            cluster.wait_ready()
            assert cluster.create_database("harness").endswith(f":{cluster.port}/harness")
        finally:
            cluster.remove()
