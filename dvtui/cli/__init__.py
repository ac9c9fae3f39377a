"""``dvtui`` command line. Headless commands (verify, sim) never import Textual, so they start fast;
the play and replay commands import the app only when they run; the table server's clients (tables,
join, say...) never import the server, which only ``dvtui serve`` runs (:mod:`.table_server`)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from .. import i18n
from ..i18n import N_, _
from ..printable import printable
from ..settings import saved_language
from ..web.errors import WebError, WebUsageError
from .errors import EXIT_BAD_FILE, EXIT_OK, EXIT_USAGE, UsageError
from .numbers import decimal, whole
from .terminal import has_terminal, wants_plain

ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("show program's version number and exit"), N_("the following arguments are required: %s"),
    N_("expected one argument"), N_("expected at most one argument"), N_("expected at least one argument"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("invalid %(type)s value: %(value)r"),
    N_("unrecognized arguments: %s"), N_("argument %(argument_name)s: %(message)s"),
    N_("not allowed with argument %s"), N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s"), N_("ignored explicit argument %r"),
)  # fmt: skip
"""argparse's own words that dvtui's usage, help and errors show (argparse puts a colon right
after a section's title: a language that spaces it, as French does, ends the title with a space).
argparse asks the gettext module for them, in a domain of its own; dvtui answers from its catalogue
(:func:`_argparse_speaks`)."""


def _argparse_speaks() -> None:
    """argparse's words in the language spoken now: argparse looks up its module's ``_`` and
    ``ngettext`` each time it speaks, and these are dvtui's (English when dvtui speaks English)."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]


class _Parser(argparse.ArgumentParser):
    """argparse with the house error style: one line, ``dvtui: error: ...``, exit 2."""

    def error(self, message: str) -> NoReturn:
        said = i18n._("{message} (see '{command} --help')").format(message=printable(message), command=self.prog)
        self.exit(EXIT_USAGE, i18n._("dvtui: error: {message}").format(message=said) + "\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dvtui", description=_("Dolce Vita, the card game, in the terminal."))
    parser.add_argument(
        "--version", action="version", version=f"dvtui {_version()}", help=_("show program's version number and exit")
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    new = sub.add_parser("new", help=_("set up and play a new game (autosaved after every move)"))
    new.add_argument("--players", help=_('seats clockwise, e.g. "Ana,bot:greedy,bot:strong" (skips set-up)'))
    new.add_argument(
        "--first",
        type=whole,
        default=None,
        metavar="SEAT",
        help=_("the first player's seat, counted from 1 (default 1; R2.4)"),
    )
    new.add_argument("--seed", type=whole, default=None, help=_("seed of the deal (random if omitted)"))
    new.add_argument("-o", "--output", metavar="FILE", help=_("save file (default: the user data dir)"))
    new.add_argument("--bot-delay", type=decimal, default=None, metavar="SECONDS", help=_("pause before a bot moves"))
    new.add_argument("--table", metavar="NAME", help=_("open the game at a shared table NAME on the table server"))
    new.add_argument("--as", dest="as_seat", metavar="SEAT", help=_("with --table: the seat to take (name or number)"))
    new.add_argument("--bot", metavar="LEVEL", help=_("with --table: play the seat with this bot, without a screen"))
    new.add_argument("--no-hints", action="store_true", help=_("with --table: the table gives no hints"))
    opening = new.add_mutually_exclusive_group()
    opening.add_argument("--start-now", action="store_true",
                         help=_("with --table: play at once, without a waiting room (the seats nobody has taken "
                         "wait for their person at their turn)"))  # fmt: skip
    opening.add_argument("--wait", action="store_true",
                         help=_("with --table: a waiting room (the default): the first placement waits until every "
                         "person's seat has been taken, or 'dvtui tables start NAME'"))  # fmt: skip
    new.add_argument("--move-time", metavar="DURATION",
                     help=_("with --table: how long each turn may last (45s, 2m, 1h, 3d; default: no clock); "
                     "then a bot plays the turn and the person keeps the seat"))  # fmt: skip
    new.add_argument("--time-bank", metavar="DURATION",
                     help=_("with --move-time: each seat's time bank (10m, 1h, 2d), spent once a turn's move "
                     "time has run out, before a bot plays it"))  # fmt: skip
    new.add_argument(
        "--increment",
        metavar="DURATION",
        help=_("with --move-time: what each placement made in time adds to its seat's bank (30s)"),
    )
    new.add_argument("--invite", action="append", default=[], metavar="SEAT=USER",
                     help=_("with --table: keep SEAT (name or number) for USER alone, an account or web:NAME "
                     "(a person 'dvtui web' vouches for); repeatable"))  # fmt: skip
    new.add_argument("--no-bell", action="store_true", help=_("with --table: no terminal bell when it is your turn"))
    new.add_argument("--rated", action="store_true",
                     help=_("with --table: a rated table, whose games move the ratings of the accounts at it "
                     "('dvtui ratings')"))  # fmt: skip
    _server_option(new)

    resume = sub.add_parser("resume", help=_("continue an interrupted game"))
    resume.add_argument("file", nargs="?", help=_("game file (default: the latest unfinished game)"))
    resume.add_argument("--list", action="store_true", help=_("list unfinished games and exit"))
    resume.add_argument(
        "--headless", action="store_true", help=_("finish a game whose remaining seats are bots, without a UI")
    )
    resume.add_argument(
        "--bot-delay", type=decimal, default=None, metavar="SECONDS", help=_("pause before a bot moves")
    )

    replay = sub.add_parser("replay", help=_("watch and scrub through a game"))
    replay.add_argument("file", help=_("game file (.dvr)"))
    replay.add_argument("--text", action="store_true", help=_("print the game as text instead"))

    verify = sub.add_parser("verify", help=_("check game files against the rules"))
    verify.add_argument("files", nargs="*", metavar="FILE", help=_("files or directories of .dvr files"))
    verify.add_argument(
        "--canonical", metavar="FILE", help=_("print FILE's complete log (derived events recomputed) as JSON Lines")
    )

    analyse = sub.add_parser(
        "analyse",
        help=_(
            "weigh every placement of a game: win chance, loss against the best, marks (kept in FILE.analysis.json)"
        ),
        description=_(
            "For each placement, the strong bot searches the position before it. The win chance is a "
            "model: what that search expects of the mover's chance to win if everyone then played as the bots do. "
            "The loss is the drop against the best placement in the same search; inaccuracy, mistake and blunder "
            "mark losses of 5, 10 and 15 points, only where the loss is larger than the search's own noise."
        ),
    )
    analyse.add_argument("file", help=_("game file (.dvr)"))
    analyse.add_argument("--budget", type=whole, default=None, metavar="ITERATIONS",
                         help=_("search iterations per placement (default: the strong bot's)"))  # fmt: skip
    analyse.add_argument("--jobs", type=whole, default=None, help=_("processes to search on (0: all cores; default 1)"))

    sim = sub.add_parser("sim", help=_("play bot-only games and report the results"))
    sim.add_argument("--players", required=True, help=_('bots clockwise, e.g. "bot:random,bot:greedy,bot:strong@0.5s"'))
    sim.add_argument("--games", type=whole, default=None, help=_("N deals, each played once as seated (default 100)"))
    sim.add_argument("--deals", type=whole, default=None, help=_("duplicate games: D deals, each in every seating"))
    sim.add_argument(
        "--rotations", type=whole, default=None, metavar="K", help=_("with --deals: K cyclic rotations only")
    )
    sim.add_argument("--seed", type=whole, default=0, help=_("deal i is dealt with seed SEED+i (default 0)"))
    sim.add_argument("--jobs", type=whole, default=None, help=_("processes to play on (0: all cores; default 1)"))
    sim.add_argument("--out", metavar="DIR", help=_("write every game to DIR as a .dvr while it is played"))
    sim.add_argument("--json", action="store_true", help=_("print the results as JSON"))

    serve = sub.add_parser("serve", help=_("run the table server in the foreground (shared tables)"))
    serve.add_argument(
        "--dir", metavar="DIR", help=_("its socket and games (default: $DVTUI_SERVER_DIR, else personal)")
    )
    serve.add_argument(
        "--idle", type=decimal, default=None, metavar="SECONDS", help=_("leave after SECONDS with no client")
    )
    serve.add_argument("--trust", action="append", default=[], metavar="ACCOUNT",
                       help=_("let ACCOUNT vouch for the people it serves (e.g. www-data, as 'dvtui web' runs behind "
                       "a login proxy), as the server's own account may; repeatable"))  # fmt: skip
    serve.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                       help=_("change one of the server's limits (docs/PROTOCOL.md, Limits), e.g. "
                       "conns-per-account=16; repeatable"))  # fmt: skip
    serve.add_argument("--keep-days", type=decimal, default=None, metavar="N",
                       help=_("keep a game put aside (finished, closed or left) N days after its last line, then "
                       "remove it (default 30)"))  # fmt: skip
    serve.add_argument("--max-budget", action="append", default=[], metavar="BUDGET",
                       help=_("the most a bot may think here: ITERATIONS (5000) or SECONDS (0.5s) a move; "
                       "once of each kind"))  # fmt: skip
    serve.add_argument("--store", metavar="CONNINFO", default=None,
                       help=_("keep the tables in PostgreSQL (a libpq connection string or postgresql:// URL; "
                       "default: $DVTUI_STORE, else files in DIR/games)"))  # fmt: skip
    moving = serve.add_mutually_exclusive_group()
    moving.add_argument("--import", dest="import_dir", metavar="DIR",
                        help=_("copy the games of the file store of server directory DIR into --store's database, "
                        "then leave"))  # fmt: skip
    moving.add_argument(
        "--export",
        dest="export_dir",
        metavar="DIR",
        help=_("write --store's games as files into server directory DIR (DIR/games), then leave"),
    )

    tables = sub.add_parser("tables", help=_("list the tables of the table server (or: release a seat)"))
    tables.add_argument(
        "--all",
        action="store_true",
        help=_("also the games kept after their tables (finished, closed or left), after each table"),
    )
    tables.add_argument(
        "--mine",
        action="store_true",
        help=_(
            "only the tables with a seat of yours, the ones where it is your turn first "
            "(with --all, then your games kept after their tables)"
        ),
    )
    _server_option(tables)
    actions = tables.add_subparsers(dest="action", metavar="[ACTION]", parser_class=_Parser)
    release = actions.add_parser("release", help=_("free a seat of a table you opened, for anyone to take"))
    release.add_argument("table", metavar="NAME", help=_("the table's name"))
    release.add_argument("--seat", required=True, metavar="SEAT", help=_("the seat to free (name or number)"))
    handed = release.add_mutually_exclusive_group()
    handed.add_argument("--to", metavar="USER", help=_("keep the seat for this account (or web:NAME): only they may "
                        "take it"))  # fmt: skip
    handed.add_argument("--bot", metavar="LEVEL", help=_("a bot of this level plays the seat to the end of the game"))
    _server_option(release, after=True)
    clock = actions.add_parser("clock", help=_("give a table you opened a move time, or a shorter one"))
    clock.add_argument("table", metavar="NAME", help=_("the table's name"))
    clock.add_argument("--move-time", required=True, metavar="DURATION",
                       help=_("how long each turn may last (45s, 2m, 1h, 3d); then a bot plays the turn and the "
                       "person keeps the seat"))  # fmt: skip
    clock.add_argument(
        "--time-bank",
        metavar="DURATION",
        help=_("each seat's time bank, spent once a turn's move time has run out (or a lower one)"),
    )
    clock.add_argument(
        "--increment",
        metavar="DURATION",
        help=_("what each placement made in time adds to its seat's bank (or a lower one)"),
    )
    _server_option(clock, after=True)
    start = actions.add_parser("start", help=_("deal at a table you opened, without waiting for everyone"))
    start.add_argument("table", metavar="NAME", help=_("the table's name"))
    _server_option(start, after=True)
    _fetch_arguments(actions.add_parser("get", help=_("the same as 'dvtui fetch NAME'")), after=True)

    web = sub.add_parser("web", help=_("serve the game to web browsers (needs the web extra)"))
    web.add_argument("--host", help=_("address to listen on (default 127.0.0.1: this machine only)"))
    web.add_argument("--port", type=whole, help=_("port to listen on (default 8000)"))
    web.add_argument("--socket", metavar="PATH",
                     help=_("listen on this Unix socket instead (mode 0660 less the umask), for a login proxy on "
                     "this machine: only accounts that may open it reach the page"))  # fmt: skip
    web.add_argument("--table", metavar="NAME", help=_("each tab joins table NAME of the table server"))
    web.add_argument(
        "--public-url",
        metavar="URL",
        help=_("the address browsers use, behind a reverse proxy (e.g. https://example.org/dolcevita)"),
    )
    web.add_argument(
        "--user-header",
        metavar="HEADER",
        help=_("behind a login proxy: the request header naming the user (e.g. X-Forwarded-User)"),
    )
    web.add_argument(
        "--max-tabs",
        type=whole,
        default=None,
        metavar="N",
        help=_("tabs open at once, in all (default 16; each tab is a dvtui of about 50 MB)"),
    )
    web.add_argument(
        "--max-tabs-per-person",
        type=whole,
        default=None,
        metavar="N",
        help=_("tabs open at once per person the proxy names (with --user-header; default 4)"),
    )
    _server_option(web)

    join = sub.add_parser("join", help=_("sit at a shared table"))
    join.add_argument("table", metavar="NAME", help=_("the table's name (see 'dvtui tables')"))
    join.add_argument("--as", dest="as_seat", metavar="SEAT", help=_("the seat to take (name or number)"))
    join.add_argument("--bot", metavar="LEVEL", help=_("play the seat with this bot, without a screen"))
    join.add_argument("--no-bell", action="store_true", help=_("no terminal bell when it is your turn"))
    _server_option(join)

    seek = sub.add_parser("seek", help=_("play now: wait in the table server's pool to be seated with strangers "
                          "of your level (bots fill the free seats after the wait)"))  # fmt: skip
    seek.add_argument("--players", metavar="N", help=_("the table size: 3, 4, 5 or a range such as 3-5 (default 3-5)"))
    kind = seek.add_mutually_exclusive_group()
    kind.add_argument("--rated", action="store_true", help=_("a rated game (rated and casual seekers never mix)"))
    kind.add_argument("--casual", action="store_true", help=_("a casual game, not rated (the default)"))
    seek.add_argument("--move-time", metavar="DURATION", help=_("how long each turn may last (default 1m)"))
    seek.add_argument("--wait", metavar="DURATION",
                      help=_("how long to wait for people before bots fill the free seats (default 1m, at most "
                      "10m)"))  # fmt: skip
    seek.add_argument("--bot", metavar="LEVEL", help=_("once seated, play the seat with this bot, without a screen"))
    seek.add_argument("--no-bell", action="store_true", help=_("no terminal bell when it is your turn"))
    _server_option(seek)

    watch = sub.add_parser("watch", help=_("watch a shared table live (t: look back through the game)"))
    watch.add_argument("table", metavar="NAME", help=_("the table's name (see 'dvtui tables')"))
    _server_option(watch)

    close = sub.add_parser("close", help=_("end an unfinished shared table you opened (its game is kept)"))
    close.add_argument("table", metavar="NAME", help=_("the table's name"))
    _server_option(close)

    resign = sub.add_parser("resign", help=_("give up your seat at a shared table: a bot plays it to the end"))
    resign.add_argument("table", metavar="NAME", help=_("the table's name"))
    _server_option(resign)

    say = sub.add_parser("say", help=_("say a line to everyone at a shared table"))
    say.add_argument("table", metavar="NAME", help=_("the table's name (see 'dvtui tables')"))
    say.add_argument("text", metavar="TEXT", help=_("what to say (one line, plain text)"))
    _server_option(say)

    _fetch_arguments(sub.add_parser("fetch", help=_("save a table's game (over or not) as a file of your own")))

    ratings = sub.add_parser("ratings", help=_("the leaderboard of the table server's rated games"))
    ratings.add_argument("--top", type=whole, default=None, metavar="N", help=_("the first N accounts (default 20)"))
    ratings.add_argument("--json", action="store_true", help=_("print the leaderboard as JSON"))
    _server_option(ratings)
    profile = sub.add_parser("profile", help=_("an account's rating, its history and its rated games"))
    profile.add_argument("account", nargs="?", metavar="ACCOUNT", help=_("whose (default: yours)"))
    profile.add_argument("--json", action="store_true", help=_("print the profile as JSON"))
    _server_option(profile)
    _tournament_parser(sub)
    _plain_option(parser, top=True)
    for command in (new, resume, replay, join, watch, seek):
        _plain_option(command, top=False)
    return parser


def _tournament_parser(sub: argparse._SubParsersAction[_Parser]) -> None:
    """``dvtui tournament new|join|show|list``."""
    tournament = sub.add_parser("tournament", help=_("the table server's tournaments: play 3-5 player tables for a set "
                           "time, seated again by the standings after each game"))  # fmt: skip
    arenas = tournament.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser, required=True)
    arena_new = arenas.add_parser("new", help=_("open a tournament now, for a set time"))
    arena_new.add_argument("name", metavar="NAME", help=_("its name (as a table's: letters, digits, - and _)"))
    arena_new.add_argument("--minutes", metavar="M", required=True, help=_("how long it runs (fractions allowed)"))
    arena_new.add_argument("--players", metavar="N", help=_("the table size: 3, 4, 5 or a range such as 3-5 (default "
                         "3-5)"))  # fmt: skip
    arena_new.add_argument("--rated", action="store_true", help=_("its games are rated"))
    arena_new.add_argument("--move-time", metavar="DURATION", help=_("how long each turn may last (default 1m)"))
    _server_option(arena_new, after=True)
    joining = arenas.add_parser("join", help=_("take part: seated at a table after each game until it is over"))
    joining.add_argument("name", metavar="NAME", help=_("the tournament's name"))
    joining.add_argument("--bot", metavar="LEVEL", help=_("play your seats with this bot, without a screen"))
    joining.add_argument("--no-bell", action="store_true", help=_("no terminal bell when it is your turn"))
    _plain_option(joining, top=False)
    _server_option(joining, after=True)
    showing = arenas.add_parser("show", help=_("a tournament's standings, running or over"))
    showing.add_argument("name", metavar="NAME", help=_("the tournament's name"))
    showing.add_argument("--json", action="store_true", help=_("print the standings as JSON"))
    showing.add_argument("--follow", action="store_true", help=_("again at each change, until it is over"))
    _server_option(showing, after=True)
    _server_option(arenas.add_parser("list", help=_("the tournaments: running, then the latest over")), after=True)
    _server_option(tournament)


def _plain_option(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """``--plain``, before the command (``dvtui --plain new``) or after it."""
    parser.add_argument("--plain", action="store_true", default=False if top else argparse.SUPPRESS,
                        help=_("lines of text instead of the full screen, for a screen reader or a braille "
                        "display (also DVTUI_PLAIN=1; see docs/PLAIN.md)"))  # fmt: skip


def _fetch_arguments(parser: argparse.ArgumentParser, *, after: bool = False) -> None:
    """``dvtui fetch NAME [-o FILE]``, also spelled ``dvtui tables get NAME``: one set of options for both."""
    parser.add_argument("table", metavar="NAME", help=_("the table's name (see 'dvtui tables')"))
    parser.add_argument("-o", "--output", metavar="FILE", help=_("where to save it (default: NAME.dvr here)"))
    parser.add_argument("--game", metavar="N", type=_game_number, help=_("the table's game number N (1: its "
                        "first; each rematch deals the next), one it keeps (default: the current game)"))  # fmt: skip
    _server_option(parser, after=after)


def _game_number(text: str) -> int:
    """``--game N``: a table's game, counted from 1."""
    if not text.isdigit() or not 1 <= int(text) <= 1 << 31:
        raise argparse.ArgumentTypeError(
            _("{text!r} is no game's number (1 is a table's first game)").format(text=text)
        )
    return int(text)


def _server_option(parser: argparse.ArgumentParser, *, after: bool = False) -> None:
    """``--server``; ``after``: on an action's parser, where it must not undo the one given before
    the action (``dvtui tables --server DIR get NAME``)."""
    parser.add_argument("--server", metavar="DIR", help=_("the table server's directory (default: $DVTUI_SERVER_DIR, "
                        "else a personal server started on first use)"),
                        default=argparse.SUPPRESS if after else None)  # fmt: skip


def _version() -> str:
    from .. import __version__

    return __version__


def _add_language_option(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """``--lang CODE`` on ``parser`` and every command under it, so it may stand anywhere on the line
    (it is read before the parser is built: :func:`_choose_language`)."""
    said = i18n._("the language to speak (en, fr; default: $DVTUI_LANG, the settings, the locale)")
    parser.add_argument("--lang", metavar="CODE", default=None if top else argparse.SUPPRESS, help=said)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):  # (a parser listed under two names once)
                _add_language_option(child, top=False)


def _choose_language(argv: Sequence[str]) -> None:
    """Speak the chosen language before anything is said, the parser's help included: ``--lang``,
    then ``DVTUI_LANG``, the settings file's ``"language"``, the locale's variables, English. A
    ``--lang`` dvtui cannot speak is a usage error; a variable or setting it cannot is passed over."""
    early = _Parser(prog="dvtui", add_help=False)
    early.add_argument("--lang")
    flag = early.parse_known_args(argv)[0].lang
    if flag is not None and i18n.language_of(flag) not in i18n.available():
        i18n.set_language(i18n.choose(None, os.environ, None))
        spoken = ", ".join(code for code in i18n.available() if code != i18n.PSEUDO)
        raise UsageError(i18n._("--lang {code}: dvtui speaks {languages}").format(code=flag, languages=spoken))
    i18n.set_language(i18n.choose(flag, os.environ, saved_language()))
    _argparse_speaks()


def main(argv: Sequence[str] | None = None) -> int:
    args_given = sys.argv[1:] if argv is None else list(argv)
    try:
        _choose_language(args_given)
    except UsageError as e:
        return _fail(str(e), EXIT_USAGE)
    parser = build_parser()
    _add_language_option(parser, top=True)
    args = parser.parse_args(args_given)
    if args.command is None and not has_terminal() and not wants_plain(args):
        parser.print_help()  # a script or a pipe: the usage, as before
        return EXIT_USAGE
    try:
        return _dispatch(args)
    except (UsageError, WebUsageError) as e:
        return _fail(str(e), EXIT_USAGE)
    except WebError as e:
        return _fail(str(e), EXIT_BAD_FILE)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader of our output went away (e.g. `| head`): nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as e:  # a bug, not bad input: still one line, the traceback on request
        if os.environ.get("DVTUI_DEBUG"):
            raise
        from ..store import GameFileError, SaveError

        if isinstance(e, (GameFileError, SaveError)):
            return _fail(str(e), EXIT_BAD_FILE)
        if isinstance(e, OSError) and e.strerror:  # a file or directory the system refused: not a bug
            from ..store.errors import clean

            where = f"{e.filename}: " if e.filename is not None else ""
            return _fail(clean(f"{where}{e.strerror}"), EXIT_BAD_FILE)
        said = _("internal error: {kind}: {error} (set DVTUI_DEBUG=1 for details)")
        return _fail(said.format(kind=type(e).__name__, error=e), 3)


def _fail(message: str, code: int) -> int:
    """The one-line error; ``message`` may quote a path or a file's text (made printable here)."""
    print(i18n._("dvtui: error: {message}").format(message=printable(message)), file=sys.stderr)
    return code


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "verify":
        from .verify import run_verify

        return run_verify(args)
    if args.command == "analyse":
        from .analyse import run_analyse

        return run_analyse(args)
    if args.command == "sim":
        from .sim import run_sim

        return run_sim(args)
    if args.command == "resume" and args.headless:
        from .resume_headless import run_resume_headless

        return run_resume_headless(args)
    if args.command == "new" and args.table is None:
        given = [
            f
            for f, v in (
                ("--as", args.as_seat),
                ("--bot", args.bot),
                ("--server", args.server),
                ("--no-hints", args.no_hints),
                ("--no-bell", args.no_bell),
                ("--wait", args.wait),
                ("--start-now", args.start_now),
                ("--move-time", args.move_time),
                ("--time-bank", args.time_bank),
                ("--increment", args.increment),
                ("--invite", args.invite),
                ("--rated", args.rated),
            )
            if v
        ]
        if given:
            raise UsageError(_("{flag} goes with --table NAME").format(flag=given[0]))
    fetching = args.command == "fetch" or getattr(args, "action", None) == "get"
    if getattr(args, "table", None) is not None and not (fetching and _is_kept_name(args.table)):
        _check_table_name(args.table, "--table" if args.command in ("new", "web") else "table")
    if args.command == "seek":
        from . import seek

        return seek.run(args)
    if args.command == "serve":  # the one command that imports the table server
        from .table_server import run_serve

        return run_serve(args)
    shared = ("tables", "join", "watch", "say", "close", "resign", "fetch")
    if args.command in shared or (args.command == "new" and args.table is not None):
        from . import tables

        return tables.run(args)
    if args.command == "tournament":
        from . import tournament

        return tournament.run(args)
    if args.command in ("ratings", "profile"):
        from .ratings import run_ratings

        return run_ratings(args)
    if args.command == "web":
        from ..web import serve

        serve.run(host=args.host, port=args.port, socket_path=args.socket, table=args.table, server=args.server,
                  public_url=args.public_url, user_header=args.user_header, max_tabs=args.max_tabs,
                  max_tabs_per_person=args.max_tabs_per_person, language=getattr(args, "lang", None))  # fmt: skip
        return EXIT_OK
    if args.command == "replay" and args.text:
        from .export import run_text_export

        return run_text_export(args)
    if args.command in (None, "new", "resume", "replay") and wants_plain(args):
        from . import plain  # lines of text: no terminal needed, Textual never imported

        return plain.run(args)
    from . import play  # Textual is imported only from here on

    if args.command is None:  # plain dvtui in a terminal: the start menu
        return play.run_menu()
    if args.command == "new":
        return play.run_new(args)
    if args.command == "resume":
        return play.run_resume(args)
    return play.run_replay(args)


def _is_kept_name(name: str) -> bool:
    """``dvtui fetch`` also takes a kept game's name (a closed table's game, for who sat at it)."""
    from ..tables.wire import is_kept_name

    return is_kept_name(name)


def _check_table_name(name: str, given_as: str) -> None:
    """A name the table server would refuse is refused here first, in words, before any server
    is asked or started."""
    from ..tables.wire import is_table_name

    if not is_table_name(name):
        rule = _(
            "a table's name is 1 to 32 letters (a-z, A-Z), digits (0-9), '-' or '_', starting with a letter or digit"
        )
        raise UsageError(_("{option} {name}: {rule}").format(option=given_as, name=repr(name), rule=rule))


if __name__ == "__main__":
    raise SystemExit(main())
