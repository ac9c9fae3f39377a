"""The suite's own shape: helpers the tests share live in tests/support/ and nothing imports a test
module or a conftest (fixtures reach a test through pytest, never by import); bench/ stands on dvtui
alone; and a test that needs root, tmux, an SSH server or Chromium says so with its marker, so that
an ordinary account's plain ``pytest`` leaves it out instead of failing it (tests/conftest.py)."""

from __future__ import annotations

import ast
import functools
import gc
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

SIGNS = {
    "other_user": "root",
    "as_other": "root",
    "unix_account": "root",
    "Terminals": "tmux",
    "tmux": "tmux",
    "Sshd": "sshd",
    "browser": "chromium",
    "CHROMIUM": "chromium",
    "fc-match": "chromium",  # the fonts the browser draws with, installed with it
    "HATCH_BUILD_HOOK_ENABLE_MYPYC": "mypyc",  # the compiled build: mypyc and a C compiler
}
"""A name (or a string, a program a test runs) in a test, its fixtures or its module's helpers, and
the marker it makes that test need."""
IMPLIED = {"sshd": {"root", "tmux"}}
"""What a marker's need covers besides itself: the SSH server's tests run as root, in tmux."""


def _name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _imports(path: Path, tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Every module ``path`` imports (anywhere in it, a function's body too), as an absolute name."""
    package = _name(path).split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            else:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            yield node.lineno, base
            if node.module is None:  # ``from . import x``: x may be a module
                yield from ((node.lineno, f"{base}.{alias.name}") for alias in node.names)


@functools.cache
def _modules(where: Path) -> tuple[tuple[Path, ast.Module], ...]:
    """Each module under ``where`` and its syntax tree, parsed once for every test of this file
    (each only reads them): the suite's three hundred modules take seconds to parse.

    With the garbage collector paused: the trees are kept, and every full collection during the
    parse would walk all those parsed before (three quarters of the parse's CPU); a syntax tree
    holds no cycle, so nothing is left for the collector to find."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        files = sorted(where.rglob("*.py"))
        return tuple((path, ast.parse(path.read_text(encoding="utf-8"), str(path))) for path in files)
    finally:
        if collecting:
            gc.enable()


def _is_test_module(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return name.startswith("tests.") and (last.startswith("test_") or last == "conftest")


def test_nothing_imports_a_test_module_or_a_conftest() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path, tree in _modules(TESTS)
        for line, name in _imports(path, tree)
        if _is_test_module(name)
    ]
    assert wrong == [], "move what they share to tests/support/:\n" + "\n".join(wrong)


def test_a_test_directory_imports_only_tests_support_and_its_own_modules() -> None:
    wrong = []
    for path, tree in _modules(TESTS):
        home = path.parent.relative_to(TESTS).parts  # () for tests/ itself
        allowed = {"support", *home[:1]}
        for line, name in _imports(path, tree):
            parts = name.split(".")
            if parts[0] == "tests" and len(parts) > 1 and parts[1] not in allowed:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert wrong == [], "what two directories share goes to tests/support/:\n" + "\n".join(wrong)


def test_bench_imports_nothing_of_the_tests() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path, tree in _modules(ROOT / "bench")
        for line, name in _imports(path, tree)
        if name == "tests" or name.startswith("tests.")
    ]
    assert wrong == [], "\n".join(wrong)


def _marks(decorators: list[ast.expr]) -> set[str]:
    """The ``pytest.mark.NAME`` among ``decorators`` (or a ``pytestmark`` value's items)."""
    found = set()
    for node in decorators:
        for sub in ast.walk(node):
            if (
                isinstance(sub, ast.Attribute)
                and isinstance(sub.value, ast.Attribute)
                and sub.value.attr == "mark"
                and isinstance(sub.value.value, ast.Name)
                and sub.value.value.id == "pytest"
            ):
                found.add(sub.attr)
    return found


def _signs(node: ast.AST) -> set[str]:
    """The names, attributes, arguments and strings in ``node``."""
    found = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.add(sub.attr)
        elif isinstance(sub, ast.arg):
            found.add(sub.arg)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            found.add(sub.value)
    return found


def _needs(path: Path, tree: ast.Module) -> Iterator[tuple[str, set[str], set[str]]]:
    """Each test of the module: its name, the markers it needs and the markers it has."""
    defs = {
        node.name: node for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    module_marks: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            module_marks |= _marks([node.value])
    for name, node in defs.items():
        if not name.startswith("test_") or isinstance(node, ast.ClassDef):
            continue
        seen, todo, signs = {name}, [node], set()
        while todo:  # the test, and the module's helpers and fixtures it reaches
            found = _signs(todo.pop())
            signs |= found
            for other in found & defs.keys() - seen:
                seen.add(other)
                todo.append(defs[other])
        needs = {SIGNS[s] for s in signs & SIGNS.keys()}
        has = module_marks | _marks(node.decorator_list)
        yield name, needs, has | {m for mark in has for m in IMPLIED.get(mark, ())}


def test_a_test_that_needs_root_tmux_sshd_or_chromium_is_marked_so() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}::{name} is not marked {', '.join(sorted(needs - has))}"
        for path, tree in _modules(TESTS)
        if path.name.startswith("test_") and path != Path(__file__).resolve()
        for name, needs, has in _needs(path, tree)
        if needs - has
    ]
    assert wrong == [], "\n".join(wrong)
