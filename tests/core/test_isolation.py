"""A bad value costs that value alone, never its neighbours (issue 11, items 1-3).

What a CUDA tensor does after a device-side assert — every conversion raises — is played
here by small classes whose ``__float__``, ``__index__``, ``__str__`` or ``items()`` raise.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from corekit import events_of

from rlprobe.storage import RunReader, load_manifest


class DeviceAssert(Exception):
    """Not a TypeError/ValueError/RuntimeError: what an arbitrary library may raise."""


class BadFloat:
    def __float__(self) -> float:
        raise DeviceAssert("CUDA error: device-side assert triggered")


class BadIndex:
    def __index__(self) -> int:
        raise DeviceAssert("CUDA error: device-side assert triggered")


class BadItems(dict):
    def items(self):  # type: ignore[override]
        raise DeviceAssert("items() on a poisoned mapping")


class BadStr:
    def __str__(self) -> str:
        raise DeviceAssert("no str for you")


class BadClass:
    """isinstance() itself raises on this one (it asks for ``__class__``)."""

    @property  # type: ignore[misc]
    def __class__(self):  # noqa: ANN204
        raise DeviceAssert("no class for you")


def _bad_events(run: Path) -> list[dict]:
    return events_of(run, "bad_record")


def _assert_accounted(run: Path, expected: int) -> None:
    counts = load_manifest(run)["counts"]
    assert counts["bad_records"] == expected == sum(e["data"]["count"] for e in _bad_events(run))
    assert counts["lost"] == 0 and counts["storage_errors"] == 0


@pytest.mark.parametrize("hostile, named", [
    ({"reward": BadFloat()}, "'reward_mean'"),
    ({"rewards": BadItems(acc=1.0)}, "'rewards'"),
    ({"rewards": {BadStr(): 1.0}}, "in 'rewards'"),
    ({"odd": BadClass()}, "'odd'"),
], ids=["float-raises", "items-raises", "key-str-raises", "isinstance-raises"])
def test_one_bad_value_costs_that_value_alone(make_recorder, run_dir: Path, hostile: dict, named: str) -> None:
    rec = make_recorder(flush_interval_s=60)
    for i in range(100):
        rec.log_step(i, reward=0.5)
    rec.log_step(100, loss=2.0, **hostile)
    rec.close()

    steps = RunReader(run_dir).steps().to_pylist()
    assert [row["step"] for row in steps] == list(range(101))
    assert all(row["reward_mean"] == 0.5 for row in steps[:100])
    assert steps[100]["loss"] == 2.0, "the rest of the bad value's row is kept"
    [event] = _bad_events(run_dir)
    assert named in event["message"] and event["step"] == 100
    _assert_accounted(run_dir, 1)


@pytest.mark.parametrize("step", [BadIndex(), "7", 2.5, None], ids=["index-raises", "str", "fraction", "none"])
def test_a_bad_step_costs_that_row_alone(make_recorder, run_dir: Path, step: object) -> None:
    rec = make_recorder(flush_interval_s=60)
    for i in range(100):
        rec.log_step(i, reward=0.5)
        if i == 50:
            rec.log_step(step, reward=9.0)
    rec.log_step(step=100, reward=0.5)
    rec.close()
    steps = RunReader(run_dir).steps()
    assert steps.column("step").to_pylist() == list(range(101))
    assert 9.0 not in steps.column("reward_mean").to_pylist()
    [event] = _bad_events(run_dir)
    assert event["message"].startswith("log_step: step ") and event["message"].endswith("record dropped")
    _assert_accounted(run_dir, 1)


def test_one_hostile_sample_field_nulls_that_field_and_the_batch_survives(make_recorder, run_dir: Path) -> None:
    rec = make_recorder(flush_interval_s=60)
    rec.log_samples(1, [{"prompt": f"p{i}", "reward": float(i), "advantage": 0.1} for i in range(6)]
                    + [{"prompt": "hostile", "reward": BadFloat(), "advantage": 0.2, "kl": BadClass(),
                        BadStr(): "nameless", "reward_components": {"acc": 1.0, "fmt": BadFloat(), BadStr(): 1.0},
                        "completion": BadStrSubclass("x")}], select=False)
    rec.log_samples(2, [BadMapping(), {"prompt": "after a sample whose items() raises", "reward": 1.0}],
                    select=False)
    rec.close()
    rows = RunReader(run_dir).samples().to_pylist()
    assert [r["prompt"] for r in rows] == [f"p{i}" for i in range(6)] + ["hostile",
                                                                         "after a sample whose items() raises"]
    hostile = rows[6]
    assert hostile["reward"] is None and hostile["kl"] is None and hostile["completion"] is None
    assert hostile["advantage"] == 0.2 and dict(hostile["reward_components"]) == {"acc": 1.0}
    assert [r["reward"] for r in rows[:6]] == [float(i) for i in range(6)]
    messages = " | ".join(e["message"] for e in _bad_events(run_dir))
    for part in ("'reward'", "'kl'", "sample field name", "'fmt'", "reward component name", "'completion'",
                 "items() fails"):
        assert part in messages
    _assert_accounted(run_dir, 7)


class BadStrSubclass(str):
    def __str__(self) -> str:
        raise DeviceAssert("a str subclass that refuses str()")


class BadMapping(dict):
    def items(self):  # type: ignore[override]
        raise DeviceAssert("poisoned sample")


def test_samples_buffered_at_close_survive_a_hostile_step_in_the_same_flush(make_recorder, run_dir: Path) -> None:
    rec = make_recorder(flush_interval_s=60)
    for i in range(10):
        rec.log_step(i, reward=0.5)
        rec.log_samples(i, [{"completion": f"c{i}", "reward": 1.0}], select=False)
    rec.log_step(BadIndex(), reward=BadFloat(), rewards=BadItems())
    rec.log_samples(BadIndex(), [{"completion": "at a bad step"}], select=False)
    rec.close()
    run = RunReader(run_dir)
    assert run.steps().column("step").to_pylist() == list(range(10))
    assert run.samples().column("completion").to_pylist() == [f"c{i}" for i in range(10)]
    _assert_accounted(run_dir, 2)


def test_an_unforeseen_conversion_failure_costs_its_row_alone(make_recorder, run_dir: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Should conversion still fail somewhere cleaning did not foresee, the flush is
    converted again row by row: the failure costs its row, never the flush."""
    import rlprobe.buffers as buffers

    real = buffers.flatten_metric

    def flaky(name, value, *args, **kwargs):
        if value == "boom":
            raise MemoryError("unforeseen")
        return real(name, value, *args, **kwargs)

    monkeypatch.setattr(buffers, "flatten_metric", flaky)
    rec = make_recorder(flush_interval_s=60)
    for i in range(50):
        rec.log_step(i, reward=0.5, note="boom" if i == 20 else 1.0)
        rec.log_samples(i, [{"reward": 1.0}], select=False)
    rec.close()
    run = RunReader(run_dir)
    assert run.steps().column("step").to_pylist() == [i for i in range(50) if i != 20]
    assert run.samples().num_rows == 50
    [event] = _bad_events(run_dir)
    assert "could not be converted" in event["message"] and "unforeseen" in event["message"]
    _assert_accounted(run_dir, 1)


def test_an_event_whose_message_cannot_be_read_is_a_bad_record(make_recorder, run_dir: Path, recwarn) -> None:
    rec = make_recorder()
    rec.log_event("checkpoint", step=BadIndex(), message=BadStr(), path="/ckpt/3")
    rec.log_event(BadStr(), step=4, message="kind unreadable")
    rec.close()
    [event] = events_of(run_dir, "checkpoint")
    assert event["step"] is None and event["message"] == "<unreadable BadStr>"
    assert event["data"] == {"path": "/ckpt/3"}
    assert events_of(run_dir, "<unreadable BadStr>")[0]["message"] == "kind unreadable"
    messages = [e["message"] for e in _bad_events(run_dir)]
    assert any("log_event: message" in m for m in messages) and any("log_event: step" in m for m in messages)
    assert any("log_event: kind" in m for m in messages)
    _assert_accounted(run_dir, 3)
    assert not recwarn.list, "a bad record is not a storage error"


_FULL_DISK_EVENTS = textwrap.dedent("""
    import json, subprocess, sys, warnings
    from pathlib import Path
    from rlprobe import Recorder

    mount_point, out = Path(sys.argv[1]), sys.argv[2]
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount_point)], check=True)
    run = mount_point / "run"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rec = Recorder(run, capture_env=False, install_handlers=False, flush_interval_s=60)
        rec.log_event("before", message="x" * 1000)
        filler = mount_point / "filler"
        with open(filler, "wb", buffering=0) as fh:
            try:
                while True:
                    fh.write(b"\\0" * 4096)
            except OSError:
                pass
        for i in range(12):
            rec.log_event("during", step=i, message=f"event {i} " + "y" * 1500)
        filler.unlink()
        rec.log_event("after", message="healed")
        rec.close()
    subprocess.run(["cp", "-r", str(run), out], check=True)
    print(json.dumps({"storage_errors": rec.storage_errors, "lost": rec.lost}))
""")


def test_events_logged_while_the_disk_is_full_are_written_when_it_heals(tmp_path: Path) -> None:
    """A real full tmpfs (in a private mount namespace): no torn line, no event vanishes."""
    mount_point, out = tmp_path / "mnt", tmp_path / "copied"
    mount_point.mkdir()
    done = subprocess.run(["unshare", "-m", sys.executable, "-c", _FULL_DISK_EVENTS, str(mount_point), str(out)],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0 and ("Operation not permitted" in done.stderr or "unshare" in done.stderr):
        pytest.skip(f"mounting a tmpfs in a private mount namespace is not permitted here: {done.stderr[-200:]}")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["storage_errors"] >= 1 and summary["lost"] == 0
    lines = (out / "events.jsonl").read_text().splitlines()
    events = [json.loads(line) for line in lines]  # every line whole
    during = [e for e in events if e["kind"] == "during"]
    assert [e["step"] for e in during] == list(range(12))
    assert [e["kind"] for e in events] == ["run_start", "before"] + ["during"] * 12 + ["after", "run_end"]
    in_order = all(a["time"] <= b["time"] for a, b in zip(events, events[1:], strict=False))
    assert in_order, "written in order, at the times logged"
    counts = load_manifest(out)["counts"]
    assert counts["events"] == len(events) and counts["lost"] == 0
    assert counts["storage_errors"] == summary["storage_errors"]
