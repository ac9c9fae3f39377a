"""Two Unix users at one table: the server knows each by the socket (SO_PEERCRED), never by what a
client says. The second user (a real account, run with ``setpriv``, speaking the protocol from a
Python that has nothing of dvtui) can neither take nor move for the first user's seat; it may let a
bot stand in for it while its owner is away, and the file says so."""

from __future__ import annotations

import os
import pwd

import pytest

from dvtui.store import read_game

from ..support.raw import RawClient
from ..support.servers import Served, as_other, short_dir, wait_for

pytestmark = pytest.mark.root


def test_a_second_user_cannot_take_or_move_for_the_first_users_seat(other_user: pwd.struct_passwd) -> None:
    with short_dir() as d, Served(d / "srv") as server:
        os.chmod(d, 0o755)
        server.directory.mkdir(mode=0o755)
        os.chmod(server.directory, 0o755)  # who may enter the directory may reach the server
        server.start("--limit", "stand-in-grace=0.001")  # (the grace itself: test_table_rules)
        opened = server.dvtui("new", "--table", "shared", "--players", "Ana,Bob,Cy", "--seed", "4", "--start-now")
        assert opened.returncode == 0, opened.stderr
        sock = server.place.socket

        ana = RawClient(str(sock))
        assert ana.hello()["user"] == "root"
        ana.send({"type": "join", "table": "shared", "seat": 0})
        assert ana.until("joined")["seat"] == 0

        hello, taken, unnamed, joined, for_ana, stand_in, undo = as_other(other_user, sock, [
            {"type": "hello", "version": 1, "expect": "welcome"},
            {"type": "join", "table": "shared", "seat": 0, "expect": "joined"},
            {"type": "join", "table": "shared", "expect": "joined"},
            {"type": "join", "table": "shared", "seat": 1, "expect": "joined"},
            {"type": "place", "seq": 1, "card": 6, "column": 0, "expect": "error"},
            {"type": "stand_in", "seat": 0, "bot": "greedy", "expect": "error"},
            {"type": "undo", "seq": 1, "expect": "error"},
        ])  # fmt: skip
        assert hello["user"] == other_user.pw_name  # from the socket: a client cannot claim another
        assert taken["code"] == "seat_taken" and "belongs to user root" in taken["message"]
        assert unnamed["code"] == "no_seat" and "Bob, Cy" in unnamed["message"]  # asked to name one
        assert joined["seat"] == 1
        assert for_ana["code"] == "illegal" and "it is seat 1's turn" in for_ana["message"]
        assert stand_in["code"] == "not_away"
        assert undo["code"] == "nothing_to_undo"
        assert server.lines("shared") == 1  # nothing was placed

        ana.close()  # Ana is away now: still hers
        wait_for("Ana to be away", lambda: "Ana: away" in server.dvtui("tables").stdout)
        taken_again, _, placed = as_other(other_user, sock, [
            {"type": "hello", "version": 1},
            {"type": "join", "table": "shared", "seat": 0, "expect": "error"},
            {"type": "join", "table": "shared", "seat": 1, "expect": "joined"},
            {"type": "stand_in", "seat": 0, "bot": "greedy", "expect": "card_placed"},
        ])  # fmt: skip
        assert taken_again["code"] == "seat_taken"
        assert placed["player"] == 0 and placed["stand_in"] == "greedy" and placed["seq"] == 1

        back = RawClient(str(sock))  # Ana's owner comes back: the seat is hers, the bot stops
        back.hello()
        back.send({"type": "join", "table": "shared"})
        assert back.until("joined")["seat"] == 0
        presence = back.until("presence")
        assert presence["seats"][0]["state"] == "connected" and "stand_in" not in presence["seats"][0]
        assert presence["seats"][1]["user"] == other_user.pw_name
        back.close()
        assert read_game(server.game_file("shared")).events[1].stand_in == "greedy"  # type: ignore[attr-defined]
        assert b'"stand_in":"greedy"' in server.game_file("shared").read_bytes().splitlines()[1]
        assert server.stop() == 0
