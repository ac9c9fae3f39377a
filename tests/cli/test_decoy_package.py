"""dvtui started next to a folder called ``dvtui`` (the parent of a clone; another version's clone):
the commands and every Python process dvtui starts run the installed dvtui, never that folder."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from dvtui import __version__
from dvtui.web.serve import tab_command

from ..support.servers import short_dir

DECOY = 'import sys; print("the decoy ran"); sys.exit(3)\n'


def _env(runtime: Path) -> dict[str, str]:
    """The user's environment: the installed dvtui (no path to this checkout added), a runtime
    directory of the test's own for the personal server."""
    e = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "DVTUI_SERVER_DIR", "DVTUI_DEBUG"}}
    e["XDG_RUNTIME_DIR"] = str(runtime)
    e["DVTUI_SERVER_IDLE"] = "1"
    return e


def _run(command: list[str] | str, where: Path, runtime: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=where, env=_env(runtime), capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, shell=isinstance(command, str), check=False)  # fmt: skip


def test_python_m_dvtui_next_to_a_dvtui_folder_runs_the_installed_dvtui(tmp_path: Path) -> None:
    (tmp_path / "dvtui").mkdir()  # a clone's folder: no __init__.py, a namespace package to Python
    (tmp_path / "dvtui" / "README.md").write_text("a clone\n")
    done = _run([sys.executable, "-m", "dvtui", "--version"], tmp_path, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"dvtui {__version__}\n", "")


def test_the_personal_server_and_a_web_tab_run_the_installed_dvtui_not_the_working_directorys(
    tmp_path: Path,
) -> None:
    """A ``dvtui`` package in the working directory (another version's clone) that would run in
    their place: the personal server still starts, a web tab's command is still this dvtui."""
    (tmp_path / "dvtui").mkdir()
    for name in ("__init__.py", "__main__.py"):
        (tmp_path / "dvtui" / name).write_text(DECOY)
    with short_dir() as runtime:
        listed = _run([sys.executable, "-P", "-m", "dvtui", "tables"], tmp_path, runtime)
        assert (listed.returncode, listed.stdout) == (0, f"no tables at {runtime / 'dvtui'}\n"), listed.stderr
        tab = _run(shlex.join([*tab_command(None, None), "--version"]), tmp_path, runtime)
        assert (tab.returncode, tab.stdout) == (0, f"dvtui {__version__}\n"), tab.stderr
