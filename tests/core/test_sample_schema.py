"""The sample schema is ``SampleRecord``: each field's kind decides how the recorder cleans it
and which column stores it, and docs/recording-format.md's samples table says the same."""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from rlprobe import Recorder, SampleRecord
from rlprobe.records import SAMPLE_FIELDS, SAMPLE_KINDS
from rlprobe.storage import RunReader
from rlprobe.storage.schema import SAMPLE_TYPES

DOC = (Path(__file__).resolve().parents[2] / "docs" / "recording-format.md").read_text()

#: Per kind: a value given in another form than the column's, and what the column holds.
_CONVERTED: dict[str, tuple[Any, Any]] = {
    "id": (42, "42"),
    "text": ([{"role": "user", "content": "hi"}], '[{"role": "user", "content": "hi"}]'),
    "float": (3, 3.0),
    "int": (7.0, 7),
    "bool": ("yes", True),
    "components": ({"format": 1}, [("format", 1.0)]),
}


def _record(make_recorder: Callable[..., Recorder], run_dir: Path, samples: list[Any]) -> pa.Table:
    rec = make_recorder()
    rec.log_step(1, reward=1.0)
    rec.log_samples(1, samples, select=False)
    rec.close()
    return RunReader(run_dir).samples()


def test_every_field_is_cleaned_and_stored_by_its_kind(make_recorder: Callable[..., Recorder],
                                                      run_dir: Path) -> None:
    assert set(SAMPLE_KINDS.values()) == set(_CONVERTED)  # a new kind needs a case here
    given = {name: _CONVERTED[kind][0] for name, kind in SAMPLE_KINDS.items()}
    [row] = _record(make_recorder, run_dir, [given]).to_pylist()
    assert {name: row[name] for name in SAMPLE_FIELDS} == {
        name: _CONVERTED[kind][1] for name, kind in SAMPLE_KINDS.items()}
    assert row["extra"] is None  # nothing typed spilled into extra


def test_a_sample_record_and_a_dict_are_one_schema(make_recorder: Callable[..., Recorder], run_dir: Path) -> None:
    record = SampleRecord(sample_id="a", prompt="p", completion="c", reward=0.5, length=3, truncated=False,
                          reward_components={"f": 0.5}, extra={"source": "x"})
    table = _record(make_recorder, run_dir, [record, {"sample_id": "b", "reward": 1.0, "source": "y"}])
    assert {name: table.schema.field(name).type for name in table.column_names if name != "_part"} == SAMPLE_TYPES
    rows = table.to_pylist()
    assert rows[0]["reward_components"] == [("f", 0.5)] and rows[0]["extra"] == '{"source": "x"}'
    assert rows[1]["extra"] == '{"source": "y"}'


def _doc_types() -> dict[str, str]:
    section = DOC[DOC.index("## The samples table"):]
    table = section[section.index("| column | type |"):]
    types = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = line.split("|")
        for name in re.findall(r"`([^`]+)`", cells[1]):
            types[name] = cells[2].strip()
    return types


def test_the_doc_lists_every_column_and_no_other() -> None:
    assert set(_doc_types()) == set(SAMPLE_TYPES) | {"_part"}


@pytest.mark.parametrize("name", list(SAMPLE_TYPES))
def test_the_doc_gives_each_column_its_type(name: str) -> None:
    assert _doc_types()[name].replace("float64", "double") == str(SAMPLE_TYPES[name])
