"""Tournaments end to end: ``dvtui serve`` and ``dvtui tournament`` as processes. A short arena with
three bot participants (three people ``DVTUI_PLAYER`` names, vouched for by the server's own
account) runs to its final standings, each of its games counted once, the points those of the
places; the standings outlive the server; the bounds (names, times, quotas) refused in one line."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui.server.arenas import MOST_PER_ACCOUNT, points
from dvtui.store import read_game

from ..support.processes import dvtui_cmd, env
from ..support.raw import RawClient
from ..support.servers import Served, Threaded, WallByHand, short_dir, tournament_time_up

PEOPLE = ("ana", "bo", "cy")


@contextlib.contextmanager
def served() -> Iterator[Served]:
    """A server in a thread of the test (the tournaments are the subject, not its process)."""
    with short_dir() as d, Threaded(d / "srv") as server:
        server.start()
        yield server
        assert server.stop() == 0, server.log()


def joiner(server: Served, name: str, person: str) -> subprocess.Popen[str]:
    """``dvtui tournament join NAME --bot greedy`` for ``person``."""
    return subprocess.Popen(
        dvtui_cmd("tournament", "join", name, "--bot", "greedy", "--server", str(server.directory)),
        env={**env(), "DVTUI_PLAYER": person}, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


@pytest.mark.long
def test_a_short_arena_runs_to_its_standings_and_they_outlive_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    with short_dir() as d, Threaded(d / "srv") as server:  # (stopped and started again: a new server there)
        server.start()
        assert server.server is not None
        server.server.arenas.clock = clock = WallByHand()
        # the shortest tournament (6 s), its time up once its follower follows, a game is counted and
        # the next one is being played: the games begun in it are played to their end, and counted
        opened = server.dvtui("tournament", "new", "cup", "--minutes", "0.1", "--players", "3")
        assert opened.returncode == 0, opened.stderr
        assert "tournament cup (3 players, casual, 1m a move): running" in opened.stdout
        spectator = subprocess.Popen(
            dvtui_cmd("tournament", "show", "cup", "--follow", "--json", "--server", str(server.directory)),
            env=env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        procs = [joiner(server, "cup", person) for person in PEOPLE]
        tournament_time_up([server], clock, "cup")
        outs = [p.communicate(timeout=180) for p in procs]
        followed = [json.loads(line) for line in spectator.communicate(timeout=60)[0].splitlines()]
        assert spectator.returncode == 0 and followed[-1]["state"] == "over", followed
        assert followed[0]["state"] == "running" and len(followed) > 3  # pushed live: people came, games ended
        assert any(f["standings"] != followed[-1]["standings"] for f in followed[:-1])
        assert (
            followed[-1]["standings"]
            == json.loads(server.dvtui("tournament", "show", "cup", "--json").stdout)["standings"]
        )
        assert [p.returncode for p in procs] == [0, 0, 0], outs
        for out, _err in outs:
            assert "tournament cup seated you at table play-" in out
            assert "over, final standings" in out, out
        shown = server.dvtui("tournament", "show", "cup", "--json")
        standings = json.loads(shown.stdout)
        assert standings["state"] == "over" and standings["tables"] == 0 and standings["ended"], standings
        lines = standings["standings"]
        assert sorted(line["account"] for line in lines) == [f"web:{p}" for p in PEOPLE]
        assert [line["points"] for line in lines] == sorted((line["points"] for line in lines), reverse=True)
        log = server.log()
        seated = re.findall(r"the pool seated .* at (play-[0-9a-f]{8}) \(bots: 0\)", log)
        ended = re.findall(r"tournament cup: table (play-[0-9a-f]{8}) ended \((.*)\)", log)
        assert seated and sorted(seated) == sorted(table for table, _ in ended)  # every game counted, once
        assert all(line["games"] == len(seated) for line in lines)  # the three of them sat at each
        earned: Counter[str] = Counter()
        for table, said in ended:
            game = read_game(server.game_file(table))
            scores = game.events[-1].scores  # type: ignore[attr-defined]
            names = [p.name for p in game.events[0].players]  # type: ignore[attr-defined]
            for name, score in zip(names, scores, strict=True):
                place = 1 + sum(1 for other in scores if other > score)
                assert f"{name} +{points(place, 3)}" in said, (said, scores)
                earned[name] += points(place, 3)
        assert {line["account"]: line["points"] for line in lines} == earned
        assert log.index("tournament cup is over") > log.rindex("ended (")  # over once its last game ended
        assert server.stop() == 0  # the same directory, a new server: the standings are kept
        again = server.start()
        listed = again.dvtui("tournament", "list")
        leader = lines[0]["account"]
        assert listed.returncode == 0 and f"cup: over, 3 people, led by {leader}" in listed.stdout, listed
        shown_again = again.dvtui("tournament", "show", "cup", "--json")
        assert json.loads(shown_again.stdout)["standings"] == lines
        monkeypatch.setenv("DVTUI_PLAYER", "di")  # (one more person, asked by this process: it is over)
        late = again.dvtui("tournament", "join", "cup", "--bot", "greedy")
        code, out = late.returncode, late.stdout
        assert code == 0 and "over, final standings" in out and "web:di" not in out  # nobody joins it after
        assert again.stop() == 0


def test_the_bounds_are_one_clear_line() -> None:
    with served() as server:

        def error(*args: str) -> str:
            run = server.dvtui("tournament", *args)  # (run by this process: each refusal is one line all the same)
            assert run.returncode != 0 and run.stdout == "", run
            lines = run.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("dvtui: error: "), run.stderr
            return lines[0]

        assert "1 to 32 letters" in error("new", "no good", "--minutes", "5")
        assert "from 0.1 to 1440 minutes" in error("new", "cup", "--minutes", "0.05")
        assert "from 0.1 to 1440 minutes" in error("new", "cup", "--minutes", "nan")
        assert "--players 6" in error("new", "cup", "--minutes", "5", "--players", "6")
        assert "no tournament nope here" in error("show", "nope")
        assert "no tournament nope here" in error("join", "nope", "--bot", "greedy")
        for n in range(MOST_PER_ACCOUNT):
            assert server.dvtui("tournament", "new", f"cup{n}", "--minutes", "5").returncode == 0
        assert "exists already" in error("new", "CUP0", "--minutes", "5")  # names alike but for case are one
        assert f"runs {MOST_PER_ACCOUNT} tournaments already" in error("new", "more", "--minutes", "5")
        for features, code in ((["arena"], "arena_exists"), ([], "table_exists")):  # a code the client reads
            raw = RawClient(str(server.place.socket))
            raw.hello(features)
            raw.send({"type": "arena_new", "name": "cup0", "seconds": 60})
            assert raw.receive()["code"] == code
            raw.close()
        running = server.dvtui("tournament", "list").stdout
        assert "cup0: running, 0 people" in running and "cup1: running, 0 people" in running


def test_the_documented_commands_run_as_written() -> None:
    """docs/SHARED_TABLES.md's commands, as written (the server named by ``DVTUI_SERVER_DIR``)."""
    shared = (Path(__file__).resolve().parents[2] / "docs" / "SHARED_TABLES.md").read_text()
    block = shared.split("## Tournaments", 1)[1].split("```", 2)[1]
    commands = [line.split("#", 1)[0].split() for line in block.strip().splitlines()]
    actions = ("new", "join", "join", "show", "show", "list")
    assert [c[:3] for c in commands] == [["dvtui", "tournament", a] for a in actions]
    with served() as server:
        where = {**env(), "DVTUI_SERVER_DIR": str(server.directory)}

        def run(words: list[str]) -> subprocess.CompletedProcess[str]:
            return subprocess.run(dvtui_cmd(*words[1:]), env=where, capture_output=True, text=True, timeout=60,
                                  stdin=subprocess.DEVNULL)  # fmt: skip

        opened = run(commands[0])
        assert opened.returncode == 0 and "tournament friday (3-4 players" in opened.stdout, opened
        refused = run(commands[1])  # no terminal here: said before anything is joined
        assert refused.returncode != 0 and "dvtui tournament join NAME --bot LEVEL" in refused.stderr, refused
        bot = subprocess.Popen(dvtui_cmd(*commands[2][1:]), env=where, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
        try:
            assert bot.stderr is not None
            assert "tournament friday (3-4 players, casual, 1m a move): running" in bot.stderr.readline()
            shown = run(commands[3])
            assert shown.returncode == 0 and "1. web:" not in shown.stdout and " 0 pts, 0 games" in shown.stdout
            following = subprocess.Popen(dvtui_cmd(*commands[4][1:]), env=where, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.PIPE, text=True)  # fmt: skip
            assert following.stdout is not None and "running" in following.stdout.readline()
            following.terminate()
            following.communicate(timeout=60)
            listed = run(commands[5])
            assert listed.returncode == 0 and "friday: running, 1 person" in listed.stdout, listed
        finally:
            bot.terminate()
            bot.communicate(timeout=60)


@pytest.mark.postgresql
def test_a_tournament_on_a_postgresql_store_is_kept_in_the_database(pg_database: str) -> None:
    with short_dir() as d, Threaded(d / "srv", pg_database) as server:
        server.start()
        assert server.dvtui("tournament", "new", "cup", "--minutes", "0.1", "--players", "3").returncode == 0
        assert not (d / "srv" / "games" / "arenas").exists()  # in the database, not in a file
        assert server.stop() == 0
        server.start()  # started again: read from the database
        shown = server.dvtui("tournament", "show", "cup", "--json")
        assert shown.returncode == 0 and json.loads(shown.stdout)["name"] == "cup", shown
        assert server.stop() == 0
