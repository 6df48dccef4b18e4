"""A recording survives whatever ends its process: SIGKILL, SIGTERM, an uncaught
exception, a kill in the middle of close()'s compaction. Real child processes, real signals."""
from __future__ import annotations

import random
import signal
import time
from pathlib import Path

import pytest
from corekit import events_of, parts_left, steps_of

from rlprobe.storage import RunReader, compact_run, load_manifest


def _assert_contiguous(steps: list[int]) -> None:
    assert steps == list(range(len(steps))), "steps must be a contiguous prefix without duplicates"


def test_sigkill_at_random_points_leaves_a_readable_prefix(tmp_path: Path, child) -> None:
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    for attempt in range(3):
        run = tmp_path / f"run{attempt}"
        c = child("log_until_killed", str(run))
        c.wait_for("started")
        time.sleep(rng.uniform(0.05, 0.6))
        c.read_available()
        c.signal(signal.SIGKILL)
        assert c.wait() == -signal.SIGKILL
        c.read_available()
        flushed = max([int(line.split()[1]) for line in c.lines if line.startswith("flushed")], default=0)

        reader = RunReader(run)
        steps = reader.steps().column("step").to_pylist()
        _assert_contiguous(steps)
        assert len(steps) >= flushed, f"seed {seed}: lost flushed steps ({len(steps)} < {flushed})"
        samples = reader.samples()
        sample_steps = sorted(set(samples.column("step").to_pylist()))
        assert sample_steps == [s for s in range(0, len(steps), 10)][: len(sample_steps)]
        assert samples.num_rows == 3 * len(sample_steps)
        manifest = load_manifest(run)
        assert manifest["status"] == "running" and manifest["closed_at"] is None
        assert [e["kind"] for e in reader.events()][:1] == ["run_start"]


def test_normal_exit_without_close_is_closed_by_atexit(tmp_path: Path, child) -> None:
    run = tmp_path / "run"
    c = child("exit_without_close", str(run))
    assert c.wait() == 0, c.stderr()
    assert steps_of(run) == list(range(123))
    assert parts_left(run) == []
    manifest = load_manifest(run)
    assert manifest["status"] == "finished" and manifest["closed_at"] is not None


@pytest.mark.parametrize("mode", ["python-exit", "default", "python-continue", "ignored"])
def test_sigterm_flushes_compacts_and_honours_the_previous_handler(tmp_path: Path, child, mode: str) -> None:
    run = tmp_path / "run"
    n = 300
    c = child("sigterm", str(run), mode, str(n))
    c.wait_for("ready")
    c.signal(signal.SIGTERM)
    goes_on = mode in ("python-continue", "ignored")
    if goes_on:
        c.wait_for("continued")
    code = c.wait()
    assert code == {"python-exit": 3, "default": -signal.SIGTERM, "python-continue": 0, "ignored": 0}[mode], \
        c.stderr()
    assert Path(str(run) + ".previous").exists() == mode.startswith("python")

    assert steps_of(run) == list(range(2 * n if goes_on else n))
    assert RunReader(run).samples().num_rows == 3 * n
    assert parts_left(run) == [], "the run ends compacted"
    assert (run / "steps.parquet").exists() and (run / "samples.parquet").exists()
    manifest = load_manifest(run)
    assert manifest["closed_at"] is not None
    if mode == "ignored":
        assert manifest["status"] == "finished" and not events_of(run, "terminated"), "an ignored SIGTERM stays so"
    else:
        assert manifest["status"] == "terminated"
        assert len(events_of(run, "terminated")) == 1


def test_uncaught_exception_writes_a_crash_event_flushes_and_calls_the_previous_hook(tmp_path: Path,
                                                                                     child) -> None:
    run = tmp_path / "run"
    c = child("crash", str(run), "250")
    assert c.wait() == 1
    stderr = c.stderr()
    assert "ValueError: boom at the training step" in stderr, "the previous hook prints the traceback"
    assert Path(str(run) + ".previous").read_text() == "ValueError: boom at the training step"

    assert steps_of(run) == list(range(250))
    assert RunReader(run).samples().num_rows == 3
    (crash,) = events_of(run, "crash")
    assert crash["message"] == "ValueError: boom at the training step"
    assert "train_step" in crash["data"]["traceback"] and "ValueError" in crash["data"]["traceback"]
    manifest = load_manifest(run)
    assert manifest["status"] == "crashed" and manifest["closed_at"] is not None
    assert parts_left(run) == []


N_PARTS = 12
ROWS = 20 * N_PARTS


def _assert_complete(run: Path) -> None:
    reader = RunReader(run)
    steps = reader.steps()
    _assert_contiguous(steps.column("step").to_pylist())
    assert steps.num_rows == ROWS, "no row lost, none counted twice"
    assert sorted(c for c in steps.column_names if c.startswith("late_")) == ["late_0", "late_1", "late_2"]
    samples = reader.samples()
    assert samples.num_rows == 3 * N_PARTS
    assert len(set(samples.column("sample_id").to_pylist())) == samples.num_rows


@pytest.mark.parametrize("window", ["mid-write", "before-rename", "after-rename", "mid-delete"])
def test_kill_inside_close_compaction_loses_and_doubles_nothing(tmp_path: Path, child, window: str) -> None:
    run = tmp_path / "run"
    c = child("close_paused", str(run), window, str(N_PARTS))
    c.wait_for("closing")
    c.wait_for(window)
    c.signal(signal.SIGKILL)
    c.wait()
    _assert_complete(run)
    assert load_manifest(run)["status"] == "running", "close() did not finish"
    # Whoever compacts next (a later close, or the doctor) finishes the job, still exactly once.
    compact_run(run)
    _assert_complete(run)
    assert parts_left(run) == []
    assert not [p for p in run.iterdir() if p.name.endswith(".tmp")], "stale temp files are swept"


def test_kill_at_random_moments_of_close(tmp_path: Path, child) -> None:
    rng = random.Random()
    for attempt in range(3):
        run = tmp_path / f"run{attempt}"
        c = child("close_paused", str(run), "none", str(N_PARTS))
        c.wait_for("closing")
        time.sleep(rng.uniform(0.0, 0.08))
        c.signal(signal.SIGKILL)
        c.wait()
        _assert_complete(run)
