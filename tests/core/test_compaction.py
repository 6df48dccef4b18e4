"""Compaction's layout (row groups re-cut whatever the parts), the reader's cost on a
compacted file it has seen, ``RunReader.files`` snapshots, and what ``close()`` leaves."""
from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from corekit import steps_of

import rlprobe.storage.watermark as watermark_module
import rlprobe.storage.writer as writer_module
from rlprobe.storage import RunFile, RunReader, RunWriter, compact_run, load_manifest
from rlprobe.storage.layout import WATERMARK_KEY, list_parts


def _writer(run: Path) -> RunWriter:
    return RunWriter(run, {"run_id": run.name})


def _one_step_parts(w: RunWriter, first: int, n: int, **extra: float) -> None:
    for step in range(first, first + n):
        w.write_part([{"step": step, "time": 1.0, "loss": float(step), **extra}],
                     [{"step": step, "rank": 0, "completion": f"c{step}"}])


def _row_groups(path: Path) -> list[int]:
    meta = pq.read_metadata(path)
    return [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]


def test_many_one_step_parts_compact_into_full_row_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    w = _writer(run)
    _one_step_parts(w, 0, 120)
    w.compact()
    _one_step_parts(w, 120, 80, late=1.0)
    w.compact()
    assert _row_groups(run / "steps.parquet") == [200] and _row_groups(run / "samples.parquet") == [200]

    monkeypatch.setattr(writer_module, "_ROW_GROUP", 64)
    _one_step_parts(w, 200, 30)
    w.compact()  # the existing file's rows are re-cut with the new parts, tail included
    assert _row_groups(run / "steps.parquet") == [64, 64, 64, 38]
    steps = RunReader(run).steps()
    assert steps.column("step").to_pylist() == list(range(230))
    assert steps.column("late").to_pylist() == [None] * 120 + [1.0] * 80 + [None] * 30
    assert RunReader(run).samples().column("completion").to_pylist() == [f"c{s}" for s in range(230)]
    assert pq.read_metadata(run / "steps.parquet").metadata[WATERMARK_KEY] == b"230"


def test_a_file_compacted_with_one_row_group_per_part_is_re_cut_next_time(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written by an earlier rlprobe (one row group per part) heal at the next compaction."""
    run = tmp_path / "run"
    w = _writer(run)
    _one_step_parts(w, 0, 50)
    with monkeypatch.context() as patch:
        patch.setattr(writer_module, "_ROW_GROUP", 1)
        w.compact()
    assert len(_row_groups(run / "steps.parquet")) == 50
    _one_step_parts(w, 50, 1)
    w.compact()
    assert _row_groups(run / "steps.parquet") == [51]
    assert steps_of(run) == list(range(51))


def test_row_groups_of_long_texts_are_cut_by_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer_module, "_ROW_GROUP_BYTES", 20_000)
    run = tmp_path / "run"
    w = _writer(run)
    text = "x" * 1000
    for part in range(4):
        w.write_part(None, [{"step": part, "rank": 0, "completion": f"{i}{text}"} for i in range(25)])
    w.compact()
    groups = _row_groups(run / "samples.parquet")
    assert sum(groups) == 100 and len(groups) >= 5 and max(groups) <= 21
    completions = RunReader(run).samples().column("completion").to_pylist()
    assert completions == [f"{i}{text}" for _ in range(4) for i in range(25)]


class _Opens:
    """Paths of the Parquet files opened (footer parsed) while recording."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.paths: list[str] = []
        opens = self
        real_file, real_metadata, real_open = pq.ParquetFile, pq.read_metadata, open

        class Recorded(real_file):  # type: ignore[misc, valid-type]
            def __init__(self, source, *args, **kwargs):
                opens.paths.append(str(source))
                super().__init__(source, *args, **kwargs)

        def read_metadata(source, *args, **kwargs):
            if isinstance(source, (str, Path)):  # a file object was counted when opened
                opens.paths.append(str(source))
            return real_metadata(source, *args, **kwargs)

        def open_file(path, *args, **kwargs):
            opens.paths.append(str(path))
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(pq, "ParquetFile", Recorded)
        monkeypatch.setattr(pq, "read_metadata", read_metadata)
        monkeypatch.setattr(watermark_module, "open", open_file, raising=False)

    def take(self) -> list[str]:
        paths, self.paths = self.paths, []
        return [Path(p).name for p in paths]


def test_read_new_does_not_reopen_a_compacted_file_it_has_seen(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    w = _writer(run)
    _one_step_parts(w, 0, 10)
    w.compact()
    _one_step_parts(w, 10, 2)
    table, cursor = RunReader(run).read_new("steps")
    assert table.column("step").to_pylist() == list(range(12))
    opens = _Opens(monkeypatch)

    for _ in range(3):  # idle: a fresh reader each time, as a watcher's refresh makes
        table, cursor = RunReader(run).read_new("steps", cursor)
        assert table is None
        RunReader(run).files("steps")
    assert opens.take() == []

    _one_step_parts(w, 12, 1)
    table, cursor = RunReader(run).read_new("steps", cursor)
    assert table.column("step").to_pylist() == [12]
    assert opens.take() == ["steps-00000013.parquet"], "only the new part"

    w.compact()
    opens.take()
    table, cursor = RunReader(run).read_new("steps", cursor)
    assert table is None
    assert opens.take() == ["steps.parquet"], "a new compacted file: its footer once, for the watermark"
    table, cursor = RunReader(run).read_new("steps", cursor)
    assert table is None and opens.take() == []


def test_files_is_a_snapshot_that_stays_exact_after_later_compactions(tmp_path: Path) -> None:
    run = tmp_path / "run"
    w = _writer(run)
    _one_step_parts(w, 0, 3)
    w.compact()
    _one_step_parts(w, 3, 2)
    reader = RunReader(run)
    files = reader.files("steps")
    assert files == [RunFile(0, run / "steps.parquet", 0, 3),
                     RunFile(0, run / "parts" / "steps-00000004.parquet", 3, 4),
                     RunFile(0, run / "parts" / "steps-00000005.parquet", 4, 5)]

    def rows(snapshot: list[RunFile]) -> list[int]:
        return [step for f in snapshot
                for step in pq.read_table(f.path, filters=[("_part", ">", f.after), ("_part", "<=", f.upto)])
                .column("step").to_pylist()]

    assert rows(files) == list(range(5))
    compacted_only = files[:1]
    _one_step_parts(w, 5, 2)
    w.compact()  # steps.parquet now also holds parts 4 to 7
    assert rows(compacted_only) == [0, 1, 2], "the range keeps the snapshot's rows only"
    with pytest.raises(FileNotFoundError):
        rows(files)
    assert rows(reader.files("steps")) == list(range(7))
    _, cursor = reader.read_new("steps")
    _one_step_parts(w, 7, 1)
    assert reader.files("steps", after=cursor) == [RunFile(0, run / "parts" / "steps-00000008.parquet", 7, 8)]


def test_files_of_a_run_recorded_by_every_rank(tmp_path: Path) -> None:
    run = tmp_path / "run"
    for rank in (0, 1):
        w = RunWriter(run / f"rank-{rank}", {"run_id": "r", "rank": rank})
        _one_step_parts(w, 0, 2)
        if rank == 0:
            w.compact()
    files = RunReader(run).files("samples")
    assert [(f.rank, f.path.relative_to(run).as_posix()) for f in files] == [
        (0, "rank-0/samples.parquet"), (1, "rank-1/parts/samples-00000001.parquet"),
        (1, "rank-1/parts/samples-00000002.parquet")]


def test_close_leaves_no_parts_directory_and_a_continued_run_recreates_it(make_recorder, run_dir: Path) -> None:
    rec = make_recorder(flush_interval_s=60)
    for step in range(10):
        rec.log_step(step, loss=1.0)
    assert rec.flush()
    assert list_parts(run_dir, "steps")
    rec.close()
    assert not (run_dir / "parts").exists()
    assert steps_of(run_dir) == list(range(10)) and RunReader(run_dir).read_new("steps")[1] == {0: 1}

    again = make_recorder(flush_interval_s=60)
    again.log_step(10, loss=1.0)
    assert again.flush()
    assert [p.name for _, p in list_parts(run_dir, "steps")] == ["steps-00000002.parquet"]
    again.close()
    assert not (run_dir / "parts").exists()
    assert steps_of(run_dir) == list(range(11)) and load_manifest(run_dir)["status"] == "finished"
    compact_run(run_dir)  # a compaction with nothing to do, and no parts/, is fine
    assert steps_of(run_dir) == list(range(11))


def test_close_keeps_a_parts_directory_that_holds_something_else(tmp_path: Path) -> None:
    run = tmp_path / "run"
    w = _writer(run)
    _one_step_parts(w, 0, 2)
    (run / "parts" / "notes.txt").write_text("not ours")
    w.close()
    assert [p.name for p in (run / "parts").iterdir()] == ["notes.txt"]
    assert steps_of(run) == [0, 1] and load_manifest(run)["status"] == "finished"


def test_steps_recorded_before_a_spelling_became_an_alias_read_as_the_known_field(tmp_path: Path) -> None:
    """An earlier rlprobe stored PPO's ``objective/scores`` as its own column."""
    run = tmp_path / "run"
    w = _writer(run)
    w.write_part([{"step": 0, "time": 1.0, "objective/scores": 1.5, "policy/clipfrac_avg": 0.1}])
    w.compact()
    w.write_part([{"step": 1, "time": 1.0, "reward_mean": 2.5},
                  {"step": 2, "time": 1.0, "reward_mean": 3.5, "objective/scores": -1.0}])
    steps = RunReader(run).steps()
    assert "objective/scores" not in steps.column_names and "policy/clipfrac_avg" not in steps.column_names
    assert steps.column("reward_mean").to_pylist() == [1.5, 2.5, 3.5], "the known field wins where both are set"
    assert steps.column("clip_ratio").to_pylist() == [0.1, None, None]
    fresh, _ = RunReader(run).read_new("steps", {0: 1})
    assert fresh.column("reward_mean").to_pylist() == [2.5, 3.5] and "objective/scores" not in fresh.column_names
