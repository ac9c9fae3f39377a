"""Play from here (``t`` then ``b``) at a shared table in a browser tab: refused, with the reason.
There the branch would be a file in the saves of the ``dvtui web`` account, shared by every browser
user and out of reach of a table's page, which has no start menu. In a terminal it is made (asked
first: here, with a bot at the table, whose seats play on)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.options import AppOptions
from dvtui.app.screens.branch import BranchScreen
from dvtui.app.screens.replay import ReplayScreen
from dvtui.app.screens.table import NO_BRANCH_IN_BROWSER
from dvtui.server.main import Server
from dvtui.tables import RemoteSession, open_table


@pytest.mark.parametrize("in_browser", [True, False])
async def test_play_from_here_at_a_shared_table_is_refused_in_a_browser_tab(
    in_process: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, in_browser: bool
) -> None:
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path / "data"))
    await open_table(in_process.place, "t", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5, wait=False)
    ana = await RemoteSession.open(in_process.place, "t", seat=0)  # on this loop, the app's
    app = DvtuiApp(ana, AppOptions(pace=Pace(bot_delay=0.0, step_delay=None), in_browser=in_browser))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("t")
            viewer = app.screen
            assert isinstance(viewer, ReplayScreen)
            await pilot.press("b")
            await pilot.pause()
            if in_browser:
                assert app.screen is viewer  # nothing asked, nothing left: the seat stays here
                assert [n.message for n in app._notifications] == [NO_BRANCH_IN_BROWSER]
                assert app.session is ana and ana.failure is None
            else:
                assert isinstance(app.screen, BranchScreen)
                assert not list(app._notifications)
            await pilot.press("escape", "escape", "q")
    finally:
        ana.close()
