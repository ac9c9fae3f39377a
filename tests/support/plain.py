"""dvtui's plain mode driven through a pseudo-terminal, as a person at a screen reader drives it:
read the lines, answer the turn's prompt, keep everything that was said."""

from __future__ import annotations

import re
from pathlib import Path

import pexpect

from .processes import dvtui_cmd, env

TURN = re.compile(r"(?:your turn|votre tour)[^:]*: (?:you hold|vous avez) ([^.]+)\.")
"""The turn's prompt in English or French; the group is the cards held."""
GAME_OVER = re.compile(r"Game over\. Watch it again|Partie terminée\. Pour la revoir")
ESC = "\x1b"


class PlainPlayer:
    """``dvtui ARGS`` in a pseudo-terminal; ``said`` holds everything it wrote (with the typed
    lines the terminal echoes)."""

    def __init__(self, *args: str | Path, data: Path, extra_env: dict[str, str] | None = None) -> None:
        command = [str(part) for part in dvtui_cmd(*args)]
        environment = {**env(data), **(extra_env or {})}
        environment.pop("NO_COLOR", None)
        environment["TERM"] = "xterm-256color"  # a terminal that could take colour: none is sent anyway
        self.child = pexpect.spawn(command[0], command[1:], env=environment, encoding="utf-8", timeout=60,
                                   dimensions=(24, 80))  # fmt: skip
        # pexpect waits 50 ms before each send (for programs that turn echo off only after their
        # prompt): the plain mode reads cooked lines and never changes the echo, and a whole game's
        # placements made those waits most of a test's time
        self.child.delaybeforesend = None
        self.said = ""

    def expect(self, pattern: str | re.Pattern[str]) -> re.Match[str]:
        """Wait for ``pattern`` and return its match; what came before it is kept in ``said``."""
        self.child.expect(pattern)
        self.said += (self.child.before or "") + (self.child.after or "")
        match = self.child.match
        assert isinstance(match, re.Match)
        return match

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def turn(self) -> list[int] | None:
        """Wait for the next turn's prompt: the cards held, or None when the game is over first."""
        index = self.child.expect([TURN, GAME_OVER])
        self.said += (self.child.before or "") + (self.child.after or "")
        if index == 1:
            return None
        match = self.child.match
        assert isinstance(match, re.Match)
        return [int(card) for card in re.findall(r"\d", match.group(1))]

    def finish(self) -> int:
        """Wait for the end of output and the exit; the exit code."""
        self.child.expect(pexpect.EOF)
        self.said += self.child.before or ""
        self.child.wait()  # its exit, rather than the tenth of a second close() gives it to exit
        self.child.ptyproc.delayafterclose = 0
        self.child.close()
        assert self.child.exitstatus is not None, self.said[-2000:]
        return self.child.exitstatus

    def lines(self) -> list[str]:
        return self.said.replace("\r\n", "\n").split("\n")


def play_to_the_end(player: PlainPlayer, *, column: str = "b") -> int:
    """Answer every turn with the lowest card held under ``column`` until the game is over;
    the number of placements made."""
    made = 0
    while (hand := player.turn()) is not None:
        player.send(f"{min(hand)} {column}")
        made += 1
    return made


def no_escape(text: str) -> None:
    """Nothing in ``text`` drives the terminal: no ESC, hence no escape sequence (BEL, the turn's
    bell, is no sequence and stays allowed)."""
    assert ESC not in text, [line for line in text.splitlines() if ESC in line][:3]
