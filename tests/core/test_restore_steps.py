"""``Recorder.restore_steps``: the steps an earlier session logged but never flushed, put back
from another record of them before the new session logs its own (the TRL resume is tested
end to end in tests/trl/test_trl_resume.py)."""
from __future__ import annotations

from pathlib import Path

from rlprobe import Recorder
from rlprobe.storage import RunReader


def _recorder(run: Path, **kwargs) -> Recorder:
    return Recorder(run, capture_env=False, install_handlers=False, **kwargs)


def _history(steps: range) -> list[tuple[int, dict]]:
    return [(step, {"loss": 1.0 / step, "reward": 0.1 * step}) for step in steps]


def test_only_the_steps_after_the_recording_are_restored_before_the_sessions_own(tmp_path: Path) -> None:
    run = tmp_path / "run"
    with _recorder(run) as rec:
        for step in range(1, 11):
            rec.log_step(step, loss=1.0 / step, reward=0.1 * step)
    with _recorder(run) as rec:
        restored = rec.restore_steps(_history(range(1, 21)), source="checkpoint-20/trainer_state.json", resume_step=20)
        assert restored == 10
        for step in range(21, 25):
            rec.log_step(step, loss=0.0, reward=0.0)
    reader = RunReader(run)
    rows = reader.steps().to_pylist()
    assert [row["step"] for row in rows] == list(range(1, 25))
    assert [row["time"] is None for row in rows] == [False] * 10 + [True] * 10 + [False] * 4
    assert rows[14]["reward_mean"] == 1.5 and rows[14]["loss"] == 1.0 / 15
    [event] = [e for e in reader.events() if e["kind"] == "steps_restored"]
    assert event["step"] == 11 and event["data"] == {"from_step": 11, "to_step": 20, "count": 10, "resume_step": 20,
                                                     "source": "checkpoint-20/trainer_state.json"}
    [resumed] = [e for e in reader.events() if e["kind"] == "run_resumed"]
    assert resumed["step"] == 11 and resumed["data"]["superseded_steps"] == 0


def test_a_new_directory_gets_the_whole_history_past_the_queue_bound(tmp_path: Path) -> None:
    with _recorder(tmp_path / "run", queue_size=16) as rec:
        assert rec.restore_steps(_history(range(1, 101)), source="history") == 100
    assert RunReader(tmp_path / "run").steps().num_rows == 100 and rec.dropped == 0


def test_nothing_to_restore_writes_nothing_and_bad_items_are_reported(tmp_path: Path) -> None:
    run = tmp_path / "run"
    with _recorder(run) as rec:
        rec.log_step(30, loss=1.0)
    with _recorder(run) as rec:
        assert rec.restore_steps(_history(range(1, 21)), source="history") == 0  # the recording is ahead
        assert rec.restore_steps([None, (1.5, {}), (31, [1.0]), "ab"], source="history") == 0
    reader = RunReader(run)
    kinds = [e["kind"] for e in reader.events()]
    assert "steps_restored" not in kinds and "run_resumed" not in kinds
    [bad] = [e for e in reader.events() if e["kind"] == "bad_record"]
    assert bad["data"]["count"] == 4 and reader.manifest["counts"]["bad_records"] == 4
    assert Recorder(tmp_path / "other", rank=1, world_size=2, capture_env=False,
                    install_handlers=False).restore_steps(_history(range(1, 5)), source="history") == 0
