"""Recording twice into one directory — a re-run, or a resume from a checkpoint (issue 11,
item 4): the later session supersedes the earlier one's rows from its first logged step on,
a ``run_resumed`` event says so, the manifest counts what a reader sees, and no reader ever
sees a step twice — mid-run, after compaction, or after either session was killed."""
from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from corekit import events_of

from rlprobe import Recorder
from rlprobe.storage import RunReader, compact_run, load_manifest

SAMPLES_PER_STEP = 2


def _log(rec: Recorder, steps: range, value: float) -> None:
    for step in steps:
        rec.log_step(step, reward=value)
        rec.log_samples(step, [{"reward": value, "completion": f"{value}-{step}-{i}"}
                               for i in range(SAMPLES_PER_STEP)], select=False)


def _session(run: Path, steps: range, value: float, **kwargs) -> None:
    with Recorder(run, capture_env=False, install_handlers=False, flush_interval_s=60, **kwargs) as rec:
        _log(rec, steps, value)


_KILLED_SESSION = textwrap.dedent("""
    import sys, time
    from rlprobe import Recorder
    run, start, stop, value = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    rec = Recorder(run, capture_env=False, install_handlers=False, flush_interval_s=60)
    middle = (start + stop) // 2
    for bounds in ((start, middle), (middle, stop)):  # two flushes: two parts
        for step in range(*bounds):
            rec.log_step(step, reward=value)
            rec.log_samples(step, [{"reward": value, "completion": f"{value}-{step}-{i}"} for i in range(2)],
                            select=False)
        assert rec.flush(30)
    print("flushed", flush=True)
    time.sleep(600)
""")


def _killed_session(run: Path, steps: range, value: float) -> None:
    """Record ``steps`` in another process, flushed, then SIGKILL it (no close, no compaction)."""
    _kill_when(["-c", _KILLED_SESSION, str(run), str(steps.start), str(steps.stop), str(value)], "flushed")


def _kill_when(args: list[str], ready: str) -> None:
    """Run ``python *args``, SIGKILL it once it prints ``ready``."""
    proc = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.strip() == ready, proc.stderr.read() if proc.poll() is not None else line
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()


def _steps(run: Path) -> list[tuple[int, float]]:
    table = RunReader(run).steps()
    return list(zip(table.column("step").to_pylist(), table.column("reward_mean").to_pylist(), strict=True))


def _samples(run: Path) -> list[tuple[int, float]]:
    table = RunReader(run).samples()
    return list(zip(table.column("step").to_pylist(), table.column("reward").to_pylist(), strict=True))


def _expected(*spans: tuple[range, float]) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    steps = [(step, value) for span, value in spans for step in span]
    return steps, [row for row in steps for _ in range(SAMPLES_PER_STEP)]


def _assert_reads(run: Path, *spans: tuple[range, float]) -> None:
    """The run reads as exactly ``spans`` (each step once, with its session's value), also
    through ``RunReader.files`` as a reader of its own (Polars, DuckDB) takes it, and the
    manifest counts what a reader sees."""
    steps, samples = _expected(*spans)
    assert _steps(run) == steps
    assert _samples(run) == samples
    reader = RunReader(run)
    for kind, rows in (("steps", steps), ("samples", samples)):
        taken = []
        for file in reader.files(kind):
            table = pq.read_table(file.path)
            part = table.column("_part")
            taken += table.filter(pc.and_(pc.greater(part, file.after), pc.less_equal(part, file.upto))) \
                .column("step").to_pylist()
        assert taken == [step for step, _ in rows]
    counts = load_manifest(run)["counts"]
    assert (counts["steps"], counts["samples"]) == (len(steps), len(samples))
    assert counts["events"] == len(RunReader(run).events())


def _resumed(run: Path) -> list[dict]:
    return events_of(run, "run_resumed")


def test_a_finished_run_resumed_from_an_earlier_step(tmp_path: Path) -> None:
    run = tmp_path / "run"
    with Recorder(run, capture_env=False, install_handlers=False) as rec:
        _log(rec, range(100), 1.0)
        rec.log_step(100, reward="not a number")
    first = load_manifest(run)
    assert (run / "steps.parquet").exists() and not (run / "parts").exists()

    with Recorder(run, capture_env=False, install_handlers=False) as rec:
        _log(rec, range(60, 120), 2.0)
        rec.log_event("note", step="not a step")

    _assert_reads(run, (range(60), 1.0), (range(60, 120), 2.0))
    [event] = _resumed(run)
    assert event["step"] == 60
    assert event["data"] == {"from_step": 60, "prior_status": "finished", "prior_run_id": first["run_id"],
                             "superseded_steps": 41, "superseded_samples": 80}
    assert "step 60" in event["message"] and "'finished'" in event["message"]
    manifest = load_manifest(run)
    assert manifest["created_at"] == first["created_at"], "the run began with its first session"
    assert manifest["status"] == "finished"
    bad = events_of(run, "bad_record")
    assert manifest["counts"]["bad_records"] == 2 == sum(e["data"]["count"] for e in bad), \
        "counts of bad records, drops and losses are totals over both sessions"


def test_a_rerun_from_step_zero_supersedes_the_whole_earlier_run(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _session(run, range(50), 1.0)
    _session(run, range(20), 2.0)
    _assert_reads(run, (range(20), 2.0))
    [event] = _resumed(run)
    assert event["data"]["from_step"] == 0 and event["data"]["superseded_steps"] == 50


def test_a_run_killed_with_only_parts_on_disk_is_resumed_without_duplicates(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _killed_session(run, range(50), 1.0)
    assert not (run / "steps.parquet").exists() and len(list((run / "parts").iterdir())) == 4
    assert load_manifest(run)["status"] == "running"

    rec = Recorder(run, capture_env=False, install_handlers=False, flush_interval_s=60)
    _log(rec, range(30, 40), 2.0)
    assert rec.flush(30)
    # Mid-run, before any close or compaction of the second session.
    _assert_reads(run, (range(30), 1.0), (range(30, 40), 2.0))
    _log(rec, range(40, 80), 2.0)
    rec.close()
    _assert_reads(run, (range(30), 1.0), (range(30, 80), 2.0))
    [event] = _resumed(run)
    assert event["data"]["prior_status"] == "running", "the earlier session never closed"
    assert event["data"]["superseded_steps"] == 20 and event["data"]["superseded_samples"] == 40


def test_a_resumed_session_killed_mid_run_then_resumed_again(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _session(run, range(100), 1.0)
    _killed_session(run, range(50, 70), 2.0)
    _assert_reads(run, (range(50), 1.0), (range(50, 70), 2.0))
    compact_run(run)  # what a user may do to a killed run: still each step once
    _assert_reads(run, (range(50), 1.0), (range(50, 70), 2.0))

    _session(run, range(60, 90), 3.0)
    _assert_reads(run, (range(50), 1.0), (range(50, 60), 2.0), (range(60, 90), 3.0))
    first, second = _resumed(run)
    assert (first["step"], first["data"]["prior_status"], first["data"]["superseded_steps"]) == (50, "finished", 50)
    assert (second["step"], second["data"]["prior_status"], second["data"]["superseded_steps"]) == (60, "running", 10)


_PAUSED_RESUME = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    import rlprobe.storage.writer as writer_module
    from rlprobe import Recorder

    run, window, start = sys.argv[1], sys.argv[2], int(sys.argv[3])
    name, moment, nth = window.split(":")  # pause before/after the nth rename onto that name
    real_replace = os.replace
    seen = []

    def replace(src, dst):
        hit = Path(dst).name == name and len(seen) + 1 == int(nth)
        if Path(dst).name == name:
            seen.append(dst)
        if hit and moment == "before":
            print("paused", flush=True)
            time.sleep(600)
        real_replace(src, dst)
        if hit and moment == "after":
            print("paused", flush=True)
            time.sleep(600)

    writer_module.os.replace = replace
    rec = Recorder(run, capture_env=False, install_handlers=False, flush_interval_s=60)
    rec.log_step(start, reward=2.0)
    rec.log_samples(start, [{"reward": 2.0, "completion": "2.0"}], select=False)
    rec.flush(600)
""")


@pytest.mark.parametrize("window", ["steps.parquet:before:1", "steps.parquet:after:1", "samples.parquet:after:1",
                                    "manifest.json:after:2"])
def test_a_kill_inside_the_resume_compaction_never_shows_a_step_twice(tmp_path: Path, window: str) -> None:
    run = tmp_path / "run"
    _session(run, range(100), 1.0)
    _kill_when(["-c", _PAUSED_RESUME, str(run), window, "40"], "paused")

    superseded = {"steps.parquet:before:1": set(), "steps.parquet:after:1": {"steps"}}.get(window, {"steps", "samples"})
    for kind, read in (("steps", _steps), ("samples", _samples)):
        rows = read(run)
        kept = range(40) if kind in superseded else range(100)
        assert rows == [row for row in _expected((kept, 1.0))[kind == "samples"]], kind
    assert not _resumed(run), "the killed session wrote no part, so it superseded nothing yet"
    if window == "manifest.json:after:2":
        counts = load_manifest(run)["counts"]
        assert (counts["steps"], counts["samples"]) == (40, 80), "counts say what a reader sees once superseded"

    _session(run, range(40, 60), 3.0)
    _assert_reads(run, (range(40), 1.0), (range(40, 60), 3.0))
    [event] = _resumed(run)
    assert event["data"]["prior_status"] == "running"
    assert not [p for p in run.iterdir() if p.name.endswith(".tmp")], "the killed compaction's temp file is swept"


def test_samples_logged_before_the_first_step_set_where_the_resume_begins(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _session(run, range(100), 1.0)
    rec = Recorder(run, capture_env=False, install_handlers=False, flush_interval_s=60)
    rec.log_samples(70, [{"reward": 2.0, "completion": f"2.0-70-{i}"} for i in range(SAMPLES_PER_STEP)],
                    select=False)
    assert rec.flush(30)
    steps, samples = _expected((range(70), 1.0))
    assert _steps(run) == steps and _samples(run) == samples + [(70, 2.0)] * SAMPLES_PER_STEP
    rec.log_step(70, reward=2.0)
    rec.close()
    assert _steps(run) == steps + [(70, 2.0)]


def test_a_reader_opened_before_the_resume_never_sees_a_step_twice(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _session(run, range(100), 1.0)
    reader = RunReader(run)
    assert reader.steps().num_rows == 100
    rec = Recorder(run, capture_env=False, install_handlers=False, flush_interval_s=60)
    for start in range(40, 100, 20):
        _log(rec, range(start, start + 20), 2.0)
        assert rec.flush(30)
        assert reader.steps().column("step").to_pylist() == list(range(start + 20))
    rec.close()
    assert reader.steps().column("step").to_pylist() == list(range(100))


def test_the_doctor_finds_nothing_new_on_a_healthy_run_resumed_from_a_checkpoint(tmp_path: Path) -> None:
    """Duplicated samples once made the doctor see GROUP_MODE_COLLAPSE (and ADVANTAGE_OUTLIERS)
    on a healthy run recorded again from a checkpoint."""
    pytest.importorskip("rlprobe.doctor")
    from rlprobe.doctor import diagnose
    from rlprobe.doctor.synth import generate
    from rlprobe.doctor.synth.plan import build_plan, step_log

    once, resumed = tmp_path / "once", tmp_path / "resumed"
    generate(once, n_steps=500, seed=0)
    generate(resumed, n_steps=500, seed=0)
    with Recorder(resumed, capture_env=False, install_handlers=False, queue_size=1 << 20) as rec:
        for step, _, values, samples in step_log(build_plan("healthy", 500, 0, None, None)):
            if step >= 300:  # the checkpoint the trainer resumed from
                if values is not None:
                    rec.log_step(step, **values)
                if samples is not None:
                    rec.log_samples(step, samples, select=False)
    assert RunReader(resumed).samples().num_rows == RunReader(once).samples().num_rows
    found = {(f.signature_id, f.severity) for f in diagnose(resumed)}
    assert found == {(f.signature_id, f.severity) for f in diagnose(once)}
    assert not {"GROUP_MODE_COLLAPSE", "ADVANTAGE_OUTLIERS"} & {signature for signature, _ in found}


def test_a_resume_cut_short_by_a_full_disk_finishes_when_it_heals(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills up between the two kinds' compactions: nothing is shown twice, and once
    it heals the resume finishes with true counts (what went in the first try included)."""
    import errno
    import warnings

    run = tmp_path / "run"
    _session(run, range(100), 1.0)
    real_writer = pq.ParquetWriter
    full = {"on": True}

    class FullForSamples(real_writer):  # type: ignore[misc, valid-type]
        def __init__(self, where, *args, **kwargs):
            if full["on"] and Path(where).name.startswith(".samples.parquet."):
                raise OSError(errno.ENOSPC, "No space left on device", str(where))
            super().__init__(where, *args, **kwargs)

    monkeypatch.setattr(pq, "ParquetWriter", FullForSamples)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rec = Recorder(run, capture_env=False, install_handlers=False, flush_interval_s=60)
        _log(rec, range(70, 80), 2.0)
        assert rec.flush(30) is False
    steps, samples = _expected((range(70), 1.0))
    assert _steps(run) == steps and _samples(run) == _expected((range(100), 1.0))[1]
    full["on"] = False
    assert rec.flush(30)
    rec.close()
    _assert_reads(run, (range(70), 1.0), (range(70, 80), 2.0))
    [event] = _resumed(run)
    assert (event["data"]["superseded_steps"], event["data"]["superseded_samples"]) == (30, 60)
    assert load_manifest(run)["counts"]["storage_errors"] >= 1
