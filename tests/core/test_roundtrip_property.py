"""Property: any sequence of log_step / log_samples / log_event / flush round-trips through
RunReader — every step row with exactly its metrics (new names appearing mid-run
included), every sample, every event — both tailed mid-run and after close()."""
from __future__ import annotations

import math
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlprobe import Recorder
from rlprobe.records import canonical_metric
from rlprobe.storage import RunReader
from rlprobe.storage.manifest import json_safe

NAMES = ["loss", "reward", "kl", "entropy", "rewards/acc/mean", "grad_norm", "a/b/c", "x", "y2", "clip_ratio",
         "completions/mean_length", "new_metric_late", "épsilon"]
floats = st.floats(allow_nan=True, allow_infinity=True)
steps = st.integers(min_value=-(2**63), max_value=2**63 - 1)
texts = st.text(max_size=30)

log_step = st.tuples(st.just("step"), steps, st.dictionaries(st.sampled_from(NAMES), floats | st.none(), max_size=6))
log_samples = st.tuples(st.just("samples"), steps, st.lists(st.fixed_dictionaries(
    {"completion": texts, "reward": floats | st.none()},
    optional={"prompt": texts, "advantage": floats, "length": st.integers(0, 10**6), "truncated": st.booleans(),
              "sample_id": st.text(min_size=1, max_size=8)}), max_size=5))
log_event = st.tuples(st.just("event"), st.text(min_size=1, max_size=10), st.none() | steps, texts,
                      st.dictionaries(st.text(max_size=5).filter(lambda k: k not in ("step", "message")),
                                      st.none() | st.booleans() | st.integers() | floats | texts, max_size=3))
flush = st.tuples(st.just("flush"))
operations = st.lists(st.one_of(log_step, log_step, log_samples, log_event, flush), max_size=25)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def _check_steps(rows: list[dict], expected: list[tuple[int, dict]]) -> None:
    assert [r["step"] for r in rows] == [s for s, _ in expected]
    for row, (_, metrics) in zip(rows, expected, strict=True):
        want = {canonical_metric(k): v for k, v in metrics.items()}
        for column, value in row.items():
            if column in ("step", "rank", "time", "_part"):
                continue
            assert _same(value, want.get(column)), (column, value, want.get(column))
        assert set(want) <= set(row)


def _check_samples(rows: list[dict], expected: list[tuple[int, dict]]) -> None:
    assert [r["step"] for r in rows] == [s for s, _ in expected]
    for row, (_, sample) in zip(rows, expected, strict=True):
        for key, value in sample.items():
            assert _same(row[key], value), (key, row[key], value)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations)
def test_any_sequence_round_trips(ops: list[tuple]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        rec = Recorder(run, install_handlers=False, capture_env=False, queue_size=10_000, flush_interval_s=60)
        want_steps: list[tuple[int, dict]] = []
        want_samples: list[tuple[int, dict]] = []
        want_events: list[dict] = []
        tailed: list[dict] = []
        cursor = None
        for op in ops:
            if op[0] == "step":
                rec.log_step(op[1], **op[2])
                want_steps.append((op[1], op[2]))
            elif op[0] == "samples":
                rec.log_samples(op[1], [dict(s) for s in op[2]], select=False)
                want_samples.extend((op[1], s) for s in op[2])
            elif op[0] == "event":
                _, kind, step, message, data = op
                rec.log_event(kind, step=step, message=message, **data)
                want_events.append({"kind": kind, "step": step, "message": message, "data": json_safe(data)})
            else:
                assert rec.flush(30)
                table, cursor = RunReader(run).read_new("steps", cursor)
                if table is not None:
                    tailed.extend(table.to_pylist())
                _check_steps(tailed, want_steps)
        rec.close()

        reader = RunReader(run)
        _check_steps(reader.steps().to_pylist(), want_steps)
        _check_samples(reader.samples().to_pylist(), want_samples)
        events = [{k: e[k] for k in ("kind", "step", "message", "data")} for e in reader.events()]
        assert events[0]["kind"] == "run_start" and events[-1]["kind"] == "run_end"
        assert events[1:-1] == want_events
        counts = reader.manifest["counts"]
        assert counts["steps"] == len(want_steps) and counts["samples"] == len(want_samples)
        assert counts["bad_records"] == 0
