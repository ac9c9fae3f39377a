"""Snapshots of the viewer at 80x24 and 120x40: the deal, a moment mid-round, a
resolution step with an exchange (column G of round 1 in game.dvr: Bot 1 takes house 400 and gives
back house 300, after column E's tie), and the end. Reached with the viewer's own keys. Nothing on
screen blinks or shows a clock, so they are stable.

Update them with ``pytest tests/replay --snapshot-update`` after looking at the new pictures.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from textual.pilot import Pilot

from dvtui.app.screens.replay import ReplayScreen

from ..support.replays import replay_app

SIZES = [(80, 24), (120, 40)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]


def keys(*pressed: str, moment: int) -> Callable[[Pilot[int]], Awaitable[None]]:
    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.pause()
        await pilot.press(*pressed)
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen) and screen.moment == moment

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_deal(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(replay_app(), terminal_size=size, run_before=keys(moment=0))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_mid_round(snap_compare, size: tuple[int, int]) -> None:
    """Round 2 after two turns and one more placement (Bot 2's taken-back 1 is in the log)."""
    assert snap_compare(replay_app(), terminal_size=size, run_before=keys("2", "down", "down", "right", moment=32))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_resolution_step_with_an_exchange(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(replay_app(), terminal_size=size, run_before=keys("pagedown", "left", moment=22))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_end(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(replay_app(), terminal_size=size, run_before=keys("end", moment=141))


def test_the_branch_choice(snap_compare) -> None:
    """``b`` in a game of bots: whose seat to take (the player to move first) or keep the seats."""
    from dvtui.app.screens.branch import BranchScreen

    async def run_before(pilot: Pilot[int]) -> None:
        await keys("2", "down", "down", moment=31)(pilot)
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(pilot.app.screen, BranchScreen)

    assert snap_compare(replay_app(), terminal_size=(80, 24), run_before=run_before)
