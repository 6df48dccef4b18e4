"""Disk full, read-only, directory gone: no exception reaches training, one warning, a
counter, and recording resumes when the storage does.

Real failures where this machine allows them: a tiny tmpfs filled up, and one remounted
read-only, each inside a private mount namespace (``unshare -m``; skipped where mounting
is not permitted). Everywhere else: the same failures injected where rlprobe meets the OS
(every file it opens under the run directory fails with ENOSPC/EROFS). Read-only by
``chmod`` proves nothing when the tests run as root, so it is not used.
"""
from __future__ import annotations

import builtins
import errno
import json
import os
import shutil
import subprocess
import warnings
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from corekit import events_of, steps_of

import rlprobe.storage.manifest as manifest_module
from rlprobe import RlprobeWarning
from rlprobe.storage import RunReader, load_manifest


def _rlprobe_warnings(recwarn: pytest.WarningsRecorder) -> list[str]:
    return [str(w.message) for w in recwarn if issubclass(w.category, RlprobeWarning)]


class FaultyDisk:
    """While ``failing`` is set, every file rlprobe opens under ``root`` fails with it."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root = str(root)
        self.failing: int | None = None
        real_open, real_os_open, real_writer = builtins.open, os.open, pq.ParquetWriter
        disk = self

        def check(path: object) -> None:
            if disk.failing is not None and str(path).startswith(disk.root):
                raise OSError(disk.failing, os.strerror(disk.failing), str(path))

        def fake_open(path, *args, **kwargs):
            check(path)
            return real_open(path, *args, **kwargs)

        def fake_os_open(path, *args, **kwargs):
            check(path)
            return real_os_open(path, *args, **kwargs)

        class FakeWriter(real_writer):  # type: ignore[misc, valid-type]
            def __init__(self, where, *args, **kwargs):
                check(where)
                super().__init__(where, *args, **kwargs)

        monkeypatch.setattr(manifest_module, "open", fake_open, raising=False)
        monkeypatch.setattr(os, "open", fake_os_open)
        monkeypatch.setattr(pq, "ParquetWriter", FakeWriter)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS], ids=["ENOSPC", "EROFS"])
def test_injected_write_failures_cost_one_warning_and_a_counter(make_recorder, run_dir: Path, recwarn,
                                                                monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    disk = FaultyDisk(run_dir, monkeypatch)
    rec = make_recorder(flush_interval_s=60)
    for step in range(50):
        rec.log_step(step, loss=1.0)
    assert rec.flush(10)

    disk.failing = code
    for step in range(50, 150):
        rec.log_step(step, loss=2.0)
        rec.log_samples(step, [{"completion": "c", "reward": 1.0}], select=False)
    rec.log_event("while_failing", message="never raises")
    assert rec.flush(10) is False
    assert rec.flush(10) is False
    assert rec.storage_errors >= 3

    disk.failing = None
    assert rec.flush(10)
    rec.close()
    warned = _rlprobe_warnings(recwarn)
    assert len(warned) == 1 and os.strerror(code) in warned[0]
    assert steps_of(run_dir) == list(range(150)), "the backlog kept in memory is written once the disk heals"
    assert RunReader(run_dir).samples().num_rows == 100
    manifest = load_manifest(run_dir)
    assert manifest["status"] == "finished"
    assert manifest["counts"]["storage_errors"] == rec.storage_errors
    [event] = events_of(run_dir, "while_failing")
    assert event["message"] == "never raises", "an event logged while storage fails is written once it heals"
    assert not [p for p in run_dir.rglob("*.tmp")], "failed writes leave no temp files"


def test_backlog_is_bounded_and_what_overflows_is_counted_lost(make_recorder, run_dir: Path, recwarn,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    disk = FaultyDisk(run_dir, monkeypatch)
    rec = make_recorder(queue_size=50, flush_interval_s=60)
    disk.failing = errno.ENOSPC
    for round_ in range(6):
        for i in range(50):
            rec.log_step(round_ * 50 + i, loss=1.0)
        assert rec.flush(10) is False
    assert rec.lost == 100, "the backlog holds 4 × queue_size rows; the oldest beyond that are lost"
    disk.failing = None
    rec.close()
    assert steps_of(run_dir) == list(range(100, 300))
    assert load_manifest(run_dir)["counts"]["lost"] == 100
    assert len(_rlprobe_warnings(recwarn)) == 1


def test_run_directory_deleted_mid_run_is_recreated(make_recorder, run_dir: Path, recwarn) -> None:
    rec = make_recorder(flush_interval_s=60)
    for step in range(50):
        rec.log_step(step, loss=1.0)
    assert rec.flush(10)
    shutil.rmtree(run_dir)
    rec.log_event("while_gone", message="never raises")
    for step in range(50, 100):
        rec.log_step(step, loss=1.0)
    assert rec.flush(10)
    rec.close()
    assert steps_of(run_dir) == list(range(50, 100))
    manifest = load_manifest(run_dir)
    assert manifest["status"] == "finished" and manifest["counts"]["storage_errors"] >= 1
    assert events_of(run_dir, "storage_error")
    assert len(_rlprobe_warnings(recwarn)) == 1


def test_unusable_run_dir_from_the_start_recovers_when_it_becomes_usable(make_recorder, tmp_path: Path,
                                                                         recwarn) -> None:
    blocker = tmp_path / "blocked"
    blocker.write_text("a file where the run directory should be")
    run = blocker / "run"
    rec = make_recorder(run, flush_interval_s=60)
    assert rec.active
    rec.log_step(0, loss=1.0)
    rec.log_event("early", message="never raises")
    assert rec.flush(5) is False
    blocker.unlink()
    rec.log_step(1, loss=1.0)
    assert rec.flush(10)
    rec.close()
    assert steps_of(run) == [0, 1]
    assert load_manifest(run)["status"] == "finished"
    assert len(_rlprobe_warnings(recwarn)) == 1


@pytest.fixture(scope="module")
def can_mount(tmp_path_factory: pytest.TempPathFactory) -> bool:
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = tmp_path_factory.mktemp("mount-probe")
    done = subprocess.run(["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o size=64k tmpfs {probe}"],
                          capture_output=True)
    return done.returncode == 0


@pytest.mark.parametrize("trouble", ["full", "read-only"])
def test_real_full_and_read_only_filesystems(tmp_path: Path, child, can_mount: bool, trouble: str) -> None:
    if not can_mount:
        pytest.skip("mounting a tmpfs in a private mount namespace is not permitted here")
    mount_point = tmp_path / "mnt"
    mount_point.mkdir()
    out = tmp_path / "copied-run"
    c = child("storage_trouble", str(mount_point), trouble, str(out), prefix=["unshare", "-m"])
    assert c.wait(60) == 0, c.stderr()
    c.read_available()
    summary = json.loads(c.lines[-1])
    assert summary["errors"] == []
    assert summary["flush_before"] is True
    assert summary["flush_during"] is False and summary["flush_during_again"] is False
    assert summary["flush_after"] is True
    if trouble == "full":
        assert summary["filler_errno"] == "ENOSPC"
    assert len(summary["warnings"]) == 1
    assert ("No space left" if trouble == "full" else "Read-only file system") in summary["warnings"][0]
    assert summary["storage_errors"] >= 2 and summary["lost"] == 0
    assert steps_of(out) == list(range(300))
    assert RunReader(out).samples().num_rows == 200
    manifest = load_manifest(out)
    assert manifest["status"] == "finished" and manifest["counts"]["storage_errors"] == summary["storage_errors"]
    for line in (out / "events.jsonl").read_text().splitlines():
        json.loads(line)


def test_warnings_are_rlprobe_warnings() -> None:
    assert issubclass(RlprobeWarning, RuntimeWarning)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RlprobeWarning)
        with pytest.raises(RlprobeWarning):
            warnings.warn("x", RlprobeWarning, stacklevel=1)
