"""The doctor's findings on every run it is tested on equal the snapshot
(``tests/fixtures/findings_snapshot.json``): a refactor moves nothing, and a change of behaviour
is accepted on purpose with ``python tests/doctor/snapshot.py --write`` (see ``snapshot.py``)."""
from __future__ import annotations

import json
import os

import pytest
import snapshot

SOURCES = ("matrix", "sim", "realruns", "realworld")


@pytest.fixture(scope="module")
def recorded() -> dict[str, list]:
    return json.loads(snapshot.SNAPSHOT.read_text())


def test_the_snapshot_covers_every_source(recorded: dict[str, list]):
    names = set(snapshot.cases())
    for source in SOURCES:
        assert any(name.startswith(source + "/") for name in recorded), source
    missing = sorted(set(recorded) - names)
    if os.environ.get("CI"):
        assert not missing, f"cases in the snapshot that no longer run: {missing[:10]}"
    unrecorded = sorted(names - set(recorded))
    assert not unrecorded, f"cases the snapshot lacks (run snapshot.py --write): {unrecorded[:10]}"


@pytest.mark.parametrize("source", SOURCES)
def test_findings_equal_the_snapshot(source: str, recorded: dict[str, list]):
    jobs = {name: job for name, job in snapshot.cases().items() if name.startswith(source + "/")}
    today = {name: snapshot.run_case(job) for name, job in jobs.items()}
    moved = snapshot.moves(recorded, today)
    assert not moved, f"{len(moved)} case(s) moved; accept on purpose with snapshot.py --write:\n" + "\n".join(moved)
