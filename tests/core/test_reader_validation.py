"""The reader's one validation layer: every damaged file a RecordingError naming it, event
lines of the wrong shape skipped, text always valid Unicode, unreadable runs flagged."""
from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from rlprobe.storage import RecordingError, RunReader, RunWriter, list_runs, load_manifest
from rlprobe.storage.reader import parse_events


def _run(path: Path, parts: int = 2, compact: bool = True, **meta) -> Path:
    writer = RunWriter(path, {"run_id": path.name, **meta})
    for part in range(parts):
        writer.write_part([{"step": s, "time": 1.0, "kl_mean": 0.01} for s in range(part * 5, part * 5 + 5)],
                          [{"step": part * 5, "rank": 0, "completion": "x", "reward": 1.0}])
    if compact:
        writer.close()
    return path


def _rewrite(path: Path, table: pa.Table, metadata: dict[bytes, bytes] | None) -> None:
    pq.write_table(table.replace_schema_metadata(metadata), path)


def test_a_recording_error_is_one_line_naming_run_and_file(tmp_path: Path) -> None:
    run = _run(tmp_path / "run")
    (run / "steps.parquet").write_bytes(b"PAR1\nnot\nreally")
    with pytest.raises(RecordingError) as caught:
        RunReader(run).steps()
    error = caught.value
    assert error.run_dir == run and error.path == run / "steps.parquet" and "unreadable" in error.problem
    assert str(error).startswith(f"{run / 'steps.parquet'}: ") and "\n" not in str(error)
    assert isinstance(error, ValueError)
    assert str(pickle.loads(pickle.dumps(error))) == str(error)  # crosses process boundaries intact


@pytest.mark.parametrize("column, cast", [("step", pa.string()), ("kl_mean", pa.string()), ("time", pa.bool_())])
def test_columns_of_the_wrong_type_are_refused_before_any_row_is_used(tmp_path: Path, column, cast) -> None:
    run = _run(tmp_path / "run")
    path = run / "steps.parquet"
    table = pq.read_table(path)
    watermark = table.schema.metadata
    table = table.set_column(table.schema.get_field_index(column), column, table.column(column).cast(cast))
    _rewrite(path, table, watermark)
    reader = RunReader(run)
    for read in (reader.steps, lambda: reader.read_new("steps"), lambda: reader.files("steps")):
        with pytest.raises(RecordingError, match=rf"column '{column}' holds"):
            read()
    assert reader.samples().num_rows == 2  # the other kind is untouched


def test_integer_metrics_and_int32_steps_are_numbers_not_damage(tmp_path: Path) -> None:
    run = _run(tmp_path / "run")
    path = run / "steps.parquet"
    table = pq.read_table(path)
    table = table.set_column(table.schema.get_field_index("step"), "step", table.column("step").cast(pa.int32()))
    table = table.append_column("tokens", pa.array(range(table.num_rows), pa.int64()))
    _rewrite(path, table, table.schema.metadata)
    steps = RunReader(run).steps()
    assert steps.column("step").to_pylist() == list(range(10)) and steps.column("tokens").to_pylist()[-1] == 9


@pytest.mark.parametrize("metadata, says", [({b"rlprobe.watermark": b"two"}, "not a part number"),
                                            ({b"rlprobe.watermark": b"-3"}, "no valid rlprobe watermark"),
                                            (None, "no valid rlprobe watermark")])
def test_a_compacted_file_without_a_valid_watermark_is_refused_not_ignored(tmp_path: Path, metadata, says) -> None:
    run = _run(tmp_path / "run")
    _rewrite(run / "steps.parquet", pq.read_table(run / "steps.parquet"), metadata)
    with pytest.raises(RecordingError, match=says):
        RunReader(run).steps()


def test_a_damaged_part_says_how_to_read_the_rest(tmp_path: Path) -> None:
    run = _run(tmp_path / "run", parts=3, compact=False)
    part = run / "parts" / "steps-00000002.parquet"
    part.write_bytes(part.read_bytes()[:40])
    with pytest.raises(RecordingError, match="move it out of parts/") as caught:
        RunReader(run).steps()
    assert caught.value.path == part
    part.rename(tmp_path / "aside.parquet")
    assert RunReader(run).steps().column("step").to_pylist() == list(range(5)) + list(range(10, 15))


def test_event_lines_of_the_wrong_shape_are_skipped() -> None:
    good = {"kind": "note", "step": 3, "time": 5.0, "message": "m", "data": {"a": 1}}
    lines = [good, {**good, "time": "yesterday"}, {**good, "time": float("nan")}, {**good, "step": "3"},
             {**good, "step": True}, {**good, "kind": None}, {**good, "message": 7}, {**good, "data": []},
             {k: v for k, v in good.items() if k != "data"}, [good], "text", {**good, "step": None, "time": 6}]
    data = "\n".join(json.dumps(line) for line in lines).encode() + b"\n" + b"[" * 50_000 + b"\n{\"kind\": \"to"
    events = parse_events(data)
    assert events == [good, {**good, "step": None, "time": 6}]


def test_lone_surrogates_are_read_as_replacement_characters(tmp_path: Path) -> None:
    run = tmp_path / "run"
    writer = RunWriter(run, {"run_id": "run", "trainer_config": {"k\ud800": ["v\udfff"]}})
    writer.append_event("note", message="a \ud83d b \U0001F600")
    writer.close()
    manifest = load_manifest(run)
    assert manifest["trainer_config"] == {"k\ufffd": ["v\ufffd"]}
    [event] = [e for e in RunReader(run).events() if e["kind"] == "note"]
    assert event["message"] == "a \ufffd b \U0001F600"  # a proper pair stays the character it is
    event["message"].encode("utf-8")


@pytest.mark.parametrize("change, says", [
    ({"counts": [1]}, "'counts' is a list, not an object"),
    ({"created_at": "yesterday"}, "'created_at' is a string, not a number"),
    ({"rank": 1.5}, "'rank' is a number, not a whole number"),
    ({"run_id": {"a": 1}}, "'run_id' is an object, not a string"),
    ({"counts": {"steps": "10"}}, "'counts.steps' is a string, not a whole number"),
    ({"recorded_ranks": [0, "1"]}, "'recorded_ranks[]' is a string"),
    ({"format_version": True}, "format version True"),
])
def test_a_manifest_with_fields_of_the_wrong_type_is_refused(tmp_path: Path, change, says) -> None:
    run = _run(tmp_path / "run")
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps({**manifest, **change}))
    with pytest.raises(RecordingError, match=rf"manifest\.json: .*{re.escape(says)}"):
        load_manifest(run)


def test_a_manifest_that_is_not_utf8_is_a_recording_error(tmp_path: Path) -> None:
    run = _run(tmp_path / "run")
    (run / "manifest.json").write_bytes(b'{"format_version": 1, "run_id": "\xff"}')
    with pytest.raises(RecordingError, match="not UTF-8"):
        RunReader(run)


def test_list_runs_flags_unreadable_recordings_and_lists_the_rest(tmp_path: Path) -> None:
    _run(tmp_path / "a")
    broken = _run(tmp_path / "b")
    (broken / "manifest.json").write_text(json.dumps({"format_version": 1, "created_at": "noon", "counts": []}))
    _run(tmp_path / "c")
    (tmp_path / "stray").mkdir()
    (tmp_path / "stray" / "manifest.json").write_text("{")
    _run(tmp_path / "stray" / "below")  # a stray manifest hides nothing under it
    assert [Path(r["path"]).name for r in list_runs(tmp_path)] == ["a", "c", "below"]
    flagged = list_runs(tmp_path, include_unreadable=True)
    assert [Path(r["path"]).name for r in flagged] == ["a", "c", "below", "b", "stray"]
    assert set(flagged[3]) == {"path", "error"} and str(broken / "manifest.json") in flagged[3]["error"]


def test_the_manifest_types_checked_are_those_the_format_doc_states() -> None:
    from rlprobe.storage.manifest import MANIFEST_TYPES

    doc = (Path(__file__).resolve().parents[2] / "docs" / "recording-format.md").read_text()
    table = doc[doc.index("| key | type | meaning |"):].split("\n\n")[0].splitlines()[2:]
    stated = {re.findall(r"`([^`]+)`", row.split("|")[1])[0]: row.split("|")[2].strip() for row in table}
    python = {"str": (str,), "object": (dict,), "int": (int,), "float": (int, float), "list[int]": (list,)}
    assert {key: MANIFEST_TYPES[key] for key in stated if key != "format_version"} == \
        {key: python[kind.split(" ")[0]] for key, kind in stated.items() if key != "format_version"}
