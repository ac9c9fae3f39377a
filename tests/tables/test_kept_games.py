"""Games kept after their tables: a table put aside (finished, closed, left) leaves its game as
``NAME.<time>.dvr``; ``list_tables`` with ``all`` (``dvtui tables --all``) lists them after their
table's name, and the server removes each once its last line is older than it keeps games
(``dvtui serve --keep-days``, default 30): at its start and on its sweep, never a table's own game."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dvtui.server.registry import TableLimits
from dvtui.store import read_game
from dvtui.tables import close_table, list_tables, open_table
from dvtui.tables.stamps import last_stamp, stamp_time

from ..support.processes import dvtui
from ..support.raw import ask, speaking_for
from ..support.servers import game_on_disk, in_thread, short_dir, wait_for

DAY = 86400.0


def _names(place_dir: Path, *, kept: bool) -> list[str]:
    from dvtui.tables import ServerPlace

    return [info.table for info in asyncio.run(list_tables(ServerPlace(place_dir, personal=False), kept=kept))]


def test_kept_games_are_listed_with_all_and_the_old_ones_removed_at_the_start() -> None:
    with short_dir() as d:
        games, now = d / "games", time.time()
        game_on_disk(games / "fri.2026-01-02T10-00-00.dvr", at=now - 40 * DAY)  # past the 30 days
        (games / "fri.2026-01-02T10-00-00.table.json").write_text("{}")
        (games / "fri.2026-01-02T10-00-00.chat").write_text("")
        game_on_disk(games / "fri.2026-03-04T10-00-00.dvr", at=now - 2 * DAY)
        game_on_disk(games / "sat.2026-03-05T10-00-00.dvr", at=now - 3 * DAY, lines=20)  # closed unfinished
        game_on_disk(games / "fri.dvr", at=now - 400 * DAY, lines=10)  # a table in play, however old
        with in_thread(d) as server:
            assert not (games / "fri.2026-01-02T10-00-00.dvr").exists()
            assert list(games.glob("fri.2026-01-02T10-00-00.*")) == []  # what was kept beside it too
            assert _names(d, kept=False) == ["fri"]
            assert _names(d, kept=True) == ["fri", "fri.2026-03-04T10-00-00", "sat.2026-03-05T10-00-00"]
            listed = dvtui("tables", "--all", "--server", str(d))
            assert listed.returncode == 0, listed.stderr
            lines = listed.stdout.splitlines()
            assert lines[0].startswith("fri  round 1/6") and len(lines) == 3
            assert lines[1].startswith("fri.2026-03-04T10-00-00  kept: game over, last line 20")
            assert lines[1].endswith("[Bot 1; Bot 2; Bot 3]")
            assert lines[2].startswith("sat.2026-03-05T10-00-00  kept: stopped in round ")
            assert "kept" not in dvtui("tables", "--server", str(d)).stdout
            assert server.kept.keys() == {"fri.2026-03-04T10-00-00", "sat.2026-03-05T10-00-00"}


def test_a_table_put_aside_is_kept_then_removed_by_the_sweep_once_its_last_line_is_old_enough() -> None:
    """A table last played two days ago, closed: its game is kept and listed, then the sweep of a
    server that keeps games one day removes it (the time counts from the last line, not the close)."""
    with short_dir() as d:
        game_on_disk(d / "games" / "old.dvr", at=time.time() - 2 * DAY, lines=10)
        with in_thread(d, table_limits=TableLimits(keep_days=1, sweep=0.05)) as server:
            assert _names(d, kept=True) == ["old"]
            asyncio.run(close_table(server.place, "old"))
            # unlisted once its files are gone: waiting for the list waits for both
            wait_for("the kept game to go", lambda: _names(d, kept=True) == [], every=0.05)
            assert not list((d / "games").glob("old.*")) and server.kept == {}


def test_a_finished_game_moved_aside_by_a_new_table_of_its_name_is_listed_as_kept() -> None:
    with short_dir() as d:
        game_on_disk(d / "games" / "fin.dvr", at=time.time() - DAY)  # a finished table, still listed
        with in_thread(d) as server:
            asyncio.run(open_table(server.place, "fin", ["Ana", "bot:greedy", "bot:greedy"], seed=1))
            listed = _names(d, kept=True)
            assert listed[0] == "fin" and len(listed) == 2 and listed[1].startswith("fin.")
            assert server.kept[listed[1]].over and server.kept[listed[1]].kept is not None


def test_keep_days_out_of_range_is_one_line() -> None:
    done = dvtui("serve", "--dir", "/nonexistent/dvtui", "--keep-days", "0")
    assert done.returncode == 2 and done.stderr == "dvtui: error: --keep-days 0: give 1 to 36500 days\n"


def test_a_closed_tables_game_is_fetched_by_who_sat_at_it_and_nobody_else(tmp_path: Path) -> None:
    with short_dir() as d, in_thread(d) as server:
        ana, eve = (speaking_for(str(server.place.socket), who) for who in ("ana", "eve"))
        opened = {"type": "open_table", "table": "sat", "players": ["Ana", "Bob", "bot:random"], "seed": 4,
                  "first_player": 0}  # fmt: skip
        assert ask(ana, opened, "opened")["type"] == "opened"
        assert ask(ana, {"type": "join", "table": "sat", "seat": 0}, "joined")["seat"] == 0
        placed = ask(ana, {"type": "place", "seq": 1, "card": 1, "column": 0}, "card_placed")  # (so it is kept)
        assert placed["player"] == 0
        ana.send({"type": "close_table", "table": "sat"})
        assert ana.until("error")["code"] == "closed"  # (seated there: told first)
        assert ana.until("closed") == {"type": "closed", "table": "sat"}
        [kept] = [t for t in ask(ana, {"type": "list_tables", "all": True}, "tables")["tables"] if "kept" in t]
        fetch = {"type": "fetch_game", "table": kept["table"], "game": 1}
        told = ask(ana, fetch, "game_lines")
        assert (told["table"], told["game"]) == (kept["table"], 1) and told["lines"] >= 1
        refused = ask(eve, fetch, "game_lines")
        assert (refused["type"], refused["code"]) == ("error", "not_seated"), refused
        out = tmp_path / "sat.dvr"
        done = dvtui("fetch", kept["table"], "-o", out, "--server", d)  # the server's own account may too
        assert done.returncode == 0, done.stderr
        assert done.stdout == f"table {kept['table']}: its game (round 1 of 6) is saved in {out}\n"
        assert read_game(out).game.round == 1


def test_a_stamp_without_a_zone_is_utc_wherever_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every stamp the files and the server write is UTC: one without its ``Z`` is read as UTC too,
    by the kept games' times as by the lists' (never as the reader's local time)."""
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        zoned = last_stamp(b'{"type":"card_placed","at":"2026-12-06T22:56:00Z"}\n')
        bare = last_stamp(b'{"type":"card_placed","at":"2026-12-06T22:56:00"}\n')
        assert zoned == bare == datetime(2026, 12, 6, 22, 56, tzinfo=UTC).timestamp()
        assert stamp_time("2026-12-06T22:56:00") == stamp_time("2026-12-06T22:56:00+00:00")
        assert stamp_time("not a time") is None
    finally:
        monkeypatch.undo()
        time.tzset()
