"""Invitations: ``dvtui new --table NAME --invite SEAT=USER`` keeps a seat for an account or a
vouched person whatever its name; nobody else, a spectator included, can take it."""

from __future__ import annotations

import os
import pwd

from dvtui.tables.wire import MAX_PERSON_CHARS

from ..support.raw import RawClient
from ..support.servers import Served, short_dir

ME = pwd.getpwuid(os.getuid()).pw_name


def test_an_invited_seat_is_kept_for_its_guest_alone() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        eve = "web:" + "e" * MAX_PERSON_CHARS  # the longest name a person may have
        opened = server.dvtui(
            "new", "--table", "inv", "--players", "Ana,Bob,bot:random", "--invite", f"2={eve}", "--invite", f"ana={ME}"
        )
        assert opened.returncode == 0, opened.stderr
        listed = server.dvtui("tables").stdout
        assert f"Ana: free, kept for {ME}" in listed and f"Bob: free, kept for {eve}" in listed, listed
        spectator = RawClient(str(server.place.socket))
        try:
            spectator.send({"type": "hello", "version": 1})
            spectator.until("welcome")
            spectator.send({"type": "watch", "table": "inv"})
            spectator.until("joined")
            spectator.send({"type": "join", "table": "inv", "seat": 1})
            refused = spectator.until("error")
        finally:
            spectator.close()
        assert refused["code"] == "seat_taken" and eve in refused["message"], refused
        squat = server.dvtui("join", "inv", "--as", "Bob", "--bot", "random")
        assert squat.returncode == 1 and "kept for" in squat.stderr and eve in squat.stderr, squat.stderr
        assert f"Bob: free, kept for {eve}" in server.listed()


def test_an_invitation_to_a_bot_or_to_nobody_is_refused() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        bot = server.dvtui("new", "--table", "b", "--players", "Ana,Bob,bot:random", "--invite", "3=web:eve")
        assert bot.returncode == 2 and "Bot 1 is a bot's seat" in bot.stderr, bot.stderr
        shape = server.dvtui("new", "--table", "b", "--players", "Ana,Bob,Cy", "--invite", "2")
        assert shape.returncode == 2 and "give SEAT=USER" in shape.stderr, shape.stderr
        nobody = server.dvtui("new", "--table", "b", "--players", "Ana,Bob,Cy", "--invite", "2=no-such-account-here")
        assert nobody.returncode == 1 and "no such account" in nobody.stderr, nobody.stderr
        assert "no tables" in server.dvtui("tables").stdout
