"""People vouched for by a trusted account (``hello.user``: ``dvtui web`` behind a login proxy naming
each tab's user). Each person is an identity of their own: they own their seat apart from one
another, from the vouching account and from any account of the same name; only a trusted account
(the server's own, those of ``--trust``) may vouch, and a restarted server still knows who owns what."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pwd
from pathlib import Path
from typing import Any

import pytest

from dvtui.cli import main
from dvtui.server.main import Server
from dvtui.tables import Backoff, RemoteSession, open_table

from ..support.processes import dvtui
from ..support.raw import RawClient
from ..support.servers import Served, as_other, in_thread, short_dir

ME = pwd.getpwuid(os.getuid()).pw_name
"""This process's account, as the server names a connection's (by its uid)."""


def _as(server: Server, user: str | None) -> RawClient:
    """A connection of this process's account (the server's own), speaking for ``user``."""
    client = RawClient(str(server.place.socket))
    client.send({"type": "hello", "version": 1, **({} if user is None else {"user": user})})
    welcome = client.until("welcome")
    assert welcome["type"] == "welcome", welcome
    return client


def _join(client: RawClient, seat: int | None = None) -> dict[str, Any]:
    """``joined`` (or the error refusing it)."""
    client.send({"type": "join", "table": "t", **({} if seat is None else {"seat": seat})})
    return client.until("joined")


def _open(server: Server) -> None:
    asyncio.run(open_table(server.place, "t", ["Ana", "Bob", "Cy"], first_player=0, seed=1, wait=False))


def _users(client: RawClient) -> list[str | None]:
    presence = client.until("presence")
    return [s.get("user") for s in presence["seats"]]


def test_each_vouched_person_owns_their_seat_apart_from_the_others_and_the_account(in_process: Server) -> None:
    clients: list[RawClient] = []

    def connect(user: str | None) -> RawClient:
        clients.append(_as(in_process, user))
        return clients[-1]

    try:
        _open(in_process)
        ana = connect("ana")
        assert _join(ana)["seat"] == 0  # the seat named like the person, not like the account
        bob = connect("bob")
        taken = _join(bob, 0)
        assert taken["code"] == "seat_taken" and "belongs to web:ana" in taken["message"]
        assert _join(bob)["seat"] == 1

        account = connect(None)  # the vouching account itself is someone else
        for seat in (0, 1):
            assert _join(account, seat)["code"] == "seat_taken"
        assert _join(account)["seat"] == 2
        assert _users(account) == ["web:ana", "web:bob", ME]

        namesake = connect(ME)  # a person named like an account is not that account
        refused = _join(namesake, 2)
        assert refused["code"] == "seat_taken" and f"belongs to user {ME}" in refused["message"]

        bob.send({"type": "place", "seq": 1, "card": 6, "column": 0})  # Ana's turn: Bob cannot move for her
        illegal = bob.until("card_placed")
        assert illegal["code"] == "illegal" and "it is seat 1's turn" in illegal["message"]
        bob.send({"type": "stand_in", "seat": 0, "bot": "greedy"})
        assert bob.until("presence")["code"] == "not_away"
        assert (in_process.games / "t.dvr").read_bytes().count(b"\n") == 1  # nothing was placed

        again = connect("ana")  # the same person from another connection: her seat, taken over
        assert _join(again, 0)["seat"] == 0  # named: taken over
        assert ana.until("error")["code"] == "taken_over"
    finally:
        for client in clients:
            client.close()


def test_a_welcome_names_the_person_and_a_name_must_print_as_itself(in_process: Server) -> None:
    client = RawClient(str(in_process.place.socket))
    client.send({"type": "hello", "version": 1, "user": "ana"})
    assert client.until("welcome")["user"] == "web:ana"
    client.send({"type": "hello", "version": 1, "user": "bob"})  # one person per connection
    assert client.until("welcome")["code"] == "bad_message"
    client.send({"type": "hello", "version": 1, "user": "ana"})
    assert client.until("welcome")["user"] == "web:ana"
    client.close()
    for bad in ("", "x" * 41, "ana\x1b[2J", " ana", "ana\u202e"):
        client = RawClient(str(in_process.place.socket))
        client.send({"type": "hello", "version": 1, "user": bad})
        assert client.until("welcome")["code"] == "bad_message", bad
        assert client.receive() is None  # closed
        client.close()


async def test_a_restarted_server_keeps_vouched_owners_and_a_client_vouches_again_when_it_reconnects() -> None:
    with short_dir() as d, contextlib.ExitStack() as opened:  # every connection closed, on a failure too

        def connect(server: Server, user: str | None) -> RawClient:
            return opened.enter_context(contextlib.closing(_as(server, user)))

        directory = d / "srv"
        directory.mkdir(mode=0o700)
        with in_thread(directory) as first:
            await asyncio.to_thread(_open, first)
            account = connect(first, None)
            assert _join(account, 2)["seat"] == 2
            account.close()
            bob = connect(first, "bob")
            assert _join(bob)["seat"] == 1
            bob.close()
            backoff = Backoff(first=0.01, most=0.1)
            ana = await RemoteSession.open(first.place, "t", user="ana", backoff=backoff)  # reads on this loop
            opened.callback(ana.close)
            assert ana.seat == 0
        record = json.loads((directory / "games" / "t.table.json").read_bytes())
        assert record["owners"] == ["ana", "bob", os.getuid()]  # people by name, accounts by uid (as before)
        with in_thread(directory) as second:
            watcher = connect(second, None)
            watcher.send({"type": "watch", "table": "t"})
            # (read off the loop: Ana's client reconnects on it meanwhile)
            while (seats := (await asyncio.to_thread(watcher.until, "presence"))["seats"])[0]["state"] != "connected":
                assert ana.failure is None
            assert [s["user"] for s in seats] == ["web:ana", "web:bob", ME]  # her client, back at her seat
            watcher.close()
            bob = connect(second, "bob")
            assert _join(bob, 0)["code"] == "seat_taken"
            assert _join(bob)["seat"] == 1
            account = connect(second, None)
            assert _join(account)["seat"] == 2
            opened.close()


@pytest.mark.root
def test_only_a_trusted_account_may_vouch(other_user: pwd.struct_passwd) -> None:
    with short_dir() as d, Served(d / "srv") as server:
        os.chmod(d, 0o755)
        server.directory.mkdir(mode=0o755)
        os.chmod(server.directory, 0o755)  # the second account may reach the socket
        server.start()
        assert server.dvtui("new", "--table", "t", "--players", "Ana,Bob,Cy", "--seed", "1").returncode == 0
        sock = server.place.socket
        script = [
            {"type": "hello", "version": 1, "user": "ana", "expect": "welcome"},
            {"type": "join", "table": "t", "expect": "joined"},
        ]
        (refused,) = as_other(other_user, sock, script[:1])
        assert refused["code"] == "not_trusted" and other_user.pw_name in refused["message"]
        assert server.stop() == 0

        server.start("--trust", other_user.pw_name)
        welcome, joined = as_other(other_user, sock, script)
        assert welcome["user"] == "web:ana" and joined["seat"] == 0
        (taken,) = as_other(other_user, sock, [  # the trusted account itself is not the person
            {"type": "hello", "version": 1},
            {"type": "join", "table": "t", "seat": 0, "expect": "joined"},
        ])  # fmt: skip
        assert taken["code"] == "seat_taken" and "web:ana" in taken["message"]
        assert "Ana: away (web:ana)" in server.dvtui("tables").stdout
        assert server.stop() == 0


def test_trusting_an_unknown_account_is_one_line(tmp_path: Path) -> None:
    """In a process of its own: were the account's check lost, the server would serve on (and the
    timeout end the test) rather than hang it."""
    directory = tmp_path / "srv"
    refused = dvtui("serve", "--dir", str(directory), "--trust", "no-such-account", timeout=60)
    assert refused.stderr == "dvtui: error: --trust no-such-account: no such account on this host\n"
    assert refused.returncode == 2
    assert not directory.exists()


@pytest.mark.parametrize("name", ["x" * 41, "ana\x1b]52;c;bad\x07", "ana "])
def test_a_person_the_table_cannot_take_is_one_line_before_anything_is_opened(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DVTUI_PLAYER", name)  # as dvtui web --user-header sets it, from the proxy's header
    assert main(["new", "--table", "t", "--players", "Ana,Bob,Cy", "--server", "/nonexistent"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dvtui: error: DVTUI_PLAYER: a person's name ") and err.count("\n") == 1
    assert "\x1b" not in err
