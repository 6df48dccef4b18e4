"""``storage.atomic``: the one way rlprobe replaces a file (manifest, Parquet files, remote
copies), and the temp files a killed writer leaves, swept by whoever compacts next."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rlprobe.storage import load_manifest
from rlprobe.storage.atomic import atomic_path
from rlprobe.storage.writer import compact_run


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "manifest.json"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("disk gone")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["manifest.json"]


@pytest.mark.parametrize("durable", [True, False])
def test_a_finished_write_replaces_the_file(tmp_path: Path, durable: bool) -> None:
    target = tmp_path / "state.json"
    target.write_text("old")
    with atomic_path(target, durable=durable) as tmp:
        assert tmp.parent == tmp_path and tmp.name.startswith(".state.json.") and tmp.name.endswith(".tmp")
        tmp.write_text("new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_temp_files_of_dead_writers_are_swept_and_a_live_one_s_kept(make_recorder, run_dir: Path) -> None:
    rec = make_recorder()
    rec.log_step(1, reward=1.0)
    rec.close()
    dead = _dead_pid()
    leftovers = [f".manifest.json.{dead}.140213.tmp",  # this version: pid and thread
                 f".steps.parquet.{dead}.tmp"]          # earlier versions: pid only
    alive = f".samples.parquet.{os.getppid()}.7.tmp"  # pytest's parent is running
    for name in [*leftovers, alive]:
        (run_dir / name).write_bytes(b"torn")
    compact_run(run_dir)
    assert sorted(p.name for p in run_dir.iterdir() if p.name.endswith(".tmp")) == [alive]
    assert load_manifest(run_dir)["status"] == "finished"
