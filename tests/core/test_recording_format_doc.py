"""docs/recording-format.md stays true: its tables are checked against the code and a real run."""
from __future__ import annotations

import re
from pathlib import Path

from rlprobe import EventKind
from rlprobe.records import METRIC_ALIASES, STEP_FIELDS, TRAINER_SUMMARY_KEYS
from rlprobe.storage import RunStatus, load_manifest

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


def test_the_status_paragraph_names_every_run_status() -> None:
    paragraph = DOC[DOC.index("`status` is `running` until"):]
    paragraph = paragraph[:paragraph.index("\n\n")]
    statuses = {value for name, value in vars(RunStatus).items() if name.isupper()}
    assert statuses <= set(re.findall(r"`([a-z]+)`", paragraph))


def test_the_train_summary_row_lists_the_trainer_summary_keys() -> None:
    [row] = [line for line in _section("## `events.jsonl`").splitlines() if line.startswith("| `train_summary` |")]
    listed = set(re.findall(r"`([^`]+)`", row.split("|")[3]))
    assert TRAINER_SUMMARY_KEYS <= listed and "train_mem_*" in listed


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


def test_limits_quoted_in_the_doc_are_the_code_s() -> None:
    import rlprobe.cleaning as cleaning
    import rlprobe.recorder as recorder
    from rlprobe.storage import writer

    quoted = {
        f"{recorder._MAX_BUFFERED_STEPS:,} steps".replace(",", " "): "_MAX_BUFFERED_STEPS",
        f"{recorder._MAX_BUFFERED_CHARS // 2**20} MiB of sample text": "_MAX_BUFFERED_CHARS",
        f"every {recorder._COMPACT_AFTER_PARTS} parts": "_COMPACT_AFTER_PARTS",
        f"{recorder._SAMPLES_PER_FLUSH} samples": "_SAMPLES_PER_FLUSH",
        f"at least {recorder._MIN_PART_INTERVAL_S} s": "_MIN_PART_INTERVAL_S",
        f"waits up to {recorder._ENV_WAIT_S:g} s": "_ENV_WAIT_S",
        f"{4 * recorder._SAMPLES_PER_FLUSH} samples": "backlog bound",
        f"{recorder._MAX_PENDING_EVENTS} events": "_MAX_PENDING_EVENTS",
        f"up to {recorder._MAX_PENDING_EVENTS}, the oldest": "_MAX_PENDING_EVENTS (events section)",
        f"{cleaning.MAX_TEXT_CHARS:,} characters".replace(",", " "): "MAX_TEXT_CHARS",
        f"longer than {cleaning.MAX_NAME_CHARS} characters": "MAX_NAME_CHARS",
        f"up to {cleaning.MAX_DEPTH} levels": "MAX_DEPTH",
        f"at most {writer._ROW_GROUP:,} rows".replace(",", " "): "_ROW_GROUP",
        f"row groups of {writer._ROW_GROUP:,}".replace(",", " "): "_ROW_GROUP (compaction)",
        f"data passes {writer._ROW_GROUP_BYTES // 2**20} MiB": "_ROW_GROUP_BYTES",
    }
    missing = {name: text for text, name in quoted.items() if text not in DOC}
    assert missing == {}
