"""A full queue drops and counts, never blocks: proven with the writer thread held up."""
from __future__ import annotations

import statistics
import threading
import time
from pathlib import Path

import pytest
from corekit import events_of, steps_of

from rlprobe.storage import RunWriter, load_manifest


class HeldWriter:
    """Makes the writer thread block inside ``write_part`` until released."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.entered = threading.Event()
        self.gate = threading.Event()
        real = RunWriter.write_part

        def held(writer: RunWriter, *args, **kwargs):
            self.entered.set()
            assert self.gate.wait(30), "test never released the writer"
            return real(writer, *args, **kwargs)

        monkeypatch.setattr(RunWriter, "write_part", held)

    def hold(self, rec, step: int) -> None:
        """Log one step and ask for a flush: the writer then blocks writing it."""
        self.entered.clear()
        self.gate.clear()
        rec.log_step(step, loss=0.0)
        rec.flush(timeout=0)
        assert self.entered.wait(10), "writer never reached write_part"

    def release(self) -> None:
        self.gate.set()


def test_overflow_drops_exactly_counts_and_reports_once_per_burst(make_recorder, run_dir: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    held = HeldWriter(monkeypatch)
    rec = make_recorder(queue_size=100, flush_interval_s=60)

    held.hold(rec, 0)
    durations = []
    for step in range(1, 1 + 100 + 37):
        start = time.perf_counter()
        rec.log_step(step, loss=float(step))
        durations.append(time.perf_counter() - start)
    assert rec.dropped == 37
    # The writer is stuck, yet every call returned at once.
    assert statistics.median(durations) < 1e-3
    assert max(durations) < 1.0, "a blocked call would wait for the 30 s gate"
    held.release()
    assert rec.flush(10)
    time.sleep(0.3)  # a few writer rounds without drops end the burst

    held.hold(rec, 1000)
    for step in range(1001, 1001 + 100 + 5):
        rec.log_step(step, loss=float(step))
    assert rec.dropped == 42
    held.release()
    rec.close()

    overflow = events_of(run_dir, "queue_overflow")
    assert len(overflow) == 2, "one queue_overflow event per burst"
    assert overflow[0]["data"]["queue_size"] == 100
    assert overflow[0]["data"]["dropped_total"] >= 1
    counts = load_manifest(run_dir)["counts"]
    assert counts["dropped"] == 42
    kept = steps_of(run_dir)
    assert kept == [0, *range(1, 101), 1000, *range(1001, 1101)]
    assert counts["steps"] == len(kept)


def test_log_samples_overflow_is_counted_too(make_recorder, run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    held = HeldWriter(monkeypatch)
    rec = make_recorder(queue_size=10, flush_interval_s=60)
    held.hold(rec, 0)
    for step in range(15):
        rec.log_samples(step, [{"completion": "x", "reward": 1.0}], select=False)
    assert rec.dropped == 5
    held.release()
    rec.close()
    assert load_manifest(run_dir)["counts"]["dropped"] == 5
    assert load_manifest(run_dir)["counts"]["samples"] == 10


def test_drops_are_exact_with_many_threads(make_recorder, run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    held = HeldWriter(monkeypatch)
    rec = make_recorder(queue_size=500, flush_interval_s=60)
    held.hold(rec, -1)
    start = threading.Barrier(4)

    def log(thread: int) -> None:
        start.wait()
        for i in range(400):
            rec.log_step(thread * 10_000 + i, loss=1.0)

    threads = [threading.Thread(target=log, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    held.release()
    rec.close()
    kept = len(steps_of(run_dir)) - 1
    assert kept + rec.dropped == 1600
    assert load_manifest(run_dir)["counts"]["dropped"] == rec.dropped
