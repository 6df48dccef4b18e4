"""docs/recording-format.md stays true: its tables are checked against the code and a real run."""
from __future__ import annotations

import re
from pathlib import Path

from rlprobe import EventKind
from rlprobe.records import METRIC_ALIASES, STEP_FIELDS
from rlprobe.storage import load_manifest

DOC = (Path(__file__).resolve().parents[2] / "docs" / "recording-format.md").read_text()


def _section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end if end != -1 else None]


def _first_column(section: str, header: str) -> list[str]:
    """Backticked names in the first column of the table whose header row starts with ``header``."""
    table = section[section.index(f"| {header} |"):]
    names = []
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        names += re.findall(r"`([^`]+)`", line.split("|")[1])
    return names


def test_manifest_and_counts_tables_match_a_real_manifest(make_recorder, run_dir: Path) -> None:
    make_recorder().close()
    manifest = load_manifest(run_dir)
    section = _section("## `manifest.json`")
    assert set(_first_column(section, "key | type")) == set(manifest)
    assert set(_first_column(section, "key | meaning")) == set(manifest["counts"])


def test_event_kinds_table_lists_every_kind_rlprobe_writes() -> None:
    kinds = {value for name, value in vars(EventKind).items() if name.isupper()}
    assert set(_first_column(_section("## `events.jsonl`"), "kind")) == kinds


def test_known_fields_and_aliases_match_the_code() -> None:
    section = _section("## The steps table")
    listed = section[section.index("Known fields, in column order:"):section.index("(the fields of")]
    assert tuple(re.findall(r"`([^`]+)`", listed)) == STEP_FIELDS
    table = section[section.index("| logged as | stored as |"):]
    aliases = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        logged, stored = re.findall(r"`([^`]+)`", line)
        aliases[logged] = stored
    assert aliases == METRIC_ALIASES
