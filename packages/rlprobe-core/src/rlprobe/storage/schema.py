"""Arrow schemas of the steps and samples tables, and rows → tables."""
from __future__ import annotations

import array
from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa

from ..records import SAMPLE_KINDS, STEP_FIELDS
from .layout import PART_COLUMN

FLOAT = pa.float64()
TEXT = pa.large_string()

#: The steps table's leading columns; every other column is a float64 metric.
STEP_LEAD: dict[str, pa.DataType] = {"step": pa.int64(), "time": FLOAT}

#: The column type of each kind of sample field (``records.SAMPLE_KINDS``).
_SAMPLE_KIND_TYPES: dict[str, pa.DataType] = {
    "id": pa.string(), "text": TEXT, "float": FLOAT, "int": pa.int64(), "bool": pa.bool_(),
    "components": pa.map_(pa.string(), FLOAT)}
#: Sample columns and their types: where and by whom, then ``SampleRecord``'s fields, then
#: ``extra`` (the sample's other keys as a JSON object).
SAMPLE_TYPES: dict[str, pa.DataType] = {
    "step": pa.int64(), "rank": pa.int64(),
    **{name: _SAMPLE_KIND_TYPES[kind] for name, kind in SAMPLE_KINDS.items()},
    "extra": pa.string()}


def steps_table(rows: Sequence[Mapping[str, Any]]) -> pa.Table:
    """Rows of ``{"step", "time", metric: float | None, ...}`` → a steps table (see
    ``order_steps``). Raises ``pyarrow.ArrowInvalid`` for values that are not numbers."""
    names: dict[str, None] = dict.fromkeys(STEP_LEAD)
    for row in rows:
        names.update(dict.fromkeys(row))
    columns = {name: pa.array([r.get(name) for r in rows], STEP_LEAD.get(name, FLOAT)) for name in names}
    return order_steps(pa.table(columns) if columns else pa.table({}))


def order_steps(table: pa.Table) -> pa.Table:
    """``table`` with the columns every steps table has, in the canonical order: ``step``,
    ``time``, the known fields (null where never logged), then other metrics as they came."""
    n = table.num_rows
    names = table.column_names
    columns: dict[str, pa.ChunkedArray | pa.Array] = {}
    for name, typ in STEP_LEAD.items():
        columns[name] = table.column(name) if name in names else pa.nulls(n, typ)
    for name in STEP_FIELDS:
        columns[name] = table.column(name) if name in names else pa.nulls(n, FLOAT)
    for name in names:
        if name not in columns and name != PART_COLUMN:
            columns[name] = table.column(name)
    return pa.table(columns)


def samples_table(rows: Sequence[Mapping[str, Any]]) -> pa.Table:
    """Clean sample rows (see ``SAMPLE_TYPES``) → a samples table. Raises
    ``pyarrow.ArrowInvalid`` for values of the wrong type and ``UnicodeEncodeError`` for
    text that is not valid Unicode."""
    return pa.table({name: pa.array([r.get(name) for r in rows], typ) for name, typ in SAMPLE_TYPES.items()})


def with_part(table: pa.Table, part: int) -> pa.Table:
    """``table`` with the hidden ``_part`` column set to ``part`` (replacing any there)."""
    if PART_COLUMN in table.column_names:
        table = table.drop_columns([PART_COLUMN])
    # From a buffer: ``pa.array`` would import pandas where it is installed (pyarrow looks for
    # pandas objects in what it is given), a third of a second that writing a part need not pay.
    values = array.array("q", [part]) * table.num_rows
    return table.append_column(PART_COLUMN, pa.Array.from_buffers(pa.int64(), table.num_rows,
                                                                  [None, pa.py_buffer(values)], null_count=0))


def unify(tables: Sequence[pa.Table | None]) -> pa.Table:
    """Concatenate tables whose columns differ (metrics added mid-run): missing → null."""
    present = [t for t in tables if t is not None]
    if not present:
        return pa.table({})
    if len(present) == 1:
        return present[0]
    return pa.concat_tables(present, promote_options="permissive")
