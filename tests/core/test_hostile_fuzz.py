"""Property-based fuzz of hostile values through the public Recorder API, from several
threads at once (issue 11): no call ever raises, no valid neighbour is ever lost (every
row with a usable step is read back, with every good value in it), and ``bad_records``
counts exactly the refused values, as the ``bad_record`` events do."""
from __future__ import annotations

import math
import threading
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlprobe import Recorder
from rlprobe.storage import RunReader, load_manifest

THREADS = 3


class Hostile(Exception):
    """What an arbitrary library raises: no subclass of the errors conversion expects."""


class BadFloat:
    def __init__(self, error: type[BaseException]) -> None:
        self.error = error

    def __float__(self) -> float:
        raise self.error("device-side assert triggered")


class BadIndex:
    def __index__(self) -> int:
        raise Hostile("device-side assert triggered")


class BadStr:
    def __str__(self) -> str:
        raise Hostile("no str")

    def __repr__(self) -> str:
        raise Hostile("no repr either")


class BadItems(dict):
    def items(self):  # type: ignore[override]
        raise Hostile("poisoned mapping")


class BadClass:
    @property  # type: ignore[misc]
    def __class__(self):  # noqa: ANN204
        raise Hostile("no class")


class Value:
    """A generated value and what recording it should give: ``problems`` refused values
    and ``stored`` (column suffix → float or None) kept."""

    def __init__(self, value: Any, problems: int, stored: dict[str, float | None]) -> None:
        self.value, self.problems, self.stored = value, problems, stored


good_scalars = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**53), 2**53),
    st.booleans(),
    st.none(),
).map(lambda v: Value(v, 0, {"": None if v is None else float(v)}))

bad_atoms = st.one_of(
    st.text(max_size=20),
    st.binary(max_size=20),
    st.lists(st.floats(), max_size=3),
    st.sampled_from([RuntimeError, ValueError, TypeError, ZeroDivisionError, KeyError, Hostile]).map(BadFloat),
    st.just(10**400),
    st.builds(BadClass),
    st.builds(lambda: BadItems(a=1.0)),
    st.builds(lambda: {BadStr(): 1.0}),
).map(lambda v: Value(v, 1, {}))


def _nested(children: list[tuple[str, Value]]) -> Value:
    stored = {f"/{name}{suffix}": number for name, child in children for suffix, number in child.stored.items()}
    return Value({name: child.value for name, child in children}, sum(c.problems for _, c in children), stored)


metric_values = st.one_of(
    good_scalars,
    bad_atoms,
    st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.one_of(good_scalars, bad_atoms)),
             max_size=3, unique_by=lambda t: t[0]).map(_nested),
)

#: Steps that cannot be used: the whole row goes, as one refused record.
bad_steps = st.one_of(st.builds(BadIndex), st.just("7"), st.just(2.5), st.none(), st.just(2**70))

sample_values = st.one_of(good_scalars, bad_atoms)


@st.composite
def operations(draw: st.DrawFn) -> list[tuple]:
    ops = []
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(["step", "step", "step", "samples", "event", "flush"]))
        if kind == "step":
            metrics = draw(st.dictionaries(st.sampled_from([f"m{i}" for i in range(5)]), metric_values, max_size=4))
            bad_step = draw(st.one_of(st.none(), bad_steps)) if draw(st.booleans()) else None
            ops.append(("step", bad_step, metrics))
        elif kind == "samples":
            batch = []
            for _ in range(draw(st.integers(0, 4))):
                shape = draw(st.sampled_from(["dict", "dict", "dict", "hostile mapping", "not a dict"]))
                if shape == "dict":
                    fields = draw(st.dictionaries(st.sampled_from(["reward", "advantage", "kl"]), sample_values,
                                                  max_size=3))
                    batch.append(("dict", fields, draw(st.booleans())))
                else:
                    batch.append((shape, None, False))
            ops.append(("samples", batch))
        elif kind == "event":
            ops.append(("event", draw(st.one_of(st.none(), st.integers(0, 10), bad_steps)),
                        draw(st.one_of(st.text(max_size=10), st.builds(BadStr)))))
        else:
            ops.append(("flush",))
    return ops


class Expected:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.rows: dict[int, dict[str, float | None]] = {}
        self.samples = 0
        self.problems = 0


def _play(rec: Recorder, thread: int, ops: list[tuple], expected: Expected) -> None:
    problems = samples = 0
    rows: dict[int, dict[str, float | None]] = {}
    for i, op in enumerate(ops):
        step = thread * 10_000 + i
        if op[0] == "step":
            _, bad_step, metrics = op
            rec.log_step(step if bad_step is None else bad_step, **{k: v.value for k, v in metrics.items()})
            if bad_step is None:
                problems += sum(v.problems for v in metrics.values())
                rows[step] = {name + suffix: number for name, v in metrics.items()
                              for suffix, number in v.stored.items()}
            else:
                problems += 1
        elif op[0] == "samples":
            batch = []
            for shape, fields, hostile_key in op[1]:
                if shape == "dict":
                    sample = {name: v.value for name, v in fields.items()}
                    problems += sum(v.problems for v in fields.values())
                    if hostile_key:
                        sample[BadStr()] = "a field whose name cannot be read"
                        problems += 1
                    batch.append(sample)
                    samples += 1
                else:
                    batch.append(BadItems() if shape == "hostile mapping" else "not a dict")
                    problems += 1
            rec.log_samples(step, batch, select=False)
        elif op[0] == "event":
            _, event_step, message = op
            rec.log_event("fuzz", step=event_step, message=message)
            usable = event_step is None or (type(event_step) is int and -(2**63) <= event_step < 2**63)
            problems += (not usable) + isinstance(message, BadStr)
        else:
            rec.flush(30)
    with expected.lock:
        expected.rows.update(rows)
        expected.samples += samples
        expected.problems += problems


def _same(read: float | None, logged: float | None) -> bool:
    if logged is None or read is None:
        return read is logged
    return (math.isnan(read) and math.isnan(logged)) or read == logged


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(plays=st.lists(operations(), min_size=THREADS, max_size=THREADS))
def test_hostile_values_from_several_threads(tmp_path_factory, plays: list[list[tuple]]) -> None:
    run = tmp_path_factory.mktemp("fuzz") / "run"
    expected = Expected()
    errors: list[BaseException] = []
    with Recorder(run, capture_env=False, install_handlers=False, flush_interval_s=60) as rec:
        def play(thread: int) -> None:
            try:
                _play(rec, thread, plays[thread], expected)
            except BaseException as exc:  # noqa: BLE001 - a raising call is the failure looked for
                errors.append(exc)

        threads = [threading.Thread(target=play, args=(t,)) for t in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []

    reader = RunReader(run)
    steps = reader.steps().to_pylist()
    assert sorted(row["step"] for row in steps) == sorted(expected.rows), "every row with a usable step is kept"
    for row in steps:
        for column, number in expected.rows[row["step"]].items():
            assert _same(row[column], number), (row["step"], column, row[column], number)
    assert reader.samples().num_rows == expected.samples

    counts = load_manifest(run)["counts"]
    bad_events = [e for e in reader.events() if e["kind"] == "bad_record"]
    assert counts["bad_records"] == expected.problems == sum(e["data"]["count"] for e in bad_events)
    assert (counts["dropped"], counts["lost"], counts["storage_errors"]) == (0, 0, 0)
    assert counts["steps"] == len(steps) and counts["samples"] == expected.samples
