"""The personal server: without ``--server`` a client finds (or starts, in the background) the
user's own server in the runtime directory, private to the user; clients starting it at the same
moment end with one server; it leaves by itself once idle, and the next client starts it again
with its unfinished tables."""

from __future__ import annotations

import os
import pwd
import stat
import subprocess
from pathlib import Path

import pytest

from ..support.processes import dvtui_cmd, env
from ..support.servers import short_dir, wait_for


def _env(runtime: Path) -> dict[str, str]:
    e = env()
    e["XDG_RUNTIME_DIR"] = str(runtime)
    e.pop("DVTUI_SERVER_DIR", None)
    e["DVTUI_SERVER_IDLE"] = "2"
    return e


def _dvtui(runtime: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(dvtui_cmd(*args), env=_env(runtime), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True)  # fmt: skip


def test_clients_started_together_end_with_one_private_server_that_leaves_when_idle() -> None:
    with short_dir() as runtime:
        d = runtime / "dvtui"
        both = [_dvtui(runtime, "tables") for _ in range(4)]
        for proc in both:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            assert out == f"no tables at {d}\n"
        log = (d / "serve.log").read_text()
        assert log.count("listening on") == 1, log  # one server, whoever started it
        assert stat.S_IMODE(os.stat(d).st_mode) == 0o700 and stat.S_IMODE(os.stat(d / "games").st_mode) == 0o700
        opened = _dvtui(runtime, "new", "--table", "solo", "--players", "Ana,Bob,Cy", "--seed", "2", "--start-now")
        assert opened.communicate(timeout=120)[0] == "table solo is open: take a seat with 'dvtui join solo'\n"
        wait_for("the idle server to leave", lambda: "idle for 2 s: leaving" in (d / "serve.log").read_text())
        wait_for("its socket to go", lambda: not (d / "dvtui.sock").exists())
        listed = _dvtui(runtime, "tables")  # starts it again: the table is back from its file
        out, err = listed.communicate(timeout=120)
        assert listed.returncode == 0, err
        assert out.startswith("solo  round 1/6, Ana to move")
        wait_for("the second server to leave", lambda: (d / "serve.log").read_text().count("stopped") == 2)


def test_a_runtime_directory_others_may_write_to_is_refused() -> None:
    with short_dir() as runtime:
        (runtime / "dvtui").mkdir(mode=0o777)
        os.chmod(runtime / "dvtui", 0o777)
        proc = _dvtui(runtime, "tables")
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 1 and out == ""
        assert err.startswith(f"dvtui: error: {runtime / 'dvtui'}: not a safe directory for a table server: "
                              "other users can write to it (mode 777)")  # fmt: skip
        assert not (runtime / "dvtui" / "dvtui.sock").exists()


@pytest.mark.root
def test_a_runtime_directory_another_account_made_first_says_what_to_do_instead(
    other_user: pwd.struct_passwd,
) -> None:
    """Without XDG_RUNTIME_DIR the runtime directory is ``runtime-UID`` in the temporary directory,
    a name any account can create first; and with it, ``dvtui`` inside can be another's too. Each
    is one line saying what to do instead, never an internal error, and no server is started."""
    instead = "set XDG_RUNTIME_DIR to a directory of yours (mode 0700), or name a server with --server DIR"
    with short_dir() as tmp:
        os.chmod(tmp, 0o1777)  # as /tmp: anyone may create a name in it
        taken = tmp / f"runtime-{os.geteuid()}"
        taken.mkdir(mode=0o777)
        os.chown(taken, other_user.pw_uid, other_user.pw_gid)
        e = _env(tmp)
        e.pop("XDG_RUNTIME_DIR")
        e["TMPDIR"] = str(tmp)
        assert not Path(f"/run/user/{os.geteuid()}").is_dir(), "the fallback to TMPDIR is what this test takes"
        done = subprocess.run(dvtui_cmd("tables"), env=e, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 1 and done.stdout == "", done
        assert done.stderr == (
            f"dvtui: error: no private directory for your personal table server (runtime directory {taken} is "
            f"owned by uid {other_user.pw_uid}, not {os.geteuid()}): {instead}\n"
        )
        assert list(taken.iterdir()) == []
    with short_dir() as runtime:
        (runtime / "dvtui").mkdir(mode=0o700)
        os.chown(runtime / "dvtui", other_user.pw_uid, other_user.pw_gid)
        done = subprocess.run(dvtui_cmd("tables"), env=_env(runtime), capture_output=True, text=True, timeout=120,
                              check=False)  # fmt: skip
        assert done.returncode == 1 and done.stdout == "", done
        assert done.stderr == (
            f"dvtui: error: {runtime / 'dvtui'}: not a safe directory for a table server: it belongs to user "
            f"{other_user.pw_name}, not to you; {instead}\n"
        )
