"""The layering the project stands on: headless commands never import Textual (a fast
start for ``verify`` and ``sim``), and the engine imports nothing of the store, bots or app.

Each check runs in a fresh interpreter: in this one, other tests may already have imported anything.
"""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .support.processes import env

REPO = Path(__file__).resolve().parents[1]


def modules_after(code: str) -> set[str]:
    """The names in ``sys.modules`` after running ``code`` in a fresh interpreter (with the bytecode
    the others compiled: compiling what it imports took more of its CPU than importing it)."""
    return set(printed(code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"))


def printed(script: str) -> Any:
    """What ``script``, run in a fresh interpreter, printed last (a line of JSON)."""
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, env=env(), timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def textual_in(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m == "textual" or m.startswith("textual."))


def test_the_check_sees_textual_when_it_is_imported() -> None:
    """The probe itself works: importing Textual shows up (so the checks below can fail)."""
    assert textual_in(modules_after("import textual.app"))


HEADLESS = [
    "dvtui.engine",
    "dvtui.store",
    "dvtui.bots",
    "dvtui.ratings",
    "dvtui.play.autoplay",
    "dvtui.play.seats",
    "dvtui.play.session",
    "dvtui.play.tournament",
    "dvtui.printable",
    "dvtui.cli",
    "dvtui.cli.verify",
    "dvtui.cli.sim",
    "dvtui.cli.play",  # Textual comes with the app, once a screen really opens
    "dvtui.cli.resume_headless",
    "dvtui.app.exit_state",  # what the command line matches the app's run on
    "dvtui.cli.tables",
    "dvtui.cli.table_server",
    "dvtui.tables",
    "dvtui.server.main",
    "dvtui.tables.client",
    "dvtui.tables.requests",
    "dvtui.tables.listing",
    "dvtui.web.tab",  # on every dvtui's way to its first screen
    "dvtui.web.serve",  # textual-serve (which brings Rich) only once the options hold
]


@functools.cache
def textual_in_turn() -> dict[str, list[str]]:
    """Textual's modules loaded once each of :data:`HEADLESS` is imported, one after the other in
    one fresh interpreter (a module's entry: after it and those before it). Where it holds none,
    neither does the module alone: an interpreter each was most of this file's CPU."""
    code = "import json, sys\nloaded = {}\n"
    for module in HEADLESS:
        code += (
            f"import {module}\nloaded[{module!r}] = sorted(m for m in sys.modules if m.split('.')[0] == 'textual')\n"
        )
    loaded: dict[str, list[str]] = printed(code + "print(json.dumps(loaded))\n")
    return loaded


@pytest.mark.parametrize("module", HEADLESS)
def test_headless_module_does_not_import_textual(module: str) -> None:
    if textual_in_turn()[module]:  # this module or one before it: which, its own interpreter says
        assert textual_in(modules_after(f"import {module}")) == []


def test_all_headless_modules_together_do_not_import_textual() -> None:
    assert list(textual_in_turn()) == HEADLESS
    assert textual_in_turn()[HEADLESS[-1]] == []


def test_running_verify_sim_and_a_headless_resume_does_not_import_textual(tmp_path: Path) -> None:
    """Not only importing: running the commands (sim writing files, verify reading them, a resume
    finishing a game with no one but bots) too. Nor asyncio, which none of them runs: a sixth of
    the start of a process that only plays a game out."""
    game = tmp_path / "game-0.dvr"
    started = tmp_path / "started.dvr"
    code = f"""
import contextlib, io, pathlib
from dvtui.cli import main
with contextlib.redirect_stdout(io.TextIOWrapper(io.BytesIO())):  # --canonical writes bytes
    assert main(["sim", "--players", "bot:random,bot:greedy,bot:greedy", "--games", "2",
                 "--out", {str(tmp_path)!r}]) == 0
    assert main(["verify", {str(tmp_path)!r}]) == 0
    assert main(["verify", "--canonical", {str(game)!r}]) == 0
    first = pathlib.Path({str(game)!r}).read_bytes().partition(b"\\n")[0]
    pathlib.Path({str(started)!r}).write_bytes(first + b"\\n")  # the game as created, not a move yet
    assert main(["resume", {str(started)!r}, "--headless"]) == 0
"""
    modules = modules_after(code)
    assert {"dvtui.cli.sim", "dvtui.cli.verify", "dvtui.cli.resume_headless"} <= modules
    assert textual_in(modules) == []
    assert not any(m == "dvtui.app" or m.startswith("dvtui.app.") for m in modules)
    assert "asyncio" not in modules
    assert started.read_bytes().count(b"\n") == game.read_bytes().count(b"\n")  # played to its end


ASKING = [
    ["tables"],
    ["tables", "--mine", "--all"],
    ["tables", "release", "t", "--seat", "1"],
    ["tables", "start", "t"],
    ["tables", "clock", "t", "--move-time", "1m"],
    ["say", "t", "hello"],
    ["fetch", "t", "-o", "t.dvr"],
    ["close", "t"],
    ["resign", "t"],
    ["join", "t"],  # without a terminal: the table is looked up before any screen
    ["watch", "t"],
    ["ratings"],
    ["profile"],
    ["tournament", "list"],
    ["tournament", "show", "x"],
]
"""Client commands that ask the table server something and show no app: they need the requests and
the wire, not the server, a screen, the plain front, the bots or the session a screen plays through."""
WITH_BOTS = [
    ["new", "--table", "t", "--players", "Ana,Bob,bot:greedy"],  # the bots, to read bot:greedy
    ["join", "t", "--bot", "greedy"],
    ["seek", "--bot", "greedy"],
    ["tournament", "join", "x", "--bot", "greedy"],
]
"""Client commands that read a bot's level (or play one): the bots too, and still no server or screen."""
NO_CLIENT_NEEDS = (
    "dvtui.server",
    "textual",
    "psycopg",
    "dvtui.web.serve",
    "dvtui.web.server",
    "dvtui.app",
    "dvtui.plain",
)
ASKING_NEEDS_NONE_OF = (*NO_CLIENT_NEEDS, "dvtui.bots", "dvtui.tables.remote", "dvtui.tables.client")


def among(modules: set[str] | list[str], packages: tuple[str, ...]) -> list[str]:
    """The ``modules`` that are one of ``packages`` or inside one."""
    return sorted(m for m in modules if any(m == p or m.startswith(f"{p}.") for p in packages))


def client_runs(directory: str) -> dict[str, Any]:
    """Each of :data:`ASKING`, then each of :data:`WITH_BOTS`, then ``dvtui serve`` with a refused
    flag, run in one fresh interpreter against a directory where no server listens (each goes as
    far as asking it: exit 1): their exit codes and the modules loaded after each group."""
    code = f"""
import contextlib, io, json, os, sys
from dvtui.cli import main
os.chdir({directory!r})
seen = {{"codes": [], "modules": []}}
for group in ({ASKING!r}, {WITH_BOTS!r}, [["serve", "--keep-days", "0"]]):
    for args in group:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            seen["codes"].append(main([*args, "--dir" if args[0] == "serve" else "--server", {directory!r}]))
    seen["modules"].append(sorted(sys.modules))
print(json.dumps(seen))
"""
    seen: dict[str, Any] = printed(code)
    return seen


def test_client_commands_load_neither_the_server_nor_a_screen(tmp_path: Path) -> None:
    """``dvtui tables``, ``say``, ``fetch``, ``join`` and the other commands a person types at a
    shell are short processes: they load what asks a server, never the server itself (only ``dvtui
    serve`` does), Textual, PostgreSQL's driver or the web front; those that only ask, not the
    bots either. The last run, ``dvtui serve``, shows the check sees the server when it is loaded."""
    seen = client_runs(str(tmp_path))
    assert seen["codes"] == [1] * (len(ASKING) + len(WITH_BOTS)) + [2]  # each asked the server (serve: refused)
    asking, with_bots, serving = (set(modules) for modules in seen["modules"])
    assert among(asking, ASKING_NEEDS_NONE_OF) == []
    assert among(with_bots, NO_CLIENT_NEEDS) == []
    assert "dvtui.bots" in with_bots and "dvtui.tables.requests" in asking
    assert "dvtui.server.main" in serving and "dvtui.server.main" in among(serving, NO_CLIENT_NEEDS)


def test_dvtui_without_a_terminal_loads_no_front(tmp_path: Path) -> None:
    """``dvtui`` alone in a script prints its usage: whether it was asked for lines (``--plain``)
    is read without loading the plain front, and nothing of a table or a game is loaded."""
    code = """
import contextlib, io, sys
from dvtui.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    assert main([]) == 2
assert "usage: dvtui" in out.getvalue()
"""
    modules = modules_after(code)
    assert among(modules, (*ASKING_NEEDS_NONE_OF, "dvtui.tables", "dvtui.store", "dvtui.engine", "asyncio")) == []


@pytest.mark.parametrize("args", [["--help"], ["verify", "--help"], ["sim", "--help"]])
def test_help_does_not_import_textual(args: list[str]) -> None:
    code = f"""
import contextlib, io
from dvtui.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main({args!r})
    except SystemExit as e:
        assert e.code == 0, e.code
"""
    assert textual_in(modules_after(code)) == []


def test_engine_imports_none_of_store_bots_app() -> None:
    """The engine imports nothing of dvtui but itself: it makes no words (its errors are codes and
    values, said where they are shown), so not even the leaf of the words."""
    modules = modules_after("import dvtui.engine")
    outside = sorted(
        m for m in modules if m.startswith("dvtui.") and not (m == "dvtui.engine" or m.startswith("dvtui.engine."))
    )
    assert outside == []
    assert textual_in(modules) == [] and "platformdirs" not in modules and "filelock" not in modules
    assert "babel" not in modules


def test_store_and_bots_import_neither_each_other_nor_the_app() -> None:
    store = modules_after("import dvtui.store")
    assert not any(m.startswith(("dvtui.bots", "dvtui.app", "dvtui.cli")) for m in store)
    bots = modules_after("import dvtui.bots")
    assert not any(m.startswith(("dvtui.store", "dvtui.app", "dvtui.cli")) for m in bots)


SCREENS = REPO / "dvtui" / "app" / "screens"


def screen_imports(source: str, package: str = "dvtui.app.screens") -> set[str]:
    """The modules of ``package`` (a screen's by default) its module's ``source`` imports: at module
    level, under ``TYPE_CHECKING`` and inside functions alike (each ties the two modules together)."""
    found: set[str] = set()
    inside = f"{package}."
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module} if node.module else {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(inside):
            found.add((node.module or "").removeprefix(inside))
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix(inside) for a in node.names if a.name.startswith(inside)}
    return {name.split(".")[0] for name in found}


def import_cycle(imports: dict[str, set[str]]) -> list[str]:
    """A cycle of ``imports`` (each module's, among them), as the modules along it; [] if none."""
    done: set[str] = set()

    def walk(module: str, path: list[str]) -> list[str]:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return []
        for imported in sorted(imports.get(module, set())):
            cycle = walk(imported, [*path, module])
            if cycle:
                return cycle
        done.add(module)
        return []

    return next((c for m in sorted(imports) if (c := walk(m, []))), [])


def test_the_cycle_check_finds_a_cycle_hidden_under_type_checking_or_in_a_function() -> None:
    """The probe itself works: an import under ``TYPE_CHECKING`` or in a function counts."""
    a = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n"
    b = "def f() -> None:\n    from .c import C\n"
    c = "from .a import A\n"
    imports = {name: screen_imports(source) for name, source in (("a", a), ("b", b), ("c", c))}
    assert import_cycle(imports) == ["a", "b", "c", "a"]
    assert import_cycle({**imports, "c": set()}) == []


def test_the_screens_import_each_other_in_one_direction_only() -> None:
    """No two screens' modules need each other: the table screen's module imports its parts (its
    bases, the shared table's part), and they see the screen through a protocol below them all."""
    modules = {path.stem for path in SCREENS.glob("*.py")} - {"__init__"}
    imports = {m: screen_imports((SCREENS / f"{m}.py").read_text(encoding="utf-8")) & modules for m in modules}
    assert import_cycle(imports) == []


SERVER = REPO / "dvtui" / "server"


def test_the_server_modules_import_each_other_in_one_direction_only() -> None:
    """No two of the table server's modules need each other, even for typing: the connections and
    the tables they sit at both stand on ``connection.py``, which names what a connection needs of
    a table, so the gateway and a live table never import one another."""
    modules = {path.stem for path in SERVER.glob("*.py")} - {"__init__"}
    imports = {
        m: screen_imports((SERVER / f"{m}.py").read_text(encoding="utf-8"), "dvtui.server") & modules for m in modules
    }
    assert import_cycle(imports) == []
