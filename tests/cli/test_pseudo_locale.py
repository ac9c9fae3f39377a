"""No English left: under the pseudo-locale (``--lang qps``: every message from the catalogue comes
out accented), every command's errors, help and listings, and the main screens, are scanned for a
plain lowercase English word. One is a message the code never marked for translation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui import i18n
from dvtui.cli import main

from ..support.processes import REPO
from ..support.pseudo import leaks

GAME = REPO / "replays" / "game.dvr"


@pytest.fixture
def pseudo() -> Iterator[None]:
    yield
    i18n.set_language(i18n.ENGLISH)


def said(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) if args[-1] in ("--help", "bogus") else _nothing():
        main(["--lang", "qps", *args])
    out = capsys.readouterr()
    return out.out + out.err


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def test_the_scan_finds_an_unmarked_word() -> None:
    assert leaks("ŠöḿéţĥîñĜ · the name is empty") != []
    assert leaks(i18n.pseudo("the name is empty") + " dvtui new --players 'Ana,,x' /tmp/a.dvr") == []


COMMANDS: dict[str, list[str]] = {
    "empty entry": ["new", "--players", "Ana,,bot:greedy"],
    "unknown level": ["new", "--players", "Ana,bot:foo,Bob"],
    "two players": ["new", "--players", "Ana,Bob"],
    "same name": ["new", "--players", "Ana,ana,Bob"],
    "empty name": ["new", "--players", "Ana, ,Bob"],
    "bot name": ["new", "--players", "Ana,bot:,Bob"],
    "no budget": ["new", "--players", "Ana,bot:greedy@5,Bob"],
    "zero budget": ["new", "--players", "Ana,bot:strong@0,Bob"],
    "big budget": ["new", "--players", "Ana,bot:strong@999999999,Bob"],
    "bad budget": ["new", "--players", "Ana,bot:strong@x,Bob"],
    "first": ["new", "--players", "Ana,Bob,Cy", "--first", "9"],
    "seed": ["new", "--seed", "99999999999999999999999"],
    "bot delay": ["new", "--bot-delay", "99"],
    "no directory": ["new", "-o", "/nonexistent/x.dvr", "--players", "bot:greedy,bot:greedy,bot:greedy"],
    "exists": ["new", "-o", str(GAME), "--players", "bot:greedy,bot:greedy,bot:greedy"],
    "no terminal": ["new", "--players", "Ana,Bob,Cy"],
    "bots without a terminal": ["new", "--players", "bot:greedy,bot:greedy,bot:greedy"],
    "table name": ["new", "--table", "x!y", "--players", "Ana,Bob,Cy"],
    "sim of people": ["sim", "--players", "Ana,bot:greedy,bot:greedy"],
    "resume list": ["resume", "--list"],
    "resume list file": ["resume", "--list", "x.dvr"],
    "resume finished": ["resume", str(GAME)],
    "replay missing": ["replay", "/nonexistent.dvr"],
    "replay no terminal": ["replay", str(GAME)],
    "verify": ["verify", str(GAME)],
    "bogus": ["bogus"],
    "help": ["--help"],
    "new help": ["new", "--help"],
}


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_speaks_the_catalogue(
    name: str, capsys: pytest.CaptureFixture[str], pseudo: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path))
    text = said(COMMANDS[name], capsys)
    assert text.strip()
    assert leaks(text) == []
