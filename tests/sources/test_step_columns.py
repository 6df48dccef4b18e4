"""``StepColumns`` (step rows gathered as columns) writes the table the row path writes:
``metrics_row`` for each row, the rows merged by step (``_sorted_steps``), ``steps_table``
— values, nulls, column order and the problems counted alike, on any rows."""
from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlprobe.cleaning import Problems
from rlprobe.doctor.sources.base import ImportedRun, _sorted_steps, metrics_row
from rlprobe.doctor.sources.columns import StepColumns
from rlprobe.doctor.sources.trainer_logs import add_trainer_logs
from rlprobe.storage.schema import order_steps, steps_table

NAMES = ["loss", "reward", "kl", "eval_loss", "completion_length", "completions/mean_length", "time", "step",
         "x" * 300, "rewards/fmt", "rewards/fmt/mean", "a/b"]
VALUES = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(-(2**70), 2**70), st.none(), st.booleans(),
    st.sampled_from(["0.5", " 2 ", "nan", "Infinity", "abc", ""]),
    st.dictionaries(st.sampled_from(["p", "q"]), st.one_of(st.floats(), st.none()), max_size=2),
    st.lists(st.floats(), max_size=1))
ROW = st.tuples(st.integers(0, 6), st.dictionaries(st.sampled_from(NAMES), VALUES, max_size=6),
                st.sampled_from(["", "train/"]))


def row_path(rows: list[tuple[int, dict[str, Any], str]]) -> tuple[Any, Problems]:
    problems = Problems()
    return steps_table(_sorted_steps([metrics_row(s, m, problems, p) for s, m, p in rows])), problems


def column_path(rows: list[tuple[int, dict[str, Any], str]]) -> tuple[Any, Problems]:
    problems = Problems()
    columns = StepColumns(problems)
    for step, metrics, prefix in rows:
        columns.add(step, metrics, prefix)
    table = columns.table()
    return order_steps(table) if table is not None else None, problems


def same(a: Any, b: Any) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def assert_same(old: Any, new: Any) -> None:
    assert old.column_names == new.column_names
    for name in old.column_names:
        x, y = old.column(name).to_pylist(), new.column(name).to_pylist()
        assert len(x) == len(y) and all(same(a, b) for a, b in zip(x, y, strict=True)), name


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ROW, min_size=1, max_size=12))
def test_columns_write_what_the_rows_write(rows: list[tuple[int, dict[str, Any], str]]) -> None:
    try:
        old, old_problems = row_path(rows)
    except OverflowError:  # an int past a double: the row path raises; so must the columns
        try:
            column_path(rows)
        except OverflowError:
            return
        raise AssertionError("the column path took an int the row path cannot") from None
    new, new_problems = column_path(rows)
    assert_same(old, new)
    assert old_problems.events() == new_problems.events()


def test_many_rows_of_one_shape_in_any_step_order() -> None:
    rows = [(step % 97, {"loss": step * 0.5, "reward": None if step % 7 else float("nan"), "completion_length": 3,
                         "completions/mean_length": None if step % 3 else 4.0}, "") for step in range(1000)]
    old, _ = row_path(rows)
    new, _ = column_path(rows)
    assert_same(old, new)


def test_trainer_logs_skip_their_step_and_keep_only_eval_keys_of_an_eval_row() -> None:
    entries = [{"loss": 1.0, "reward": 0.5, "step": 1, "epoch": 0.1},
               {"eval_loss": 0.7, "epoch": 0.1, "step": 1},
               {"loss": 2.0, "reward": 0.6, "step": 2, "epoch": 0.2}]
    run = ImportedRun(source="x", format="trainer")
    add_trainer_logs(run, entries, "log entry")
    table = run.step_table.to_pydict()
    assert table["step"] == [1, 2]
    assert table["eval_loss"] == [0.7, None] and table["epoch"] == [0.1, 0.2]
    assert run.steps_with("eval_") == {1} and run.steps_with() == {1, 2}
