"""Several threads logging at once; fork() mid-run; a reader tailing a run while the
writer compacts under it."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from corekit import events_of, steps_of

import rlprobe.recorder as recorder_module
from rlprobe.storage import RunReader, RunWriter, load_manifest


def test_threads_logging_at_once_lose_and_mix_nothing(make_recorder, run_dir: Path) -> None:
    rec = make_recorder(queue_size=100_000, flush_interval_s=0.05)
    n_threads, n_steps = 4, 1500
    start = threading.Barrier(n_threads)

    def work(t: int) -> None:
        start.wait()
        for i in range(n_steps):
            rec.log_step(t * 100_000 + i, **{f"thread_{t}": float(i), "shared": float(t)})
            if i % 100 == 0:
                rec.log_samples(t * 100_000 + i, [{"completion": f"t{t}-{i}", "reward": float(t)}], select=False)
                rec.log_event("tick", step=i, message=f"thread {t}")
            if i % 500 == 0:
                rec.flush(5)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rec.close()
    assert rec.dropped == 0
    rows = RunReader(run_dir).steps().to_pylist()
    assert len(rows) == n_threads * n_steps
    for t in range(n_threads):
        mine = [r for r in rows if r["step"] // 100_000 == t]
        assert [r["step"] for r in mine] == [t * 100_000 + i for i in range(n_steps)], "per-thread order kept"
        assert all(r[f"thread_{t}"] == r["step"] - t * 100_000 and r["shared"] == t for r in mine)
        assert all(r[f"thread_{u}"] is None for r in mine for u in range(n_threads) if u != t)
    assert RunReader(run_dir).samples().num_rows == n_threads * n_steps // 100
    assert len(events_of(run_dir, "tick")) == n_threads * n_steps // 100
    assert load_manifest(run_dir)["counts"]["steps"] == n_threads * n_steps


def test_fork_mid_run_child_records_nothing_and_corrupts_nothing(tmp_path: Path, child) -> None:
    run = tmp_path / "run"
    c = child("fork_mid_run", str(run))
    assert c.wait_for("child-exit") == "child-exit 0"
    c.wait_for("done")
    assert c.wait() == 0, c.stderr()
    assert steps_of(run) == list(range(200))
    reader = RunReader(run)
    assert reader.steps().column("loss").to_pylist() == [float(s) for s in range(200)]
    assert reader.samples().column("step").to_pylist() == [0, 0, 0]
    kinds = [e["kind"] for e in reader.events()]
    assert "from_child" not in kinds and "after_fork" in kinds
    assert kinds.count("run_end") == 1
    manifest = load_manifest(run)
    assert manifest["status"] == "finished" and manifest["counts"]["steps"] == 200
    assert not list(run.rglob("*.tmp"))
    # The child could still record a run of its own.
    assert steps_of(Path(str(run) + ".child")) == [7]


def test_tailing_reader_sees_every_row_once_while_the_writer_compacts(make_recorder, run_dir: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recorder_module, "_COMPACT_AFTER_PARTS", 2)
    monkeypatch.setattr(recorder_module, "_MIN_PART_INTERVAL_S", 0.0)
    compactions = []
    real_compact = RunWriter.compact
    monkeypatch.setattr(RunWriter, "compact", lambda self: (compactions.append(1), real_compact(self)))
    rec = make_recorder(flush_interval_s=0.01, steps_per_flush=5)
    assert rec.flush(30)  # the writer has started up
    seen: list[int] = []
    cursor = None
    stop = threading.Event()

    def produce() -> None:
        for step in range(3000):
            rec.log_step(step, loss=float(step))
            if step % 7 == 0:
                rec.log_samples(step, [{"completion": "c", "reward": 1.0}], select=False)
            if step % 50 == 0:
                time.sleep(0.01)
        rec.close()
        stop.set()

    producer = threading.Thread(target=produce)
    producer.start()
    reads = 0
    while not stop.is_set() or reads == 0:
        try:
            reader = RunReader(run_dir)
        except FileNotFoundError:
            continue
        table, cursor = reader.read_new("steps", cursor)
        reads += 1
        if table is not None:
            seen.extend(table.column("step").to_pylist())
    producer.join()
    table, cursor = RunReader(run_dir).read_new("steps", cursor)
    if table is not None:
        seen.extend(table.column("step").to_pylist())
    assert seen == list(range(3000)), "read_new never misses or repeats a row across compactions"
    assert reads > 3 and len(compactions) >= 2, "at least one compaction before the one in close()"


def test_a_reader_that_meets_the_first_compaction_mid_look_is_not_told_the_file_is_damaged(
        make_recorder, run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first compaction lands between the reader's look for the compacted file (none yet)
    and its check that the file exists: the reader takes the parts it listed before, and the
    file's rows at the next read. Seen once in 30 runs of the tailing test above."""
    import rlprobe.storage.reader as reader_module

    rec = make_recorder()
    for step in range(5):
        rec.log_step(step, loss=float(step))
    rec.close()  # compacts: steps.parquet holds every row
    compacted = run_dir / "steps.parquet"
    real_exists, calls = Path.exists, []

    def exists(path: Path) -> bool:  # absent at the first question, there from the second on
        if path == compacted:
            calls.append(1)
            return len(calls) > 1
        return real_exists(path)

    monkeypatch.setattr(reader_module, "read_watermark", lambda path: 0)  # the look found no file
    monkeypatch.setattr(Path, "exists", exists)
    assert reader_module._watermark(run_dir, "steps") == 0
