"""A seat's name in the presence banner carries the account that holds it whenever the two
differ, as chat's speaker does: a seat named ``Ana`` held by ``mal`` never reads as Ana's alone,
with or without a look-alike letter."""

from __future__ import annotations

import msgspec

from dvtui.app.widgets.presence import presence_line
from dvtui.engine import Game, Seat
from dvtui.lookalike import MIXED_MARK
from dvtui.play.face import Presence
from dvtui.play.presence import seat_name
from dvtui.tables import SeatState

from ..support.positions import created


def seats() -> list[SeatState]:
    return [
        SeatState(seat=0, name="Ana", kind="human", state="connected", user="mal"),
        SeatState(seat=1, name="Bob", kind="human", state="connected", user="bob"),
        SeatState(seat=2, name="Cy", kind="human", state="away", user="web:Cy"),
        SeatState(seat=3, name="sec3\u0430na", kind="human", state="connected", user="eve"),
        SeatState(seat=4, name="Dee", kind="human", state="free"),
    ]


def presence(seat: int | None) -> Presence:
    return Presence("t", seat, seats(), 0, "connected", None, "dvtui join t")


def test_each_seat_held_by_an_account_of_another_name_says_whose_it_is() -> None:
    shown = [seat_name(presence(1), s) for s in seats()]
    assert shown == ["Ana (mal)", "Bob", "Cy", f"sec3\u0430na {MIXED_MARK} (eve)", "Dee"]


def test_this_sides_own_seat_keeps_its_name() -> None:
    assert seat_name(presence(0), seats()[0]) == "Ana"


def test_the_banner_line_names_the_account() -> None:
    colors = ("red", "yellow", "green", "blue", "purple")
    names = [s.name for s in seats()]
    game = Game(created([Seat(name=n, kind="human", color=c) for n, c in zip(names, colors, strict=True)]))
    line = presence_line(presence(None), game).plain
    assert line.startswith("Ana (mal) (here) · Bob (here) · Cy (away) · "), line


def test_the_banner_of_a_rated_table_says_it_is_rated() -> None:
    colors = ("red", "yellow", "green", "blue", "purple")
    players = [Seat(name=s.name, kind="human", color=c) for s, c in zip(seats(), colors, strict=True)]
    casual = created(players)
    rated = msgspec.structs.replace(casual, rated=True)
    assert presence_line(presence(None), Game(rated)).plain.endswith(" · rated")
    assert "rated" not in presence_line(presence(None), Game(casual)).plain
