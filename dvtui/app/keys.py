"""The keys of the live table and of the replay viewer, each thing a key does defined once.

A :class:`Command` holds all that is said about one thing a person can do: the keys bound to it
(and the action each runs), its word in the footer, its row in the ``?`` help and its entry in the
command palette. A screen's ``BINDINGS``, its help's key map and its palette entries are all read
from its :class:`KeyMap` (:data:`TABLE`, :data:`SHARED_TABLE`, :data:`VIEWER`), so a key cannot be
added, renamed or dropped in one of them and not in the others.

A key map lists its commands in up to three orders, because each surface reads in its own: the
bindings' order is the footer's and Textual's key panel's, the help reads like a lesson (the keys
of a turn first), and the viewer's palette offers "Back" before the rest (the palette
sorts what it shows by title, but a search's equal matches come in this order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from textual.binding import Binding, BindingType
from textual.widget import Widget

from ..i18n import N_, _
from .spoken import key_display

PaletteEntry = tuple[str, str, Callable[[], object]]
"""(title, help, callback): what a screen's ``palette_commands`` yields to the app."""


@dataclass(frozen=True, slots=True)
class Command:
    """One thing a key does (or a row of the help about keys the screen does not own)."""

    keys: tuple[tuple[str, str], ...] = ()
    """``(keys, action)`` bound on the screen, in the order Textual tries them (for one key, the
    first action the screen allows runs). The first is the one the footer shows; the others are
    further keys or parameters of the same thing, hidden."""
    description: str = ""
    """Its word in the footer (and in Textual's key panel), marked for the catalogue and translated
    where it is shown (the screens' ``active_bindings``)."""
    key_display: str | None = None
    """How the footer writes its keys (default: Textual's way)."""
    show: bool = True
    """In the footer (when it has a description)."""
    help: tuple[str, str] | None = None
    """(keys, meaning): its row in the ``?`` help; None when another command's row tells it."""
    palette: tuple[str, str] | None = None
    """(title, help) in the command palette, offered while the screen allows the action; ``{}``
    fields (a name, a round) are filled in by the screen."""
    azerty: str | None = None
    """Its keys in the help when the AZERTY option is on (:data:`AZERTY`), when they differ."""

    @property
    def action(self) -> str:
        """The action its first key runs, as a binding writes it (``"pace(-1)"``)."""
        return self.keys[0][1] if self.keys else ""

    @property
    def name(self) -> str:
        """The action's name, as a screen's ``check_action`` is asked about it (``"pace"``)."""
        return self.action.partition("(")[0]

    def bindings(self) -> list[Binding]:
        (keys, action), *others = self.keys
        first = Binding(
            keys,
            action,
            self.description,
            show=self.show and bool(self.description),
            key_display=self.key_display,
            id=binding_id(action),
        )
        return [first, *(Binding(keys, action, show=False, id=binding_id(action)) for keys, action in others)]

    def entry(self, screen: Widget, action: str | None = None, **fields: object) -> PaletteEntry:
        """Its palette entry on ``screen``, running ``action`` (default: its own) as a key would."""
        assert self.palette is not None
        title, help_ = self.palette
        return _(title).format(**fields), _(help_).format(**fields), partial(screen.run_action, action or self.action)


@dataclass(frozen=True, slots=True)
class KeyMap:
    """A screen's commands: its bindings (and footer) in ``commands``' order, its help's rows in
    ``help``'s, its palette entries in ``palette``'s (default: ``commands``')."""

    commands: tuple[Command, ...]
    help: tuple[Command, ...]
    palette: tuple[Command, ...] | None = None

    def bindings(self) -> list[BindingType]:
        return [binding for command in self.commands if command.keys for binding in command.bindings()]

    def help_rows(self, leave_out: tuple[Command, ...] = (), *, azerty: bool = False) -> list[tuple[str, str]]:
        """The help's rows (keys, meaning), in the language spoken now; with the AZERTY option's
        keys when ``azerty``."""
        return [
            (key_display(_(command.azerty if azerty and command.azerty else command.help[0])), _(command.help[1]))
            for command in self.help
            if command.help is not None and command not in leave_out
        ]

    def offered(self, allowed: Callable[[str], bool | None]) -> Iterator[Command]:
        """The commands with a palette entry that ``allowed`` (a screen's ``check_action`` for
        the action's name) lets run now, in the palette's order."""
        for command in self.commands if self.palette is None else self.palette:
            if command.palette is not None and allowed(command.name):
                yield command


def binding_id(action: str) -> str:
    """The id of the bindings that run ``action``: what a keymap (:func:`azerty_keymap`) names."""
    return f"dvtui.{action}"


AZERTY = ("ampersand", "é", "quotation_mark", "apostrophe", "left_parenthesis", "minus")
"""The AZERTY keyboard's top row, unshifted, over the digits 1-6 (``& é " ' ( -``). The first
five mean nothing else anywhere, so they pick cards 1-5 on every keyboard; ``-`` is the pace's
"slower", so it picks card 6 only with the AZERTY option on, which moves "slower" to ``_``
(unshifted on the same row, over the 8)."""
TOP_ROW = (*AZERTY, "è", "underscore", "ç")
"""The AZERTY top row over the digits 1-9: the viewer's round keys take the ones that mean nothing
else there (not ``-``, the speed, nor ``_``)."""


def azerty_keymap() -> dict[str, str]:
    """The keymap of the AZERTY option: card 6 on ``-`` as well, and "slower" moved off ``-`` to
    ``_``. Cards 1-5 keep their bindings (their top-row keys are bound always), so the footer's
    ``1-6`` stays where it is."""
    return {binding_id("pick(6)"): f"6,{AZERTY[5]}", binding_id("pace(1)"): "underscore"}


def qwerty_keymap() -> dict[str, str]:
    """The keymap that undoes :func:`azerty_keymap`: those bindings on their own keys again."""
    return {binding_id("pick(6)"): "6", binding_id("pace(1)"): "minus"}


# -- the live table ------------------------------------------------------------------------------

PICK = Command(
    tuple((f"{k},{AZERTY[k - 1]}" if k < 6 else str(k), f"pick({k})") for k in range(1, 7)),
    N_("card"),
    key_display="1-6",
    help=("1-6", N_("choose a card from your hand")),
    azerty=N_("1-6 or & é \" ' ( -"),
)
COLUMN = Command(
    (("left", "step(-1)"), ("right", "step(1)"), *((letter, f"column({i})") for i, letter in enumerate("abcdefg"))),
    N_("column"),
    key_display="←→ a-g",
    help=(N_("← → or a-g"), N_("choose a column")),
)
PLACE = Command(
    (("enter", "place"),),
    N_("place"),
    key_display="⏎",
    help=(N_("⏎ Enter"), N_("place the card (mouse: click a card, then a column)")),
    palette=(N_("Place the chosen card"), N_("Place the selected card under the selected column")),
)
UNDO = Command(
    (("u", "undo"), ("u", "cannot_undo")),  # when undo is off: say why, to whoever pressed it
    N_("undo"),
    help=("u", N_("undo the latest placement, until the next person places")),
    palette=(N_("Undo {name}'s latest placement"), N_("{name} takes back their latest placement this round")),
)
HINT = Command(
    (("h", "hint"), ("h", "no_hint")),  # at a table without hints: say so, to whoever pressed it
    N_("hint"),
    help=("h", N_("hint: what the strong bot would play, its expected gain this round, its chance to win")),
    palette=(N_("Hint"), N_("Ask the strong bot what it would play")),
)
NEXT = Command(
    (("enter", "next_step"), ("space", "next_step")),  # in a resolution (place is off then)
    N_("next"),
    key_display="⏎",
    help=(N_("⏎ / space / s"), N_("next step / skip to the summary (or click the banner)")),
)
SKIP = Command(
    (("s", "skip"), ("escape", "skip")),
    N_("skip"),  # told in NEXT's row
    palette=(N_("Skip the resolution"), N_("Show the end of this round's resolution at once")),
)
RESULTS = Command(
    (("e", "results"),),
    N_("results"),
    help=("e", N_("results, when the game is over")),
    palette=(N_("Results"), N_("Standings, holdings and the chart of totals")),
)
FASTER = Command(
    (("plus,equals_sign", "pace(-1)"),),
    help=("+ / -", N_("bots and resolutions faster / slower (kept for next time)")),
    azerty="+ / _",
    palette=(N_("Bots faster"), N_("Shorter pauses for bots and resolutions")),
)
SLOWER = Command((("minus", "pace(1)"),), palette=(N_("Bots slower"), N_("Longer pauses for bots and resolutions")))
HELP = Command(
    (("question_mark", "help"),),
    N_("help"),
    key_display="?",
    help=("?", N_("this help")),
    palette=(N_("Rules and keys"), N_("The rules in brief and the key map")),
)
TIME_TRAVEL = Command(
    (("t", "time_travel"),),
    N_("time travel"),
    show=False,
    help=("t", N_("time travel back through the game (b: play on from there)")),
    palette=(N_("Time travel"), N_("Step back through this game so far (Escape returns)")),
)
WHOLE_COLUMN = Command(
    (("v", "whole_column"),),
    N_("whole column"),
    show=False,
    help=("v", N_("see the whole column: every card, who placed what there")),
    palette=(N_("See the whole column"), N_("Every card of the chosen column, past the ones the board has room for")),
)
"""Past the fourth card of a column the board says ``▲ +n``: ``v`` lists them all. Out of the
footer, which 73 columns fill already: the help and the palette offer it."""
SIT = Command(
    (("j", "sit"),),
    N_("sit again"),
    help=("j", N_("after a rematch, take back here the seat you had resigned")),
    palette=(N_("Sit at your seat again"), N_("Play your seat in the table's new game, from this screen")),
)
"""A person who resigned (and watches since) is the owner of their seat again in the rematch:
``j`` takes it in place, with no ``dvtui join`` to type."""
QUIT = Command((("q", "quit"),), N_("quit"), help=(N_("q / ctrl+c"), N_("quit: the game is saved after every move")))
STAND_IN = Command(
    (("a", "stand_in"),),
    N_("bot stands in"),
    help=("a", N_("a bot plays every away or free seat until its player joins")),
    palette=(N_("Let a bot stand in"), N_("A bot plays each away or free seat until its player joins")),
)
START = Command(
    (("s", "start"),),
    N_("start"),
    help=("s", N_("while the table waits for people: deal now, bots sit in for them (its opener)")),
    palette=(N_("Start the table"), N_("Deal now: a bot plays each seat nobody has taken, until its person comes")),
)
CHAT = Command(
    (("m", "chat"),),
    N_("say"),
    help=("m", N_("say a line to everyone at the table (Enter says it, Esc does not)")),
    palette=(N_("Say something"), N_("A line to everyone at the table")),
)
# Resigning and ending a table are rare and asked first: like time travel, they stay out of a
# footer that 80 columns fill already, and the help and the palette (while allowed) offer them.
RESIGN = Command(
    (("r", "resign"),),
    N_("resign"),
    show=False,
    help=("r", N_("resign: a bot plays your seat to the end, and you watch (asked first)")),
    palette=(N_("Resign"), N_("Give your seat up to a bot for the rest of the game (asked first)")),
)
CLOSE_TABLE = Command(
    (("x", "close_table"),),
    N_("end table"),
    show=False,
    help=("x", N_("end the table: its game is kept, unfinished, and its name is free (its opener; asked first)")),
    palette=(N_("End the table"), N_("Close the table for everyone: its game is kept, unfinished (asked first)")),
)
LOG = Command(
    help=(
        N_("tab"),
        N_(
            "read the log (at 80x24 in the board's place): ↑↓ PgUp PgDn Home End, Esc back to the"
            " table and the newest line; or the wheel"
        ),
    )
)
"""The log's own keys, once focus is on it."""
PALETTE = Command(help=(N_("ctrl+p"), N_("command palette")))
"""The app's key."""

TABLE = KeyMap(
    commands=(PICK, COLUMN, PLACE, UNDO, HINT, NEXT, SKIP, RESULTS, FASTER, SLOWER, HELP, TIME_TRAVEL, WHOLE_COLUMN,
              QUIT),
    help=(PICK, COLUMN, WHOLE_COLUMN, PLACE, UNDO, HINT, NEXT, FASTER, LOG, RESULTS, TIME_TRAVEL, PALETTE, HELP, QUIT),
)  # fmt: skip
SHARED_TABLE = KeyMap(
    # after COLUMN: on one's own turn, a chooses column a; after SKIP: in a resolution, s skips
    commands=(*TABLE.commands, STAND_IN, START, CHAT, SIT, RESIGN, CLOSE_TABLE),
    help=(PICK, COLUMN, WHOLE_COLUMN, PLACE, UNDO, HINT, STAND_IN, START, CHAT, SIT, RESIGN, CLOSE_TABLE, NEXT, FASTER,
          LOG, RESULTS, TIME_TRAVEL, PALETTE, HELP, QUIT),
)  # fmt: skip
"""The live table at a shared table: the table's keys, a bot standing in for an away or free seat, the
waiting room's start, chat, sitting again after a rematch, resigning one's seat and ending the table."""

# -- the replay viewer ---------------------------------------------------------------------------

STEP = Command(
    (("left", "step(-1)"), ("right", "step(1)")),
    N_("event"),
    key_display="←→",
    help=("← →", N_("one event back / forward")),
)
TURN = Command(
    (("shift+left,up", "turn(-1)"), ("shift+right,down", "turn(1)")),
    N_("turn"),
    key_display="⇧←→",
    help=(N_("⇧← ⇧→ or ↑ ↓"), N_("one turn of placements (every player once) back / forward")),
)
ROUND = Command(
    (("pageup,left_square_bracket", "round(-1)"), ("pagedown,right_square_bracket", "round(1)")),
    N_("round"),
    key_display="[ ]",
    help=(N_("PgUp PgDn or [ ]"), N_("one round back / forward (to the start of a round)")),
)
HOME = Command(
    (("home", "home"),),
    help=(N_("Home End"), N_("the deal / the end of the file")),
    palette=(N_("Start"), N_("Go to the deal")),
)
END = Command((("end", "end"),), palette=(N_("End"), N_("Go to the end of the file")))  # told in HOME's row
JUMP_ROUND = Command(
    tuple(
        (
            ",".join([str(r)] if TOP_ROW[r - 1] in ("minus", "underscore") else [str(r), TOP_ROW[r - 1]]),
            f"jump_round({r})",
        )
        for r in range(1, 10)
    ),
    help=(N_("1-9"), N_("the start of that round")),
    palette=(N_("Round {round}"), N_("Go to the start of round {round}")),
)
PLAY = Command(
    (("space", "play"),),
    N_("play"),
    key_display="space",
    help=(N_("space"), N_("play / pause; + and - change the speed")),
    palette=(N_("Play / pause"), N_("Play the game on automatically")),
)
SPEED = Command((("plus,equals_sign", "speed(1)"), ("minus", "speed(-1)")))  # told in PLAY's row
JUMP = Command(help=(N_("click"), N_("the position bar or a line of the log jumps there")))
BRANCH = Command(
    (("b", "branch"),),
    N_("branch"),
    help=(
        "b",
        N_(
            "play from here: a new game file from this moment, played live (the original is untouched);"
            " with bots at the table, take a bot's seat or let them play on"
        ),
    ),
    palette=(N_("Play from here"), N_("A new game file from this moment, played live")),
)
ANALYSE = Command(
    (("a", "analyse"),),
    N_("analyse"),
    show=False,
    help=(
        "a",
        N_(
            "analyse: each player's win chance through the game (the strong bot's model of play) and marks"
            " in the log (?! ? ??) where a placement lost more than the search's noise; kept beside the file"
        ),
    ),
    palette=(N_("Analyse the game"), N_("Win chances and marks for every placement")),
)
BACK = Command(
    (("escape", "back"),),
    N_("back"),
    key_display="esc",
    help=("esc", N_("back to the game, the results or the menu (wherever the viewer was opened)")),
    palette=(N_("Back"), N_("Leave the viewer: back to the game, the results or the menu")),
)
"""Only in time travel: plain replay has no game to go back to."""
REPLAY_HELP = Command(
    (("question_mark", "help"),),
    N_("help"),
    key_display="?",
    palette=(N_("Keys of the viewer"), N_("The replay's key map")),
)
REPLAY_QUIT = Command(
    # in time travel q quits as well, unlisted: with "esc back" the footer would not fit 80 columns
    (("q", "quit"), ("q", "leave")),
    N_("quit"),
    help=("q", N_("quit")),
)

VIEWER = KeyMap(
    commands=(STEP, TURN, ROUND, HOME, END, JUMP_ROUND, PLAY, SPEED, BRANCH, ANALYSE, BACK, REPLAY_HELP, REPLAY_QUIT),
    help=(STEP, TURN, ROUND, HOME, JUMP_ROUND, PLAY, JUMP, BRANCH, ANALYSE, BACK, REPLAY_QUIT),
    palette=(BACK, PLAY, HOME, END, JUMP_ROUND, BRANCH, ANALYSE, REPLAY_HELP),
)
