"""How the plain mode is chosen (``--plain``, ``DVTUI_PLAIN``, the settings) and its start menu."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dvtui.app.config import Pace, save_pace
from dvtui.settings import saved_plain, settings_path

from ..support.files import PLAYERS, write_game
from ..support.plain import PlainPlayer, no_escape
from ..support.processes import dvtui_cmd, env

SOLO = "Ana,bot:greedy,bot:greedy"


def _piped(*args: str, data: Path, typed: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(dvtui_cmd(*args), input=typed, capture_output=True, text=True, timeout=120, check=False,
                          env={**env(data), **(extra or {})})  # fmt: skip


def test_the_settings_choose_the_plain_mode_and_the_environment_overrides_them(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"plain": True}))
    chosen = _piped("new", "--players", SOLO, "-o", str(tmp_path / "s.dvr"), data=tmp_path, typed="quit\n")
    assert chosen.returncode == 0, chosen.stderr
    assert chosen.stdout.startswith("New game: Ana, Bot 1 and Bot 2")
    off = _piped("new", "--players", SOLO, "-o", str(tmp_path / "o.dvr"), data=tmp_path, typed="quit\n",
                 extra={"DVTUI_PLAIN": "0"})  # fmt: skip
    assert off.returncode == 2  # the full screen, refused without a terminal
    assert "needs a terminal" in off.stderr


def test_saving_the_pace_keeps_the_plain_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path))
    settings_path().write_text(json.dumps({"plain": True, "language": "fr"}))
    save_pace(Pace())
    assert saved_plain()
    assert json.loads(settings_path().read_text())["plain"] is True


def test_the_start_menu_plays_a_new_game_and_follows_a_replay(tmp_path: Path) -> None:
    menu = PlainPlayer("--plain", data=tmp_path)
    menu.expect("Type 1 or new for a new game")
    menu.send("5")
    menu.expect(r"Type 1, 2, 3 or 4 \(new, resume, replay, quit\)\.")
    menu.send("1")
    menu.expect("Who plays\\?")
    menu.send("Ana,Ben")  # two seats: refused, asked again
    menu.expect("Dolce Vita is for 3 to 5 players")
    menu.send("")  # the default: you against two greedy bots
    menu.expect("New game: .* and Bot 2; .* starts; 6 rounds")
    assert menu.turn() is not None
    menu.send("q")
    menu.expect("Continue it: dvtui resume ")
    assert menu.finish() == 0
    no_escape(menu.said)

    game = tmp_path / "bots.dvr"
    write_game(game, PLAYERS[3], 7)
    again = PlainPlayer("--plain", data=tmp_path)
    again.expect("Type 1 or new")
    again.send("replay")
    again.expect("Which file\\? Type its path.")
    again.send(str(game))
    again.expect("New game: Bot 1, Bot 2 and Bot 3")
    again.send("n")
    again.expect("Bot 1 placed [1-6] under column [A-G]")
    again.send("quit")
    assert again.finish() == 0
    no_escape(again.said)


def test_resume_plain_takes_the_latest_game_and_refuses_a_finished_one(tmp_path: Path) -> None:
    left = _piped("new", "--plain", "--players", SOLO, "--seed", "3", data=tmp_path, typed="2 a\nquit\n")
    assert left.returncode == 0, left.stderr
    resumed = _piped("resume", "--plain", data=tmp_path, typed="hand\nquit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "Resumed at round 1 of 6, 3 of 15 cards placed this round." in resumed.stdout
    assert "You hold 1, 3, 4, 5 and 6." in resumed.stdout
    finished = tmp_path / "done.dvr"
    write_game(finished, PLAYERS[3], 7)
    refused = _piped("resume", str(finished), "--plain", data=tmp_path, typed="")
    assert refused.returncode == 1
    assert "this game is finished" in refused.stderr and "Traceback" not in refused.stderr


def test_a_plain_game_never_loads_textual(tmp_path: Path) -> None:
    """The plain front starts as fast as the headless commands: Textual (and Rich) stay unloaded."""
    script = (
        "import sys\nfrom dvtui.cli import main\n"
        f"code = main(['new', '--plain', '--players', {SOLO!r}, '-o', {str(tmp_path / 'f.dvr')!r}])\n"
        "print([m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')], code)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], input="3 c\nboard\nquit\n", capture_output=True, text=True,
                          env=env(tmp_path), timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[] 0"
    assert "Ana placed 3 under column C" in done.stdout


def test_resume_plain_without_a_game_says_how_to_start_one(tmp_path: Path) -> None:
    done = _piped("resume", "--plain", data=tmp_path, typed="")
    assert done.returncode == 1
    assert done.stderr.startswith("dvtui: no unfinished game in ") and done.stderr.count("\n") == 1


def test_a_browser_tab_is_never_plain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``dvtui web``'s tabs run dvtui on the web driver's pipes: a person's ``"plain": true`` (or
    the variable) must not turn their tab into lines the browser cannot show."""
    import argparse

    from dvtui.cli.terminal import WEB_DRIVER, wants_plain

    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path))
    settings_path().write_text(json.dumps({"plain": True}))
    monkeypatch.delenv("DVTUI_PLAIN", raising=False)
    assert wants_plain(argparse.Namespace())
    monkeypatch.setenv("TEXTUAL_DRIVER", WEB_DRIVER)
    assert not wants_plain(argparse.Namespace())
    monkeypatch.setenv("DVTUI_PLAIN", "1")
    assert not wants_plain(argparse.Namespace(plain=True))
