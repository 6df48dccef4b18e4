"""A live view that spans a restart (``rlprobe watch``, ``RunWatcher``): when a later session
supersedes rows the view already holds, the view shows what a fresh read shows — no step or
sample twice, nothing of the superseded session past the resume point (issue 11, item 4)."""
from __future__ import annotations

from pathlib import Path

from rlprobe import Recorder
from rlprobe.doctor import RunView


def _session(run: Path, steps: range, reward: float) -> Recorder:
    rec = Recorder(run, capture_env=False, install_handlers=False, flush_interval_s=60)
    for step in steps:
        rec.log_step(step, reward=reward)
        rec.log_samples(step, [{"reward": reward, "completion": f"{step}-{i}"} for i in range(2)], select=False)
    return rec


def test_a_live_view_reloads_when_a_later_session_resumes(tmp_path: Path):
    run = tmp_path / "run"
    _session(run, range(50), 0.1).close()
    view = RunView.load(run)
    assert view.n_steps == 50 and view.samples.height == 100

    resumed = _session(run, range(30, 40), 0.9)
    assert resumed.flush()
    view.refresh()
    assert view.step.tolist() == list(range(40))
    reward = view.series("reward_mean")
    assert set(reward[:30].tolist()) == {0.1} and set(reward[30:].tolist()) == {0.9}
    assert view.samples.height == 80
    fresh = RunView.load(run)
    assert view.samples.sort("step")["reward"].to_list() == fresh.samples.sort("step")["reward"].to_list()

    resumed.close()
    view.refresh()
    assert view.step.tolist() == list(range(40))
