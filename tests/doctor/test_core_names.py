"""The doctor reads core's data model by its own names (issue 20): the metrics the facts and
detectors look for are the recording's columns, never a trainer's spelling that core already
folds into one (``METRIC_ALIASES``), and the sample columns it names are the sample schema's."""
from __future__ import annotations

import importlib
import pkgutil

import pytest

import rlprobe.doctor.detectors as detectors
import rlprobe.doctor.facts as facts
from rlprobe.records import SAMPLE_KINDS, canonical_metric
from rlprobe.storage.schema import SAMPLE_TYPES

_MODULES = [f"{package.__name__}.{info.name}" for package in (facts, detectors)
            for info in pkgutil.iter_modules(package.__path__)]


@pytest.mark.parametrize("name", _MODULES)
def test_metric_lists_name_columns_not_aliases(name: str) -> None:
    """A ``*_METRICS`` list is looked up in order on a view whose columns core has already
    named: an alias there would never be found (``RunView.has`` reads it as its column)."""
    module = importlib.import_module(name)
    lists = {key: value for key, value in vars(module).items() if key.endswith("_METRICS")}
    aliases = {key: [m for m in value if canonical_metric(m) != m] for key, value in lists.items()}
    assert {key: found for key, found in aliases.items() if found} == {}


def test_non_finite_sample_fields_are_the_schema_s_floats_but_the_reward() -> None:
    from rlprobe.doctor.detectors.recording import _SAMPLE_FLOATS

    floats = [name for name, kind in SAMPLE_KINDS.items() if kind == "float"]
    assert list(_SAMPLE_FLOATS) == [name for name in floats if name != "reward"]


def test_sample_columns_the_doctor_names_are_the_schema_s() -> None:
    from rlprobe.doctor.forensics import SORT_KEYS
    from rlprobe.doctor.report.samples import _COLUMNS

    assert {SAMPLE_KINDS[key] for key in SORT_KEYS} <= {"float", "int"}  # each a number the schema stores
    derived = {"step", "share"}  # the row's step; a spike driver's share of the step's sum of |advantage|
    assert set(_COLUMNS) - derived <= set(SAMPLE_TYPES)
