"""Following foreign sources while they are written (``rlprobe watch`` on a log): each look
reads only what is new, a record still being written waits for the next look, nothing is
lost or read twice, a log that stops growing is RUN_STALLED, and ``--on-critical`` acts
once, and a failing command never stops the watch (how a watch ends: test_watch_endings.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import polars as pl
import pytest
from sourcekit import realworld_log

from rlprobe.doctor import RunView
from rlprobe.doctor.live import RunWatcher, SourceMirror
from rlprobe.storage import RunReader

RLPROBE = str(Path(sys.executable).with_name("rlprobe"))

#: A verl file logger in its own process: each record written in two halves, flushed between,
#: so looks land inside records; then a last record cut short (the writer killed mid-line).
VERL_WRITER = textwrap.dedent("""
    import json, sys, time
    with open(sys.argv[1], "ab", buffering=0) as out:
        for step in range(1, int(sys.argv[2]) + 1):
            kl = 0.01 if step < 120 else 2.0
            line = json.dumps({"step": step, "elapsed_seconds": step * 0.1,
                               "data": {"actor/kl_loss": kl * (1 + 0.01 * (step % 7)), "critic/score/mean": 0.5,
                                        "actor/entropy": 1.0 + 0.001 * step}}).encode() + b"\\n"
            out.write(line[:len(line) // 2]); time.sleep(0.002)
            out.write(line[len(line) // 2:]); time.sleep(0.002)
        out.write(b'{"step": 999, "da')
""")


def _steps(view: RunView) -> pl.DataFrame:
    """The metrics a view holds, without the read-time clock a followed source adds."""
    return view.steps.drop([c for c in ("time",) if c in view.steps.columns]).select(sorted(
        c for c in view.steps.columns if c != "time" and view.steps[c].null_count() < view.steps.height))


def test_a_verl_log_appended_record_by_record_loses_nothing_and_reads_nothing_twice(tmp_path: Path) -> None:
    log = tmp_path / "verl.jsonl"
    log.touch()
    watcher = RunWatcher(log)
    writer = subprocess.Popen([sys.executable, "-c", VERL_WRITER, str(log), "200"])
    looks = 0
    while writer.poll() is None:
        watcher.tick()
        looks += 1
    assert writer.returncode == 0
    watcher.tick()
    assert looks > 10, "the looks must have landed while the log grew"
    view = watcher.view
    assert view is not None
    assert view.step.tolist() == list(range(1, 201))  # the torn step-999 record waits, it is no error
    raw = RunReader(view.run_dir).steps()
    assert raw.num_rows == 200, "each record is read exactly once"
    assert not [e for e in view.events if e.get("kind") == "bad_record"]
    whole = RunView.load(log)  # the log read whole, as `rlprobe doctor` reads it
    assert _steps(view).equals(_steps(whole))
    assert view.manifest["status"] == "running"  # verl's file logger writes no end
    kl = [f for f in watcher.reported if f.signature_id == "KL_BLOWUP"]
    assert kl and kl[0].severity == "critical"


def test_a_record_cut_short_waits_for_its_end(tmp_path: Path) -> None:
    log = tmp_path / "verl.jsonl"
    records = [json.dumps({"step": s, "data": {"critic/score/mean": 0.1 * s}}) + "\n" for s in range(1, 4)]
    log.write_text(records[0] + records[1][:10])
    mirror = SourceMirror(log)
    mirror.update()
    assert RunReader(mirror.run_dir).steps().column("step").to_pylist() == [1]
    with open(log, "a") as fh:
        fh.write(records[1][10:] + records[2][:-1])  # step 2 ends; step 3 lacks only its newline
    mirror.update()
    assert RunReader(mirror.run_dir).steps().column("step").to_pylist() == [1, 2]
    with open(log, "a") as fh:
        fh.write("\n" + "not json\n")
    mirror.update()
    reader = RunReader(mirror.run_dir)
    assert reader.steps().column("step").to_pylist() == [1, 2, 3]
    bad = [e for e in reader.events() if e["kind"] == "bad_record"]
    assert len(bad) == 1 and "line 4" in bad[0]["message"]  # a whole line that is no record: noted, not fatal


@pytest.mark.parametrize("name", ["verl-ppo-qwen05b-gsm8k", "unlearning-grpo-8b"])
def test_a_published_console_log_followed_in_torn_chunks_reads_as_the_whole_log(tmp_path: Path, name: str) -> None:
    source = realworld_log(name)
    data = source.read_bytes()
    log = tmp_path / source.name
    log.write_bytes(b"")
    watcher = RunWatcher(log)  # waits while the log holds nothing it recognises yet
    chunk = len(data) // 37 + 1  # chunk ends fall mid-line
    for start in range(0, len(data), chunk):
        with open(log, "ab") as fh:
            fh.write(data[start:start + chunk])
        watcher.tick()
    followed = watcher.view
    assert followed is not None
    whole = RunView.load(source)
    assert _steps(followed).equals(_steps(whole))
    assert followed.manifest["status"] == "finished"  # the Trainer's summary / verl's final line


STALL_WRITER = textwrap.dedent("""
    import sys, time
    with open(sys.argv[1], "a", buffering=1) as out:
        for step in range(1, 21):
            out.write(f"step:{step} - critic/score/mean:{0.5 + step * 0.001:.3f} - actor/entropy:1.000\\n")
            time.sleep(0.15)
""")


def test_a_log_that_stops_growing_is_run_stalled_within_the_stall_window_plus_one_poll(tmp_path: Path) -> None:
    log = tmp_path / "job.out"
    config = tmp_path / "doctor.toml"
    stall_s, poll = 3.0, 0.5
    config.write_text(f"[run_stalled]\nmin_stall_s = {stall_s}\nfactor = 1.0\n")
    watch = subprocess.Popen([RLPROBE, "watch", str(log), "--poll", str(poll), "--config", str(config)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(0.5)
        writer = subprocess.run([sys.executable, "-c", STALL_WRITER, str(log)], timeout=60)
        assert writer.returncode == 0
        last_write = log.stat().st_mtime
        assert watch.stdout is not None
        seen_at = None
        deadline = time.time() + 30
        while time.time() < deadline:
            line = watch.stdout.readline()
            if "RUN_STALLED" in line:
                seen_at = time.time()
                break
        assert seen_at is not None, "RUN_STALLED never came"
        # Reported once the silence passed the window, at the first look after it.
        assert stall_s <= seen_at - last_write <= stall_s + poll + 1.5, seen_at - last_write
        watch.wait(timeout=30)  # and the watch ends by itself on it
        out = line + watch.stdout.read()
    finally:
        if watch.poll() is None:
            watch.kill()
    assert "done after" in out and "RUN_STALLED" in out
    assert watch.returncode == 3  # a stall, not a critical finding (tests/sources/test_watch_endings.py)


def _critical_jsonl(path: Path) -> None:
    path.write_text("".join(json.dumps({"step": s, "data": {"actor/kl_loss": (0.01 if s < 150 else 2.0)
                                                            * (1 + 0.01 * (s % 7)), "critic/score/mean": 0.5}})
                            + "\n" for s in range(1, 201)))


def test_a_failing_on_critical_command_is_reported_and_the_watch_goes_on(tmp_path: Path) -> None:
    log = tmp_path / "verl.jsonl"
    _critical_jsonl(log)
    stop = tmp_path / "STOP"
    done = subprocess.run([RLPROBE, "watch", str(log), "--poll", "0.05", "--max-ticks", "4", "--keep-watching",
                           "--on-critical", "echo cannot cancel >&2; exit 7", "--on-critical-file", str(stop)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "ran for CRITICAL KL_BLOWUP (from step 150): exit code 7" in done.stdout
    assert "  | cannot cancel" in done.stdout
    assert "done after 4 look(s)" in done.stdout  # the watch went on to --max-ticks (--keep-watching)
    finding = json.loads(stop.read_text())
    assert finding["signature_id"] == "KL_BLOWUP" and finding["run"] == str(log)
    assert done.stdout.count("--on-critical ") == 1 and done.stdout.count("--on-critical-file ") == 1


def test_a_command_that_cannot_start_is_reported_not_fatal(tmp_path: Path) -> None:
    log = tmp_path / "verl.jsonl"
    _critical_jsonl(log)
    done = subprocess.run([RLPROBE, "watch", str(log), "--poll", "0.05", "--max-ticks", "2",
                           "--on-critical", "/nonexistent/scancel 1234",
                           "--on-critical-file", str(tmp_path / "no" / "such" / "dir" / "STOP")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "exit code 127" in done.stdout  # sh: not found
    assert "--on-critical-file" in done.stdout and "cannot write" in done.stdout
    assert "Traceback" not in done.stderr


def _replay(original: Path, copy: Path, chunk: int) -> RunWatcher:
    """Write ``original``'s bytes into ``copy`` ``chunk`` bytes at a time, a watcher ticking
    after each write, so its looks land inside records."""
    copy.parent.mkdir(parents=True, exist_ok=True)
    data = original.read_bytes()
    copy.write_bytes(b"")
    watcher = RunWatcher(copy.parent if copy.parent.name != "." else copy)
    for start in range(0, len(data), chunk):
        with open(copy, "ab") as fh:
            fh.write(data[start:start + chunk])
        watcher.tick()
    return watcher


def test_a_tensorboard_log_followed_through_torn_records_reads_as_the_whole_log(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    folder = tmp_path / "written" / "runs" / "Dec01_host"
    writer = SummaryWriter(str(folder))
    writer.add_text("args", json.dumps({"learning_rate": 0.05, "beta": 0.1, "num_generations": 4}))
    for step in range(1, 61):
        writer.add_scalar("train/kl", (0.01 if step < 40 else 2.0) * (1 + 0.01 * (step % 5)), step)
        writer.add_scalar("train/reward", 0.5, step)
        writer.add_scalar("train/entropy", 1.0 + 0.001 * step, step)
        if step % 20 == 0:
            writer.add_scalar("eval/loss", 0.3, step)
    for key in ("train_runtime", "train_loss", "total_flos"):
        writer.add_scalar(f"train/{key}", 1.0, 60)
    writer.close()
    original = next(folder.iterdir())
    watcher = _replay(original, tmp_path / "live" / "runs" / "Dec01_host" / original.name, chunk=97)
    followed = watcher.view
    assert followed is not None
    assert _steps(followed).equals(_steps(RunView.load(tmp_path / "written")))
    assert followed.manifest["status"] == "finished"  # on the Trainer's summary scalars
    assert followed.manifest["trainer_config"]["num_generations"] == 4
    assert "time" in followed.steps.columns and followed.steps["time"].null_count() == 0  # wall times
    assert [e["kind"] for e in followed.events].count("train_summary") == 1
    assert any(f.signature_id == "KL_BLOWUP" for f in watcher.reported)


def test_a_trainer_output_dir_is_followed_checkpoint_by_checkpoint(tmp_path: Path) -> None:
    state = json.loads(realworld_log("minesweeper-grpo-aaipl").read_text())
    history = state["log_history"]
    out = tmp_path / "out"
    out.mkdir()
    watcher = RunWatcher(out)
    assert watcher.tick() == [] and watcher.view is None  # no checkpoint yet: waiting
    for n in range(5, len(history) + 1, 5):  # the Trainer rewrites the whole state at each checkpoint
        checkpoint = out / f"checkpoint-{history[n - 1]['step']}"
        checkpoint.mkdir()
        text = json.dumps({**state, "log_history": history[:n]})
        (checkpoint / "trainer_state.json").write_text(text[: len(text) // 2])  # caught half-written
        watcher.tick()
        (checkpoint / "trainer_state.json").write_text(text)
        watcher.tick()
        assert watcher.view is not None and watcher.view.n_steps == n
        assert watcher.view.manifest["status"] == "running"
    summary = {"train_runtime": 100.0, "train_loss": 0.1, "total_flos": 0.0, "step": history[-1]["step"]}
    (out / "trainer_state.json").write_text(json.dumps({**state, "log_history": history + [summary]}))
    watcher.tick()
    followed = watcher.view
    assert followed.manifest["status"] == "finished"  # trainer.save_state() wrote the summary
    assert RunReader(followed.run_dir).steps().num_rows == len(history)  # no entry read twice
    assert _steps(followed).equals(_steps(RunView.load(out)))
    assert [e["kind"] for e in followed.events].count("train_summary") == 1


def _follow_writer(source: str, code: str, env: dict[str, str]) -> tuple[RunWatcher, str]:
    """Tick a watcher on ``source`` while ``code`` (a real tracker client) writes it in another
    process, then once more after it exits; the watcher and what the writer said on stderr
    (a client that could not write because of the reader would say so there)."""
    watcher = RunWatcher(source)
    with tempfile.TemporaryFile("w+") as said:
        writer = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, **env},
                                  stdout=subprocess.DEVNULL, stderr=said, text=True)
        looks_with_data = 0
        while writer.poll() is None:
            watcher.tick()
            looks_with_data += watcher.view is not None
            time.sleep(0.05)
        said.seek(0)
        stderr = said.read()[-3000:]
    assert writer.returncode == 0, stderr
    watcher.tick()
    assert looks_with_data > 2, f"the looks must have landed while the run was logged ({looks_with_data}); {stderr}"
    return watcher, stderr


TRACKIO_WRITER = textwrap.dedent("""
    import time, trackio
    trackio.init(project="proj", name="live", config={"beta": 0.04, "model_name_or_path": "tiny/model"})
    for s in range(1, 41):
        trackio.log({"profiling/Time taken: x": 0.1})
        trackio.log({"train/loss": 0.01 * s, "train/reward": 0.5,
                     "train/kl": (0.01 if s < 25 else 2.0) * (1 + s % 3 / 50), "train/global_step": s})
        time.sleep(0.1)
    trackio.log({"train/train_runtime": 3.0, "train/train_loss": 0.2, "train/total_flos": 0.0,
                 "train/global_step": 40})
    trackio.finish()
""")


def test_a_trackio_run_is_followed_by_row_id_while_it_is_logged(tmp_path: Path) -> None:
    db = tmp_path / "trackio" / "proj.db"
    watcher, said = _follow_writer(str(db), TRACKIO_WRITER, {"TRACKIO_DIR": str(db.parent)})
    followed = watcher.view
    assert followed is not None and followed.manifest["status"] == "finished", said  # on the Trainer's summary
    assert RunReader(followed.run_dir).steps().num_rows == 40, said  # each row read once
    assert _steps(followed).equals(_steps(RunView.load(db))), said
    assert followed.manifest["trainer_config"]["beta"] == 0.04 and followed.manifest["model_name"] == "tiny/model"
    assert [e["kind"] for e in followed.events].count("train_summary") == 1


@pytest.mark.parametrize("store", ["file", "sqlite"])
def test_an_mlflow_run_is_followed_while_it_is_logged_and_ends_with_its_status(tmp_path: Path, store: str) -> None:
    uri = (tmp_path / "mlruns").as_uri() if store == "file" else f"sqlite:///{tmp_path / 'mlflow.db'}"
    code = textwrap.dedent(f"""
        import time, mlflow
        mlflow.set_tracking_uri({uri!r})
        mlflow.set_experiment("exp")
        with mlflow.start_run(run_name="live"):
            mlflow.log_params({{"beta": 0.04}})
            for s in range(1, 41):
                mlflow.log_metrics({{"loss": 0.01 * s, "reward": 0.5, "profiling/Time taken: x": 0.1,
                                    "kl": (0.01 if s < 25 else 2.0) * (1 + s % 3 / 50)}}, step=s)
                time.sleep(0.03)
    """)
    source = tmp_path / ("mlruns" if store == "file" else "mlflow.db")
    if store == "sqlite":  # the store's tables, before the watch looks (a watch waits for a store it can read)
        subprocess.run([sys.executable, "-c", f"import mlflow; mlflow.set_tracking_uri({uri!r}); "
                        "mlflow.set_experiment('exp')"], check=True, capture_output=True, timeout=300)
    watcher, said = _follow_writer(str(source), code, {"MLFLOW_ALLOW_FILE_STORE": "true"})
    followed = watcher.view
    assert followed is not None and followed.manifest["status"] == "finished", said  # its status left RUNNING
    assert _steps(followed).equals(_steps(RunView.load(source))), said
    assert followed.manifest["trainer_config"]["beta"] == 0.04
    assert any(f.signature_id == "KL_BLOWUP" for f in watcher.reported)


def test_a_wandb_run_log_followed_through_torn_records_reads_as_the_whole_log(tmp_path: Path) -> None:
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "wandb"
    original = next(fixture.glob("*/run-*.wandb"))
    copy = tmp_path / "wandb" / original.parent.name / original.name
    watcher = _replay(original, copy, chunk=777)
    followed = watcher.view
    assert followed is not None
    whole = RunView.load(original)
    assert _steps(followed).equals(_steps(whole))
    assert followed.manifest["status"] == "finished"  # on the exit record
    assert RunReader(followed.run_dir).steps().num_rows == whole.n_steps  # each history row read once
    assert followed.manifest["trainer_config"] == whole.manifest["trainer_config"]
    assert any(f.signature_id == "KL_BLOWUP" and f.severity == "critical" for f in watcher.reported)


def test_a_long_watch_compacts_its_recording_and_loses_nothing(tmp_path: Path) -> None:
    from rlprobe.doctor.live.mirror import COMPACT_EVERY

    log = tmp_path / "verl.jsonl"
    log.write_text(json.dumps({"step": 0, "data": {"critic/score/mean": 0.0}}) + "\n")
    watcher = RunWatcher(log)
    watcher.tick()
    for step in range(1, COMPACT_EVERY + 6):  # a look with one new step each: more parts than a compaction's worth
        with open(log, "a") as fh:
            fh.write(json.dumps({"step": step, "data": {"critic/score/mean": 0.01 * step}}) + "\n")
        watcher.tick()
    view = watcher.view
    assert view is not None and (view.run_dir / "steps.parquet").exists()  # compacted while watched
    assert view.step.tolist() == list(range(COMPACT_EVERY + 6))
    assert RunReader(view.run_dir).steps().num_rows == COMPACT_EVERY + 6


WANDB_WRITER = textwrap.dedent("""
    import time, wandb
    run = wandb.init(mode="offline", project="rlprobe-test", name="live", config={"beta": 0.04, "learning_rate": 1e-6})
    for s in range(1, 1501):  # about 40 blocks of 32 KiB: rows reach the file while the run goes on
        run.log({"train/kl": (0.01 if s < 1000 else 2.0) * (1 + s % 3 / 50), "train/reward": 0.5,
                 "train/entropy": 1.0, **{f"train/m{i}": 0.001 * s * i for i in range(20)}, "train/global_step": s})
        if s % 100 == 0:
            time.sleep(0.3)
    run.finish()
""")


def test_a_wandb_run_is_followed_while_wandb_writes_it(tmp_path: Path) -> None:
    env = {"WANDB_MODE": "offline", "WANDB_SILENT": "true", "WANDB_DISABLE_GIT": "true", "WANDB_DISABLE_CODE": "true",
           "WANDB_ERROR_REPORTING": "false", "WANDB__DISABLE_STATS": "true", "WANDB__DISABLE_META": "true",
           "WANDB__DISABLE_MACHINE_INFO": "true"}
    root = tmp_path / "logs"
    root.mkdir()
    watcher, said = _follow_writer(str(root / "wandb"), WANDB_WRITER, {**env, "WANDB_DIR": str(root)})
    followed = watcher.view
    assert followed is not None and followed.manifest["status"] == "finished", said  # its exit record
    assert RunReader(followed.run_dir).steps().num_rows == 1500, said  # each history row once
    assert _steps(followed).equals(_steps(RunView.load(root / "wandb"))), said
    assert followed.manifest["trainer_config"]["beta"] == 0.04


def test_a_source_unreadable_for_a_moment_is_waited_for_and_one_that_stays_so_is_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rlprobe.doctor.sources.base import FailureStreak, SourceError, SourceTail

    monkeypatch.setattr(FailureStreak, "SECONDS", 0.3)
    broken = {"now": True}

    class Flaky(SourceTail):
        def read_into(self, run):
            if broken["now"]:
                raise SourceError(f"{self.path}: not a readable database (database disk image is malformed)")
            run.add_step(1, {"reward": 0.5})

    tail = Flaky(tmp_path / "store.db")
    for _ in range(FailureStreak.LOOKS + 2):  # many looks, but not yet for long: nothing read, no error
        assert tail.look().steps == []
    broken["now"] = False
    assert [row["step"] for row in tail.look().steps] == [1]  # a read that works ends the streak
    broken["now"] = True
    start = time.monotonic()
    with pytest.raises(SourceError, match="malformed"):
        while True:
            tail.look()
            time.sleep(0.02)
    assert time.monotonic() - start >= 0.3


def test_a_log_started_again_by_a_new_job_is_read_as_the_new_run(tmp_path: Path) -> None:
    log = tmp_path / "job.out"

    def dicts(n: int, reward: float) -> str:
        return "".join(repr({"loss": "0.1", "reward": f"{reward}", "epoch": f"{s / 100:.2f}"}) + "\n"
                       for s in range(1, n + 1))

    log.write_text(dicts(30, 0.2))
    watcher = RunWatcher(log)
    watcher.tick()
    assert watcher.view is not None and watcher.view.n_steps == 30
    log.write_text(dicts(10, 0.7))  # the job was resubmitted: its log written again from the start
    watcher.tick()
    view = watcher.view
    assert view.n_steps == 10 and set(view.series("reward").tolist()) == {0.7}  # nothing of the old job left
    assert any(e["kind"] == "run_resumed" for e in view.events)
