"""The analysis on several processes: the same reviews as on one, and a stop (the viewer left)
drops the searches not yet started instead of waiting for the whole game."""

from __future__ import annotations

from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import pytest

from dvtui.replay.analysis import analyse
from dvtui.store import read_game

from ..support.replays import REPLAYS


class Stop(Exception):
    pass


def test_two_processes_give_the_reviews_of_one() -> None:
    events = read_game(REPLAYS / "game.dvr").events
    assert analyse(events, 20, jobs=2) == analyse(events, 20, jobs=1)


def test_a_stop_drops_the_searches_not_yet_started(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped after its second review, the analysis hands back at once: every search not yet
    under way is cancelled, not run for nothing while the viewer is gone."""
    from dvtui.replay import analysis

    futures: list[Future[object]] = []

    class Recording(ProcessPoolExecutor):
        def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
            future = super().submit(*args, **kwargs)
            futures.append(future)
            return future

    monkeypatch.setattr(analysis, "ProcessPoolExecutor", Recording)
    events = read_game(REPLAYS / "game.dvr").events
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done == 2:
            raise Stop

    with pytest.raises(Stop):
        analyse(events, 3_000, jobs=2, progress=progress)  # (each search a few tenths of a second)
    assert seen == [0, 1, 2]
    assert len(futures) > 80  # one search a placement
    # at most the 2 done, those under way and those already handed to a process
    assert sum(f.cancelled() for f in futures) >= len(futures) - 10
