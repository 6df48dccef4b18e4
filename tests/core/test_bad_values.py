"""Whatever the training loop passes, the caller never sees an exception: numbers (NaN
and inf included) are data, the rest is stored where sensible or reported in a
``bad_record`` event that says what was wrong."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
from corekit import events_of

from rlprobe import SampleRecord
from rlprobe.cleaning import MAX_TEXT_CHARS
from rlprobe.storage import RunReader, load_manifest


def _row(run: Path, step: int) -> dict:
    rows = [r for r in RunReader(run).steps().to_pylist() if r["step"] == step]
    assert len(rows) == 1
    return rows[0]


def _bad(run: Path) -> dict[str, dict]:
    return {e["message"]: e for e in events_of(run, "bad_record")}


class BrokenFloat:
    def __float__(self) -> float:
        raise RuntimeError("no float for you")


class ScalarTensor:
    """Stands in for a 0-d torch tensor (importing torch here would cost seconds)."""

    ndim = 0

    def __init__(self, value: float) -> None:
        self.value = value

    def __float__(self) -> float:
        return float(self.value)


def test_numbers_of_every_kind_are_data(make_recorder, run_dir: Path) -> None:
    rec = make_recorder()
    rec.log_step(0, loss=float("nan"), kl=float("inf"), reward=-float("inf"), grad_norm=np.float32(1.5),
                 learning_rate=np.float64(3e-4), n=np.int64(7), big=10**30, flag=True, off=np.bool_(False),
                 t=ScalarTensor(2.5), t_int=ScalarTensor(3), zero_d=np.array(4.0), nothing=None)
    rec.close()
    row = _row(run_dir, 0)
    assert math.isnan(row["loss"])
    assert row["kl_mean"] == math.inf and row["reward_mean"] == -math.inf
    assert row["grad_norm"] == 1.5 and row["learning_rate"] == 3e-4 and row["n"] == 7.0
    assert row["big"] == 1e30 and row["flag"] == 1.0 and row["off"] == 0.0
    assert row["t"] == 2.5 and row["t_int"] == 3.0 and row["zero_d"] == 4.0
    assert row["nothing"] is None
    assert _bad(run_dir) == {}
    assert load_manifest(run_dir)["counts"]["bad_records"] == 0


def test_non_numbers_become_bad_record_events_and_never_raise(make_recorder, run_dir: Path) -> None:
    rec = make_recorder()
    huge = "x" * 5_000_000
    cyclic: dict = {}
    cyclic["again"] = cyclic
    for step in range(3):
        rec.log_step(step, loss=1.0, status="ok", huge=huge, arr=np.arange(3), lst=[1.0], broken=BrokenFloat(),
                     step_like={"step": 1.0}, deep=cyclic, nested={"a": 1.0, "b": {"c": 2.0, 3: 4.0}},
                     **{"x" * 300: 1.0, "bad\ud800name": 1.0})
    rec.log_step("seven", loss=1.0)
    rec.log_step(None, loss=1.0)
    rec.log_step(2.5, loss=1.0)
    rec.log_step(2**70, loss=1.0)
    rec.log_step(np.int64(10), loss=1.0)
    rec.log_step(11.0, loss=1.0)
    rec.log_step(12, step=5.0, time=1.0, rank=3.0)
    rec.close()

    reader = RunReader(run_dir)
    steps = reader.steps()
    assert steps.column("step").to_pylist() == [0, 1, 2, 10, 11, 12]
    row = _row(run_dir, 1)
    assert row["loss"] == 1.0 and row["nested/a"] == 1.0 and row["nested/b/c"] == 2.0 and row["nested/b/3"] == 4.0
    for dropped in ("status", "huge", "arr", "lst", "broken", "x" * 300):
        assert row.get(dropped) is None
    assert row["step_like/step"] == 1.0, "a nested 'step' key is an ordinary metric name"

    bad = _bad(run_dir)
    status = bad["log_step: metric 'status' is a str, not a number; value dropped"]
    assert status["data"]["count"] == 3 and status["data"]["steps"] == [0, 1, 2]
    assert status["data"]["example"] == "'ok'"
    huge_event = bad["log_step: metric 'huge' is a str, not a number; value dropped"]
    assert len(huge_event["data"]["example"]) <= 200
    assert any("'arr'" in m and "shape (3,)" in m for m in bad)
    assert any("'lst'" in m and "list" in m for m in bad)
    assert any("'broken'" in m and "no float for you" in m for m in bad)
    assert any("nests deeper than" in m for m in bad)
    assert any("longer than 256 characters" in m for m in bad)
    assert any("not valid Unicode" in m for m in bad)
    assert any(m.startswith("log_step: step 'seven' is not an integer") for m in bad)
    assert any(m.startswith("log_step: step None is not an integer") for m in bad)
    assert any("2.5 is not a whole number" in m for m in bad)
    assert any("does not fit in int64" in m for m in bad)
    for reserved in ("step", "time", "rank"):
        assert f"log_step: metric name '{reserved}' is reserved; value dropped" in bad
    counts = load_manifest(run_dir)["counts"]
    assert counts["bad_records"] == sum(e["data"]["count"] for e in bad.values())
    # Everything on disk is strict JSON, and Parquet text is valid UTF-8.
    for line in (run_dir / "events.jsonl").read_text().splitlines():
        json.loads(line)
    assert "bad\ud800name" not in steps.column_names


def test_samples_are_stored_where_sensible(make_recorder, run_dir: Path) -> None:
    rec = make_recorder()
    long_text = "y" * (MAX_TEXT_CHARS + 10)
    rec.log_samples(3, [
        {"prompt": "p", "completion": "c", "reward": np.float32(0.5), "advantage": float("nan"), 7: "seven",
         "meta": {1: {"deep": [1, 2]}}, "length": np.int64(12), "truncated": "false", "prompt_id": 42,
         "reward_components": {"acc": 1.0, 2: np.float64(0.25)}},
        SampleRecord(prompt=[{"role": "user", "content": "hi"}], completion=long_text, reward=None,
                     extra={"judge": "gpt"}),
        {"completion": "bad\ud800text", "reward": "high", "reward_components": [1, 2], "truncated": "maybe"},
        "not a sample",
        {"kl": BrokenFloat(), "length": 3.5, "extra": 5},
    ], select=False)
    rec.log_samples(4, 12345, select=False)
    rec.log_samples(5, (s for s in [{"completion": "from a generator"}]), select=False)
    rec.close()

    rows = RunReader(run_dir).samples().to_pylist()
    assert [r["step"] for r in rows] == [3, 3, 3, 3, 5]
    first, second, third, fourth, fifth = rows
    assert first["reward"] == 0.5 and math.isnan(first["advantage"]) and first["length"] == 12
    assert first["truncated"] is False and first["prompt_id"] == "42"
    assert dict(first["reward_components"]) == {"acc": 1.0, "2": 0.25}
    assert json.loads(first["extra"]) == {"7": "seven", "meta": {"1": {"deep": [1, 2]}}}
    assert json.loads(second["prompt"]) == [{"role": "user", "content": "hi"}]
    assert second["completion"].startswith("y" * MAX_TEXT_CHARS) and "clipped 10 chars" in second["completion"]
    assert json.loads(second["extra"]) == {"completion_chars": MAX_TEXT_CHARS + 10, "judge": "gpt"}
    assert third["completion"] == "bad?text" and third["reward"] is None and third["reward_components"] is None
    assert third["truncated"] is None
    assert fourth["kl"] is None and fourth["length"] is None and json.loads(fourth["extra"]) == {"extra": 5}
    assert fifth["completion"] == "from a generator"
    assert len({r["sample_id"] for r in rows}) == 5

    bad = _bad(run_dir)
    assert any("'reward'" in m and "str" in m for m in bad)
    assert any("reward_components" in m and "list" in m for m in bad)
    assert any("'truncated'" in m for m in bad)
    assert any("a sample is a str" in m for m in bad)
    assert any("'kl'" in m and "no float for you" in m for m in bad)
    assert any("'length'" in m and "whole number" in m for m in bad)
    assert any("samples are a int" in m for m in bad)
    assert any("not valid Unicode" in m for m in bad)


def test_events_take_any_data(make_recorder, run_dir: Path) -> None:
    rec = make_recorder()
    cyclic: list = []
    cyclic.append(cyclic)
    rec.log_event("custom", step=np.int64(4), message="m", arr=np.arange(3), nan=float("nan"), obj=object(),
                  raw=b"\xffbytes", key_types={1: "one", (2, 3): "tuple"}, cyclic=cyclic)
    rec.log_event("bad step", step="nope")
    rec.close()
    custom = events_of(run_dir, "custom")[0]
    assert custom["step"] == 4
    assert custom["data"]["arr"] == [0, 1, 2] and custom["data"]["nan"] == "nan"
    assert custom["data"]["raw"] == "\ufffdbytes"
    assert custom["data"]["key_types"] == {"1": "one", "(2, 3)": "tuple"}
    assert events_of(run_dir, "bad step")[0]["step"] is None
