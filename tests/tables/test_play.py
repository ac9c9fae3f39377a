"""Whole games at a table, through real processes: ``dvtui serve``, three ``dvtui join --bot``
players and a spectator; a player killed with -9 and back; the server killed with -9 and
restarted while its clients wait. Each time the file is the one the same seats write playing
uninterrupted (``at`` aside), and every decision was on disk before anyone was told of it."""

from __future__ import annotations

import os
from pathlib import Path

from dvtui.server.main import Server
from dvtui.store import read_game

from ..support.files import strip_at
from ..support.processes import dvtui
from ..support.raw import RawClient
from ..support.servers import Served, Watcher, short_dir, uninterrupted, wait_for

PLAYERS = "Ana,Bob,Cy"
LEVELS = ["greedy", "random", "greedy"]


def _open(server: Served, table: str, seed: int, first: int = 0) -> None:
    opened = server.dvtui(
        "new", "--table", table, "--players", PLAYERS, "--seed", str(seed), "--first", str(first + 1), "--start-now"
    )
    assert opened.returncode == 0, opened.stderr
    assert f"table {table} is open" in opened.stdout


def _same_as_uninterrupted(server: Served, table: str, seed: int, first: int = 0) -> None:
    played = server.game_file(table).read_bytes()
    expected = uninterrupted(PLAYERS, seed, first, LEVELS, server.directory)
    assert strip_at(played) == strip_at(expected)
    assert read_game(server.game_file(table)).game.over


def test_three_bot_clients_and_a_spectator_play_a_whole_game(served: Served) -> None:
    _open(served, "friday", seed=21, first=1)
    watcher = Watcher(served.place, "friday")
    listed = served.dvtui("tables")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout == ("friday  round 1/6, Bob to move  [Ana: free; Bob: free; Cy: free]  spectators: 1\n")
    players = [served.player("friday", name, level) for name, level in zip(PLAYERS.split(","), LEVELS, strict=True)]
    results = [p.finish() for p in players]
    for seat, (name, level, (code, out, err)) in enumerate(zip(PLAYERS.split(","), LEVELS, results, strict=True)):
        assert code == 0, err
        seated, result = out.splitlines()  # a line once seated, one with the result: nothing else
        assert seated == (f"table friday: a {level} bot plays {name} (seat {seat + 1}) until the game ends; "
                          "Ctrl+C stops it (the seat stays yours)")  # fmt: skip
        assert result.startswith("table friday: Game over: ") and err == ""
    assert len({out.splitlines()[-1] for _, out, _ in results}) == 1  # everyone was told the same result
    _same_as_uninterrupted(served, "friday", seed=21, first=1)
    seen = watcher.result()
    assert [ev.seq for ev in seen] == [None] * len(seen)
    assert seen == read_game(served.game_file("friday")).events  # the spectator saw every line
    assert watcher.statuses == []  # and never lost its connection


def test_a_player_killed_mid_round_joins_again_and_the_game_is_as_if_nothing_happened(served: Served) -> None:
    _open(served, "drop", seed=5)
    ana, bob = served.player("drop", "Ana"), served.player("drop", "Bob", "random")
    wait_for("Ana's and Bob's first placements", lambda: served.lines("drop") == 3)  # Cy has nobody yet
    ana.kill9()  # no bye: the socket just closes
    wait_for("Ana to be shown away", lambda: "Ana: away" in served.listed())
    listed = served.dvtui("tables").stdout
    assert "Ana: away" in listed and "Bob: connected (" in listed  # waiting for Cy, who has nobody yet
    assert ", bot random; Cy: free]" in listed  # a program, not a person
    cy = served.player("drop", "Cy")
    wait_for("the game to wait for Ana", lambda: served.lines("drop") == 4)
    assert "Ana to move" in served.dvtui("tables").stdout
    back = served.player("drop", "Ana")
    for proc in (back, bob, cy):
        code, out, err = proc.finish()
        assert code == 0, err
        assert out.splitlines()[-1].startswith("table drop: Game over: ")
    _same_as_uninterrupted(served, "drop", seed=5)


def test_the_server_killed_mid_round_comes_back_and_its_clients_finish_by_themselves() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        _open(server, "crash", seed=8)
        watcher = Watcher(server.place, "crash")
        ana, bob = server.player("crash", "Ana"), server.player("crash", "Bob", "random")
        wait_for("two placements", lambda: server.lines("crash") == 3)
        server.kill9()
        assert server.lines("crash") == 3  # nothing acknowledged was lost
        wait_for("the clients to notice", lambda: "reconnecting" in ana.stderr())
        server.start()
        assert "table crash reopened at line 3" in server.log()
        assert "took over the lock left by" in server.log()
        cy = server.player("crash", "Cy")
        for proc in (ana, bob, cy):
            code, out, err = proc.finish()
            assert code == 0, err
            assert out.splitlines()[-1].startswith("table crash: Game over: ")
        _same_as_uninterrupted(server, "crash", seed=8)
        seen = watcher.result()
        assert "reconnecting" in watcher.statuses and watcher.statuses[-1] == "connected"
        assert seen == read_game(server.game_file("crash")).events
        assert server.stop() == 0


def test_a_second_server_on_the_same_directory_is_refused(in_process: Server) -> None:
    """The first server runs in a thread of this process (its process is not the subject), the
    second as a command typed in a shell."""
    directory = in_process.place.directory
    second = dvtui("serve", "--dir", str(directory))
    assert second.returncode == 1
    assert second.stderr == f"dvtui: error: {directory}: another 'dvtui serve' already serves this directory\n"
    first = RawClient(str(in_process.place.socket))  # the first one still serves
    first.hello()
    first.send({"type": "list_tables"})
    assert first.until("tables")["type"] == "tables"
    first.close()


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:  # gone meanwhile
        return ""


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.add(int(entry))
    return out


def test_the_bots_worker_processes_leave_with_a_server_killed_by_9_and_nothing_is_left_or_said() -> None:
    """The workers are plain children fed over a pipe: killed with -9, the server leaves no
    directory in the temporary one and nothing more is printed on its terminal (its log here)."""
    with short_dir() as d, Served(d / "srv", {"TMPDIR": str(d / "tmp")}) as server:
        (d / "tmp").mkdir()
        server.start()
        opened = server.dvtui("new", "--table", "bots", "--players", "bot:strong,bot:strong,bot:strong")
        assert opened.returncode == 0, opened.stderr
        watcher = RawClient(str(server.place.socket))  # a table nobody is at plays no bots
        watcher.hello()
        watcher.send({"type": "watch", "table": "bots"})
        assert server.proc is not None
        workers: set[int] = set()

        def pool_started() -> bool:
            # every child a bots' worker (one just forked shows the server's command line until it runs its own)
            found = _children(server.proc.pid)  # type: ignore[union-attr]
            workers.update(found)
            return bool(found) and all("dvtui.server.think" in _cmdline(p) for p in found)

        wait_for("the bots' pool to start", pool_started)
        logged = server.log()
        server.kill9()
        wait_for("the pool to leave", lambda: not any(Path(f"/proc/{p}").exists() for p in workers))
        watcher.close()
        assert server.log() == logged  # nothing said after the kill (no leaked-semaphore warning)
        assert list((d / "tmp").iterdir()) == []
