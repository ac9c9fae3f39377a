"""The fault test, small: ``bench/bench_faults.py`` (the long form, run by hand) with three tables
and a fault of each kind — a server killed with -9, PostgreSQL restarted immediately, every
server's database session terminated, a server paused past a hold check — on a database of the
test session's cluster: nothing acknowledged is lost, nothing is applied twice, no table is written
by two holders, every client ends its game (the bench's docstring says how each is checked)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ..support.postgres import Cluster
from ..support.processes import REPO, env

pytestmark = [pytest.mark.postgresql, pytest.mark.long]


def test_three_servers_play_on_through_kills_a_database_restart_terminated_sessions_and_a_pause(
    pg_cluster: Cluster, pg_database: str
) -> None:
    bench = [sys.executable, str(REPO / "bench" / "bench_faults.py"), "--store", pg_database]
    options = ["--pgdata", str(pg_cluster.data), "--tables", "3", "--faults", "4", "--seed", "40", "--json"]
    options += ["--hold-check", "0.5"]  # (pauses of 0.6 to 1 s: past a hold check of each other server)
    done = subprocess.run([*bench, *options], env=env(), capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["anomalies"] == [], report
    assert done.returncode == 0
    assert set(report["faults"]) == {"kill", "restart_db", "terminate", "pause"}, report
    assert report["lines"] > 3 * 100, report  # (three whole games: some 140 lines each)
