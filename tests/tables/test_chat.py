"""Chat at a table: a line reaches everyone there as plain text with its speaker's name, a spectator
speaks as a spectator whatever it asks, the talk is kept beside the game (never in the ``.dvr``) and
given to whoever arrives, and nobody can flood a table with it."""

from __future__ import annotations

import asyncio
import json
import os
import pwd
from pathlib import Path

import pytest

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.options import AppOptions
from dvtui.app.textual_private import notifications
from dvtui.app.widgets.panels import EventLog
from dvtui.server.limits import Limits
from dvtui.server.main import Server
from dvtui.tables import RemoteSession, open_table

from ..support.pilot import until
from ..support.processes import dvtui, one_error_line
from ..support.raw import RawClient, ask, speaking_for
from ..support.servers import in_thread, short_dir

HOSTILE = "\x1b[2J[bold red]hi[/] \u202eevil\x07"
"""A screen clear, Rich markup, a bidi override and a bell: what a line must never do to a terminal."""
SHOWN = "\\x1b[2J[bold red]hi[/] \\u202eevil\\x07"


def _as(server: Server, user: str) -> RawClient:
    return speaking_for(str(server.place.socket), user)


_ask = ask


def _table(server: Server) -> tuple[RawClient, RawClient]:
    """Table t1 of ana, bob and a bot: ana seated, bob watching."""
    ana, bob = _as(server, "ana"), _as(server, "bob")
    _ask(ana, {"type": "open_table", "table": "t1", "players": ["ana", "bob", "bot:random"], "seed": 1}, "opened")
    assert _ask(ana, {"type": "join", "table": "t1", "seat": 0}, "presence")["type"] == "presence"
    assert _ask(bob, {"type": "watch", "table": "t1"}, "presence")["type"] == "presence"
    return ana, bob


def test_a_line_reaches_everyone_as_plain_text_and_a_spectator_cannot_speak_as_a_player() -> None:
    with short_dir() as d, in_thread(d) as server:
        ana, bob = _table(server)
        said = _ask(bob, {"type": "say", "table": "t1", "text": "I am ana", "seat": 0, "user": "ana"}, "said")
        assert (said["user"], said.get("seat")) == ("web:bob", None)  # the keys it added are ignored
        assert ana.until("said") == said
        ana.send({"type": "say", "table": "t1", "text": f"  {HOSTILE}  "})
        for client in (ana, bob):
            line = client.until("said")
            assert (line["user"], line["seat"], line["text"]) == ("web:ana", 0, SHOWN)


def test_the_talk_is_kept_beside_the_game_and_given_to_whoever_arrives() -> None:
    with short_dir() as d:
        with in_thread(d) as server:
            ana, _bob = _table(server)
            for i in range(3):
                _ask(ana, {"type": "say", "table": "t1", "text": f"line {i}"}, "said")
        games = Path(d, "games")
        assert "said" not in (games / "t1.dvr").read_text()
        assert [json.loads(line)["text"] for line in (games / "t1.chat").read_text().splitlines()] == [
            "line 0", "line 1", "line 2",
        ]  # fmt: skip
        with in_thread(d) as server:  # restarted: a newcomer still gets them, after the game's lines
            carol = _as(server, "carol")
            carol.send({"type": "watch", "table": "t1"})
            kinds, texts = [], []
            while (message := carol.receive()) is not None and message["type"] != "presence":
                kinds.append(message["type"])
                texts += [message["text"]] if message["type"] == "said" else []
            assert texts == ["line 0", "line 1", "line 2"]
            assert kinds.index("said") > kinds.index("game_created")


def test_chat_is_rate_limited_per_connection_and_per_account() -> None:
    limits = Limits(chat_burst=3, chat_rate=0.01, chat_account_burst=5, chat_account_rate=0.01)
    with short_dir() as d, in_thread(d, limits=limits) as server:
        ana, _bob = _table(server)
        answers = [_ask(ana, {"type": "say", "table": "t1", "text": "hi"}, "said")["type"] for _ in range(4)]
        assert answers == ["said", "said", "said", "error"]
        assert _ask(ana, {"type": "list_tables"}, "tables")["type"] == "tables"  # refused, not cut off
        other = _as(server, "ana")  # a second connection of the same person: the account's budget is shared
        answers = [_ask(other, {"type": "say", "table": "t1", "text": "hi"}, "said") for _ in range(3)]
        assert [a["type"] for a in answers] == ["said", "said", "error"]
        assert answers[-1]["code"] == "chat_limit" and answers[-1]["re"] == "say"
        assert _ask(_as(server, "bob"), {"type": "say", "table": "t1", "text": "hi"}, "said")["type"] == "said"


def test_dvtui_say_speaks_from_a_shell_and_refuses_in_one_line() -> None:
    with short_dir() as d, in_thread(d) as server:
        _ana, bob = _table(server)
        done = dvtui("say", "--server", d, "t1", HOSTILE)
        assert done.returncode == 0, done.stderr
        assert done.stdout == "table t1: said to everyone there\n"  # the table answered
        line = bob.until("said")
        assert line["text"] == SHOWN and "seat" not in line  # the account owns no seat of t1
        done = dvtui("say", "--server", d, "t1", "   ")
        assert done.returncode == 2 and "say 1 to 300 characters" in one_error_line(done.stderr)
        done = dvtui("say", "--server", d, "nope", "hello")
        assert done.returncode != 0 and "no table nope" in one_error_line(done.stderr)


async def test_a_line_from_a_shell_reaches_the_table_screen_literally_and_m_says_one(in_process: Server) -> None:
    players = ["Ana", "bot:greedy", "bot:greedy"]
    await asyncio.to_thread(lambda: asyncio.run(open_table(in_process.place, "c", players, seed=2, first_player=1)))
    said = await asyncio.to_thread(dvtui, "say", "--server", in_process.place.directory, "c", "before you came")
    assert said.returncode == 0, said.stderr
    ana = await RemoteSession.open(in_process.place, "c", seat=0)
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            log = app.screen.query_one(EventLog)
            me = pwd.getpwuid(os.getuid()).pw_name

            def said_lines() -> list[str]:
                return [e.plain for e in log.entries if ": " in e.plain and not e.plain.startswith("New game")]

            await until(pilot, "the recent line", lambda: f"{me} (watching): before you came" in said_lines())
            said = await asyncio.to_thread(dvtui, "say", "--server", in_process.place.directory, "c", HOSTILE)
            assert said.returncode == 0, said.stderr
            # the account now owns seat 0 (Ana's), so its lines are Ana's, from any connection
            # (its account beside the seat's name: the name is not the account's)
            await until(pilot, "the hostile line", lambda: f"Ana ({me}): {SHOWN}" in said_lines())
            await pilot.press("m")
            await pilot.press(*"[b]hi[/b]", "enter")
            await until(pilot, "Ana's own line", lambda: f"Ana ({me}): [b]hi[/b]" in said_lines())
            chat = (in_process.games / "c.chat").read_text().splitlines()
            assert [(line["text"], line.get("seat")) for line in map(json.loads, chat)] == [
                ("before you came", None), (SHOWN, 0), ("[b]hi[/b]", 0),
            ]  # fmt: skip
    finally:
        ana.close()


@pytest.mark.parametrize(("size", "toast"), [((80, 24), True), ((120, 40), False)])
async def test_a_line_said_while_the_log_has_no_room_on_screen_comes_as_a_toast(
    in_process: Server, size: tuple[int, int], toast: bool
) -> None:
    """Four players at 80x24: the log has no row under the table, so a line said there comes as a
    toast too (as plain text); at 120x40 the log is beside the table and the line goes there only."""
    players = ["Ana", "bot:greedy", "bot:greedy", "bot:greedy"]
    await open_table(in_process.place, "t4", players, seed=2, first_player=0, wait=False)
    ana = await RemoteSession.open(in_process.place, "t4", seat=0)
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    try:
        async with app.run_test(size=size) as pilot:
            log = app.screen.query_one(EventLog)
            await pilot.pause()
            panel = app.screen.query_one("#side").region  # the log's rows past it are cut off
            assert (log.region.intersection(panel).height == 0) is toast
            said = await asyncio.to_thread(dvtui, "say", "--server", in_process.place.directory, "t4", "[b]hi all")
            assert said.returncode == 0, said.stderr
            await until(pilot, "the line in the log", lambda: any("[b]hi all" in e.plain for e in log.entries))
            await pilot.pause()
            toasts = [(n.title, n.message) for n in notifications(app)]
            me = pwd.getpwuid(os.getuid()).pw_name  # (the seat is Ana, said from the test's account: both shown)
            assert (("Said at the table", f"Ana ({me}): [b]hi all") in toasts) is toast, toasts
    finally:
        ana.close()


def test_a_seat_named_to_read_as_an_account_is_refused_so_nobody_speaks_as_them() -> None:
    """A seat named ``sec3аna`` (a Cyrillic ``а``) would show as the account ``sec3ana`` in chat and
    presence, held by whoever sat there: the server refuses such a name when the table is opened."""
    me = pwd.getpwuid(os.getuid()).pw_name
    styled = "".join(chr(0x1D41A + ord(c) - ord("a")) if "a" <= c <= "z" else c for c in me)  # bold letters
    with short_dir() as d, in_thread(d) as server:
        mal = _as(server, "mal")
        players = [styled, "bob", "bot:random"]
        refused = _ask(mal, {"type": "open_table", "table": "spoof", "players": players}, "opened")
        assert refused["code"] == "bad_setup" and f"reads as {me} without being them" in refused["message"]
        players = ["bob", "cy", "bot:random"]
        assert _ask(mal, {"type": "open_table", "table": "fine", "players": players}, "opened")["type"] == "opened"
