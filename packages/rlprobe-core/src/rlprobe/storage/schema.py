"""Arrow schemas of the steps and samples tables, and rows → tables."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import pyarrow as pa

from ..records import SAMPLE_FIELDS, STEP_FIELDS
from .layout import PART_COLUMN

FLOAT = pa.float64()
TEXT = pa.large_string()

#: Sample columns and their types. ``extra`` holds the sample's other keys as a JSON object.
SAMPLE_TYPES: dict[str, pa.DataType] = {
    "step": pa.int64(),
    "rank": pa.int64(),
    "sample_id": pa.string(),
    "prompt_id": pa.string(),
    "group_id": pa.string(),
    "prompt": TEXT,
    "completion": TEXT,
    "reward": FLOAT,
    "reward_components": pa.map_(pa.string(), FLOAT),
    "advantage": FLOAT,
    "logprob": FLOAT,
    "ref_logprob": FLOAT,
    "kl": FLOAT,
    "entropy": FLOAT,
    "length": pa.int64(),
    "truncated": pa.bool_(),
    "extra": pa.string(),
}
assert set(SAMPLE_FIELDS) <= set(SAMPLE_TYPES), "every SampleRecord field needs a column type"


def steps_table(rows: Sequence[Mapping[str, Any]], part: int) -> pa.Table:
    """Rows of ``{"step", "time", metric: float | None, ...}`` → a steps table.

    Known fields always get a column (null where absent); any other name gets a float64
    column of its own, so metrics that appear mid-run simply widen later parts.
    """
    columns: dict[str, pa.Array] = {
        "step": pa.array([r["step"] for r in rows], pa.int64()),
        "time": pa.array([r.get("time") for r in rows], FLOAT),
    }
    for name in STEP_FIELDS:
        columns[name] = pa.array([r.get(name) for r in rows], FLOAT)
    extras: dict[str, None] = {}
    for r in rows:
        for name in r:
            if name not in columns:
                extras[name] = None
    for name in extras:
        columns[name] = pa.array([r.get(name) for r in rows], FLOAT)
    columns[PART_COLUMN] = pa.array([part] * len(rows), pa.int64())
    return pa.table(columns)


def samples_table(rows: Sequence[Mapping[str, Any]], part: int) -> pa.Table:
    """Clean sample rows (see ``SAMPLE_TYPES``) → a samples table."""
    columns = {name: pa.array([r.get(name) for r in rows], typ) for name, typ in SAMPLE_TYPES.items()}
    columns[PART_COLUMN] = pa.array([part] * len(rows), pa.int64())
    return pa.table(columns)


def unify(tables: Sequence[pa.Table]) -> pa.Table:
    """Concatenate tables whose columns differ (metrics added mid-run): missing → null."""
    tables = [t for t in tables if t is not None]
    if not tables:
        return pa.table({})
    if len(tables) == 1:
        return tables[0]
    return pa.concat_tables(tables, promote_options="permissive")
