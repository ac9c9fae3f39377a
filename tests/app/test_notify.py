"""The desktop notification on one's turn at a shared table: its bytes carry no raw outside text,
and it is a setting of the person's, off unless they turn it on."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from dvtui.app.config import Pace, load_notify, save_pace, settings_path
from dvtui.app.notify import MAX_NOTIFICATION_CHARS, turn_notification
from dvtui.app.screens.table import TableScreen
from dvtui.app.widgets.hand import HandBar
from dvtui.play.face import Abilities, Presence
from dvtui.play.local import LocalSession

from ..support.apps import new_session, table_app
from ..support.pilot import until


def test_the_notification_is_an_osc_9_and_an_osc_777_sequence() -> None:
    assert turn_notification("cafe") == (
        "\x1b]9;Dolce Vita: Your turn at table cafe\x07\x1b]777;notify;Dolce Vita;Your turn at table cafe\x07"
    )


def test_outside_text_cannot_end_the_sequence_or_add_a_field() -> None:
    hostile = "x\x1b]52;c;cm0gLXJmIC8=\x07\x9b2J;title;\u202eevil" + "y" * 200
    sequence = turn_notification(hostile)
    parts = re.fullmatch(r"\x1b\]9;([^\x00-\x1f\x7f-\x9f]*)\x07\x1b\]777;notify;([^\x00-\x1f\x7f-\x9f]*)\x07", sequence)
    assert parts is not None, repr(sequence)  # ESC and BEL only as the two sequences' frames
    osc9, osc777 = parts.groups()
    fields = osc777.split(";")
    assert fields[0] == "Dolce Vita" and len(fields) == 2  # a name's ';' opens no field of OSC 777
    body = fields[1]
    assert body.startswith("Your turn at table x\\x1b]52,c,cm0gLXJmIC8=\\x07\\x9b2J,title,\\u202eevil")
    assert len(body) == MAX_NOTIFICATION_CHARS and body.endswith("…")
    assert osc9 == f"Dolce Vita: {body}"


def test_the_setting_is_off_unless_turned_on_and_a_pace_change_keeps_it() -> None:
    assert load_notify() is False  # no settings file
    save_pace(Pace())
    assert load_notify() is False  # a settings file that does not say
    path = settings_path()
    path.write_text('{"notify": true}')
    assert load_notify() is True
    save_pace(Pace(bot_delay=2.0))  # the pace is saved in the same file
    assert load_notify() is True
    path.write_text("{not json")
    assert load_notify() is False


@dataclass
class AtTable:
    """A local game seen as one seat at a shared table named "cafe", as far as the screen asks."""

    inner: LocalSession

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    @property
    def abilities(self) -> Abilities:
        return Abilities((0,), table="cafe", branch="lines", stand_ins=True)

    @property
    def table(self) -> object:
        """A shared table's side: this fake's own ``presence``."""
        return self

    def presence(self) -> Presence:
        return Presence("cafe", 0, [], 0, "connected", None, "dvtui join cafe")


@pytest.mark.parametrize("notify", [True, False])
async def test_the_table_asks_for_a_notification_on_ones_turn_only_when_set(
    notify: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"notify": notify}))
    sent: list[str] = []
    monkeypatch.setattr(TableScreen, "notify_desktop", lambda self, sequence: sent.append(sequence))
    app = table_app(AtTable(new_session(tmp_path / "g.dvr")))  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, "the table", lambda: isinstance(app.screen, TableScreen))
        # the hand is drawn for its player in the same step that rings and notifies
        await until(pilot, "the turn shown", lambda: app.screen.query_one(HandBar).active)
    assert sent == ([turn_notification("cafe")] if notify else [])
