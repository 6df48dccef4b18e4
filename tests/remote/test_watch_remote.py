"""``rlprobe watch`` on a log in object storage (a job syncing its console log or its
TensorBoard dir to S3): followed through a local copy that fetches only what changed, as a
local log is followed."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rlprobe.doctor import RunView
from rlprobe.doctor.live import RunWatcher
from rlprobe.storage.location import filesystem

RLPROBE = str(Path(sys.executable).with_name("rlprobe"))


def _put(url: str, data: bytes) -> None:
    fs, path = filesystem(url)
    with fs.open_output_stream(path) as out:
        out.write(data)


def _lines(first: int, last: int) -> bytes:
    return "".join(json.dumps({"step": s, "data": {"actor/kl_loss": (0.01 if s < 150 else 2.0) * (1 + 0.01 * (s % 7)),
                                                   "critic/score/mean": 0.5}}) + "\n"
                   for s in range(first, last)).encode()


def test_a_log_synced_to_s3_is_followed_as_it_grows(bucket: str, tmp_path: Path) -> None:
    url = f"{bucket}/jobs/verl.jsonl"
    watcher = RunWatcher(url)
    assert watcher.tick() == [] and watcher.view is None  # nothing there yet: waiting
    data = _lines(1, 201) + b'{"step": 201, "da'  # the last sync caught a line half-written
    for end in range(len(data) // 9, len(data) + 1, len(data) // 9):
        _put(url, data[:end])  # the job's sync replaces the object with the longer log
        watcher.tick()
    _put(url, data)
    watcher.tick()
    local = tmp_path / "verl.jsonl"
    local.write_bytes(data)
    view = watcher.view
    assert view is not None and view.step.tolist() == list(range(1, 201))
    assert view.steps.drop("time").equals(RunView.load(local).steps.drop("time"))
    assert any(f.signature_id == "KL_BLOWUP" and f.severity == "critical" for f in watcher.reported)


def test_a_tensorboard_prefix_is_followed_without_copying_model_weights(bucket: str, tmp_path: Path,
                                                                      s3_env: dict[str, str]) -> None:
    from tensorboardX import SummaryWriter

    folder = tmp_path / "tb" / "Dec01_host"
    writer = SummaryWriter(str(folder))
    for step in range(1, 61):
        writer.add_scalar("train/kl", (0.01 if step < 40 else 2.0) * (1 + 0.01 * (step % 5)), step)
        writer.add_scalar("train/reward", 0.5, step)
    for key in ("train_runtime", "train_loss", "total_flos"):
        writer.add_scalar(f"train/{key}", 1.0, 60)
    writer.close()
    events = next(folder.iterdir())
    prefix = f"{bucket}/out/runs"
    _put(f"{prefix}/Dec01_host/model.safetensors", b"\0" * 1000)  # weights beside the log: never fetched
    data = events.read_bytes()
    for end in (len(data) // 3, 2 * len(data) // 3, len(data)):
        _put(f"{prefix}/Dec01_host/{events.name}", data[:end])
        # --keep-watching: on to the run's end, past the critical finding the whole log holds
        done = subprocess.run([RLPROBE, "watch", prefix, "--poll", "0", "--max-ticks", "10", "--keep-watching"],
                              env=s3_env, capture_output=True, text=True, timeout=120)
        assert done.returncode in (0, 1), done.stderr
    assert done.returncode == 1 and "CRITICAL KL_BLOWUP" in done.stdout
    assert "done after 2 look(s)" in done.stdout  # ended on the Trainer's summary scalars, one look after
    copies = [p.name for p in Path(s3_env["RLPROBE_CACHE_DIR"]).rglob("*") if p.is_file()]
    assert events.name in copies and "model.safetensors" not in copies


def test_a_url_with_nothing_there_yet_is_waited_for(bucket: str, s3_env: dict[str, str]) -> None:
    done = subprocess.run([RLPROBE, "watch", f"{bucket}/nothing/yet.out", "--poll", "0", "--max-ticks", "2"],
                          env=s3_env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "done after 2 look(s); no findings" in done.stdout, done.stderr
    assert "waiting for a recording or a log" in done.stderr


def test_pull_objects_fetches_a_grown_log_from_where_its_copy_ends(bucket: str, tmp_path: Path) -> None:
    from rlprobe.storage.location import pull_objects

    _put(f"{bucket}/job/job.out", b"line 1\n")
    _put(f"{bucket}/job/trainer_state.json", b'{"log_history": []}')
    copy = pull_objects(f"{bucket}/job", tmp_path / "copy")
    log, state = copy / "job.out", copy / "trainer_state.json"
    assert log.read_bytes() == b"line 1\n"
    # Marks in the copies: a refetch of the whole object would wipe them.
    log.write_bytes(b"LINE 1\n")
    state.write_bytes(b'{"log_history": [1]}')
    _put(f"{bucket}/job/job.out", b"line 1\nline 2\n")
    _put(f"{bucket}/job/trainer_state.json", b'{"log_history": [{"loss": 1}]}')
    assert pull_objects(f"{bucket}/job", tmp_path / "copy") == copy
    assert log.read_bytes() == b"LINE 1\nline 2\n"  # only the 7 new bytes came
    assert state.read_bytes() == b'{"log_history": [{"loss": 1}]}'  # rewritten whole: fetched whole
    assert pull_objects(f"{bucket}/job/job.out", tmp_path / "one") == tmp_path / "one" / "job.out"
