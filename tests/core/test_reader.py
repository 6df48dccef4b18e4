"""RunReader over every state a run directory can be in, and RunWriter used directly."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rlprobe.storage.reader as reader_module
from rlprobe.storage import (
    FORMAT_VERSION,
    RunReader,
    RunWriter,
    compact_run,
    list_runs,
    load_manifest,
)
from rlprobe.storage.layout import list_parts


def _writer(run: Path, **meta) -> RunWriter:
    return RunWriter(run, {"run_id": run.name, **meta})


def _steps(first: int, n: int, **extra: float) -> list[dict]:
    return [{"step": s, "time": 1.0, "loss": float(s), **extra} for s in range(first, first + n)]


def test_any_mix_of_compacted_file_and_parts_reads_in_order(tmp_path: Path) -> None:
    run = tmp_path / "run"
    w = _writer(run)
    w.write_part(_steps(0, 10), [{"step": 0, "rank": 0, "completion": "a"}])
    w.write_part(_steps(10, 10, approxkl=0.5))
    w.compact()
    w.write_part(_steps(20, 10, **{"rewards/acc/mean": 1.0}))
    w.write_part(None, [{"step": 25, "rank": 0, "completion": "b"}])
    reader = RunReader(run)
    steps = reader.steps()
    assert steps.column("step").to_pylist() == list(range(30))
    assert steps.column("approxkl").to_pylist() == [None] * 10 + [0.5] * 10 + [None] * 10
    assert steps.column("rewards/acc/mean").to_pylist()[-1] == 1.0
    assert steps.column_names[:3] == ["step", "rank", "time"]
    assert "_part" not in steps.column_names
    assert reader.samples().column("completion").to_pylist() == ["a", "b"]
    w.close()
    assert RunReader(run).steps().column("step").to_pylist() == list(range(30))
    assert load_manifest(run)["counts"]["steps"] == 30


def test_read_new_is_incremental_across_compactions(tmp_path: Path) -> None:
    run = tmp_path / "run"
    w = _writer(run)
    seen: list[int] = []
    cursor = None
    for batch in range(8):
        w.write_part(_steps(batch * 5, 5))
        if batch % 3 == 2:
            w.compact()
        table, cursor = RunReader(run).read_new("steps", cursor)
        seen.extend(table.column("step").to_pylist())
        table, cursor = RunReader(run).read_new("steps", cursor)
        assert table is None, "nothing new, nothing returned"
    assert seen == list(range(40))


def test_a_compaction_racing_the_reader_neither_hides_nor_repeats_rows(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Compaction lands between the reader listing the parts and opening the compacted file."""
    run = tmp_path / "run"
    w = _writer(run)
    for batch in range(3):
        w.write_part(_steps(batch * 5, 5))
    w.compact()
    w.write_part(_steps(15, 5))
    w.write_part(_steps(20, 5))
    first, cursor = RunReader(run).read_new("steps")
    assert first.column("step").to_pylist() == list(range(25))
    w.write_part(_steps(25, 5))

    real_list_parts = reader_module.list_parts
    raced = []

    def list_then_compact(run_dir: Path, kind: str):
        parts = real_list_parts(run_dir, kind)
        if kind == "steps" and not raced:
            raced.append(True)
            w.write_part(_steps(30, 5))
            w.compact()
        return parts

    monkeypatch.setattr(reader_module, "list_parts", list_then_compact)
    table, cursor = RunReader(run).read_new("steps", cursor)
    assert raced
    assert table.column("step").to_pylist() == list(range(25, 35))
    monkeypatch.undo()
    table, cursor = RunReader(run).read_new("steps", cursor)
    assert table is None


def test_stale_parts_below_the_watermark_are_ignored(tmp_path: Path) -> None:
    """A crash after compaction's rename but before it deleted the parts."""
    run = tmp_path / "run"
    w = _writer(run)
    w.write_part(_steps(0, 5))
    w.write_part(_steps(5, 5))
    saved = {p.name: p.read_bytes() for _, p in list_parts(run, "steps")}
    w.compact()
    for name, data in saved.items():
        (run / "parts" / name).write_bytes(data)
    assert RunReader(run).steps().column("step").to_pylist() == list(range(10))
    compact_run(run)
    assert list_parts(run, "steps") == []
    assert RunReader(run).steps().column("step").to_pylist() == list(range(10))


def test_events_tolerate_a_torn_line_and_later_appends_stay_whole(tmp_path: Path) -> None:
    run = tmp_path / "run"
    w = _writer(run)
    w.append_event("one", step=1, message="first")
    with open(run / "events.jsonl", "a") as fh:
        fh.write('{"kind": "torn", "st')
    w.append_event("two", step=2, message="second", data={"x": float("nan")})
    with open(run / "events.jsonl", "ab") as fh:
        fh.write('{"kind": "torn", "message": "é'.encode()[:-1])  # cut inside a UTF-8 character
    w.append_event("three", message="ünïcode")
    events = RunReader(run).events()
    assert [e["kind"] for e in events] == ["one", "two", "three"]
    assert events[1]["data"] == {"x": "nan"} and events[2]["message"] == "ünïcode"


def test_empty_run_gives_typed_empty_tables(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _writer(run)
    reader = RunReader(run)
    steps, samples = reader.steps(), reader.samples()
    assert steps.num_rows == 0 and {"step", "rank", "time", "reward_mean", "kl_mean"} <= set(steps.column_names)
    assert samples.num_rows == 0 and {"step", "rank", "completion", "reward"} <= set(samples.column_names)
    assert reader.events() == []


def test_missing_or_unknown_recordings_are_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no rlprobe recording"):
        RunReader(tmp_path / "nothing")
    run = tmp_path / "future"
    _writer(run)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["format_version"] = FORMAT_VERSION + 1
    (run / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="format version"):
        RunReader(run)
    (run / "manifest.json").write_text("{not json")
    with pytest.raises(ValueError, match="unreadable manifest"):
        load_manifest(run)


def test_list_runs_finds_nested_runs_and_skips_broken_ones(tmp_path: Path) -> None:
    _writer(tmp_path / "a")
    _writer(tmp_path / "group" / "b")
    _writer(tmp_path / "group" / "broken")
    (tmp_path / "group" / "broken" / "manifest.json").write_text("garbage")
    (tmp_path / "not-a-run").mkdir()
    runs = list_runs(tmp_path)
    assert sorted(Path(r["path"]).name for r in runs) == ["a", "b"]
    assert all(r["format_version"] == FORMAT_VERSION for r in runs)
    assert list_runs(tmp_path / "missing") == []


def test_writer_continues_a_directory_after_its_highest_part(tmp_path: Path) -> None:
    run = tmp_path / "run"
    w = _writer(run)
    w.write_part(_steps(0, 3))
    w.compact()
    w.write_part(_steps(3, 3))
    again = _writer(run)
    assert again.write_part(_steps(6, 3)) == 3
    assert RunReader(run).steps().column("step").to_pylist() == list(range(9))


def test_a_part_compacted_away_mid_read_is_retried_not_lost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    w = _writer(run)
    w.write_part(_steps(0, 5))
    w.write_part(_steps(5, 5))
    real_read_rows = reader_module._read_rows
    raced = []

    def compact_then_read(file):
        if not raced:
            raced.append(True)
            w.compact()
        return real_read_rows(file)

    monkeypatch.setattr(reader_module, "_read_rows", compact_then_read)
    steps = RunReader(run).steps()
    assert raced
    assert steps.column("step").to_pylist() == list(range(10))


def test_an_unknown_kind_is_refused(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _writer(run)
    with pytest.raises(ValueError, match="'steps', 'samples'"):
        RunReader(run).read_new("step")
    with pytest.raises(ValueError, match="got 'events'"):
        RunReader(run).files("events")
