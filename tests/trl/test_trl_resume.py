"""A real TRL GRPO run, SIGKILLed mid-run and resumed from its checkpoint into the same run
directory, ends with every step once and nothing the doctor calls a gap (issue 18, item 2):
the steps a kill cost the recording up to the checkpoint come back from the checkpoint's log
history, marked restored; where the recording is ahead of the checkpoint, the later session
supersedes from its first step, as before."""
from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from rlprobe.storage import RunReader

HERE = Path(__file__).resolve().parent
RLPROBE = str(Path(sys.executable).parent / "rlprobe")


def _session(root: Path, model_dir: Path, *args: str, hang_at: int | None = None) -> None:
    """One ``resume_run.py`` session; with ``hang_at``, SIGKILLed once it has logged that step."""
    command = [sys.executable, str(HERE / "resume_run.py"), str(root), str(model_dir), *args]
    if hang_at is None:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        return
    proc = subprocess.Popen([*command, "--hang-at", str(hang_at)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        for line in proc.stdout:
            if line.split() == ["logged", str(hang_at)]:
                proc.send_signal(signal.SIGKILL)
                break
        assert proc.wait(60) == -signal.SIGKILL, "the session ended before it was killed"
    finally:
        proc.kill()
        proc.stdout.close()


def _listed(run: Path) -> dict:
    done = subprocess.run([RLPROBE, "ls", str(run), "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    [row] = json.loads(done.stdout)
    return row


def _assert_listed_as_killed_once_silent(run: Path, copy: Path) -> None:
    """``ls`` of a SIGKILLed run: ``running`` while its heartbeat (the manifest's
    ``updated_at``, rewritten at every flush) is fresh, ``killed?`` once it is stale, as an
    hour later (a copy, its heartbeat moved back an hour)."""
    assert _listed(run)["status"] == "running" and _listed(run)["killed"] is False
    shutil.copytree(run, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["updated_at"] -= 3600
    (copy / "manifest.json").write_text(json.dumps(manifest))
    assert _listed(copy)["status"] == "running" and _listed(copy)["killed"] is True
    table = subprocess.run([RLPROBE, "ls", str(copy)], capture_output=True, text=True, timeout=120).stdout
    assert "killed?" in table, table


def _steps(run: Path) -> list[int]:
    return RunReader(run).steps().column("step").to_pylist()


def test_a_killed_run_resumed_from_its_checkpoint_has_every_step_once(tiny_model_dir: Path, tmp_path: Path) -> None:
    run, checkpoint = tmp_path / "run", str(tmp_path / "out" / "checkpoint-20")

    # Killed at step 25, with steps 1-10 on disk: 11-25 lost; its checkpoint is at step 20.
    _session(tmp_path, tiny_model_dir, "--flush-at", "10", hang_at=25)
    assert _steps(run) == list(range(1, 11))
    _assert_listed_as_killed_once_silent(run, tmp_path / "killed-copy")

    # Resumed from step 20: 11-20 restored from the checkpoint's log history; killed at 30
    # with 1-25 on disk.
    _session(tmp_path, tiny_model_dir, "--resume", checkpoint, "--flush-at", "25", hang_at=30)
    assert _steps(run) == list(range(1, 26))
    [restored] = [e for e in RunReader(run).events() if e["kind"] == "steps_restored"]
    assert restored["data"]["from_step"] == 11 and restored["data"]["to_step"] == 20
    assert restored["data"]["count"] == 10 and restored["data"]["resume_step"] == 20
    assert restored["data"]["source"] == f"{checkpoint}/trainer_state.json"
    rows = RunReader(run).steps().to_pylist()
    history = json.loads(Path(checkpoint, "trainer_state.json").read_text())["log_history"]
    for row in rows[10:20]:  # restored: the values the trainer logged, no time (unknown)
        logged = next(entry for entry in history if entry["step"] == row["step"])
        assert row["time"] is None
        assert row["loss"] == logged["loss"] and row["reward_mean"] == logged["reward"]
    assert all(row["time"] is not None for row in rows[:10] + rows[20:])

    # Resumed from step 20 again, the recording now ahead of it: nothing restored, the new
    # session supersedes 21-25 and runs to the end.
    _session(tmp_path, tiny_model_dir, "--resume", checkpoint)
    reader = RunReader(run)
    assert _steps(run) == list(range(1, 41))
    events = reader.events()
    assert len([e for e in events if e["kind"] == "steps_restored"]) == 1
    resumed = [(e["step"], e["data"]["superseded_steps"]) for e in events if e["kind"] == "run_resumed"]
    assert resumed == [(11, 0), (21, 5)]
    assert reader.manifest["status"] == "finished" and reader.manifest["counts"]["steps"] == 40

    done = subprocess.run([RLPROBE, "doctor", str(run), "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    assert "RECORDING_GAPS" not in {f["signature_id"] for f in json.loads(done.stdout)}
