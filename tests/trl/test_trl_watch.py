"""``rlprobe watch`` as a guardian beside a real TRL GRPO job that knows nothing of rlprobe:
the watch starts before the job writes a line, follows its console log (or its TensorBoard
dir) as it grows, reports the pathology while the job trains, and runs ``--on-critical``
once with the finding."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
RLPROBE = str(Path(sys.executable).with_name("rlprobe"))
#: Steps of the job: the KL leaves the reference within ~10, so most of the run is after it.
MAX_STEPS = 80


def _guard(tmp_path: Path, source: Path, evidence: Path) -> tuple[subprocess.Popen, Path]:
    """``rlprobe watch SOURCE --on-critical CMD`` where CMD keeps what it was given: one line
    in ``calls`` per run, its stdin, its RLPROBE_* variables, and a copy of ``evidence`` (the
    job's console log) as it was when the command ran."""
    record = tmp_path / "action"
    record.mkdir()
    command = (f"echo ran >> {shlex.quote(str(record / 'calls'))}; cat > {shlex.quote(str(record / 'stdin.json'))}; "
               f"env | grep ^RLPROBE_ > {shlex.quote(str(record / 'env'))}; "
               f"cp {shlex.quote(str(evidence))} {shlex.quote(str(record / 'log-then'))}; echo scancelled")
    watch = subprocess.Popen([RLPROBE, "watch", str(source), "--poll", "0.2", "--max-ticks", "3000",
                              "--on-critical", command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return watch, record


def _train(tmp_path: Path, model_dir: Path, report_to: str, *extra: str) -> tuple[subprocess.CompletedProcess, Path]:
    console = tmp_path / "job.out"
    # Slurm-style: the job's stdout is the log file; unbuffered, as jobs whose logs are watched are run.
    env = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false",
           "PYTHONUNBUFFERED": "1"}
    with open(console, "w") as out:
        job = subprocess.run([sys.executable, str(HERE / "watch_train.py"), str(tmp_path / "out"), str(model_dir),
                              report_to, str(MAX_STEPS), *extra],
                             stdout=out, stderr=subprocess.PIPE, text=True, env=env, timeout=600)
    assert job.returncode == 0, job.stderr[-3000:]
    return job, console


def _check_guarded(watch: subprocess.Popen, record: Path, source: Path, console: Path) -> str:
    out, err = watch.communicate(timeout=120)
    assert watch.returncode == 1, (out, err)
    assert "done after" in out, out  # ended by itself on the job's end, not by --max-ticks
    calls = (record / "calls").read_text().splitlines()
    assert calls == ["ran"], "the command must run exactly once"
    finding = json.loads((record / "stdin.json").read_text())
    assert finding["run"] == str(source)
    assert finding["severity"] == "critical" and finding["confidence"] >= 0.7
    env = dict(line.split("=", 1) for line in (record / "env").read_text().splitlines())
    assert env["RLPROBE_SIGNATURE"] == finding["signature_id"]
    assert env["RLPROBE_SEVERITY"] == "critical" and env["RLPROBE_RUN"] == str(source)
    assert env["RLPROBE_FIRST_STEP"] == str(finding["first_step"])
    # While the job trained: the log the command saw had no end-of-training summary yet.
    then = (record / "log-then").read_text()
    assert "{'loss'" in then and "train_loss" not in then
    assert "train_loss" in console.read_text()
    # The watch printed the finding, then what the command did: its exit code and output.
    assert f"CRITICAL {finding['signature_id']}" in out
    assert f"ran for CRITICAL {finding['signature_id']} (from step {finding['first_step']}): exit code 0" in out
    assert "  | scancelled" in out
    return out


def test_watch_guards_a_trl_job_through_its_console_log(tiny_model_dir: Path, tmp_path: Path) -> None:
    console = tmp_path / "job.out"
    watch, record = _guard(tmp_path, console, console)
    try:
        time.sleep(1.0)  # the watch is up and waiting before the job writes anything
        assert watch.poll() is None
        _train(tmp_path, tiny_model_dir, "none")
        out = _check_guarded(watch, record, console, console)
    finally:
        if watch.poll() is None:
            watch.kill()
    assert "CRITICAL KL_BLOWUP" in out


def test_watch_guards_a_trl_job_through_its_tensorboard_dir(tiny_model_dir: Path, tmp_path: Path) -> None:
    runs = tmp_path / "out" / "runs"
    watch, record = _guard(tmp_path, runs, tmp_path / "job.out")
    try:
        time.sleep(1.0)
        assert watch.poll() is None
        _, console = _train(tmp_path, tiny_model_dir, "tensorboard")
        out = _check_guarded(watch, record, runs, console)
    finally:
        if watch.poll() is None:
            watch.kill()
    assert "CRITICAL KL_BLOWUP" in out


def test_watch_guards_a_trl_job_through_its_output_dir(tiny_model_dir: Path, tmp_path: Path) -> None:
    output_dir = tmp_path / "out"
    watch, record = _guard(tmp_path, output_dir, tmp_path / "job.out")
    try:
        time.sleep(1.0)
        assert watch.poll() is None
        _, console = _train(tmp_path, tiny_model_dir, "none", "--checkpoints")
        out = _check_guarded(watch, record, output_dir, console)
    finally:
        if watch.poll() is None:
            watch.kill()
    assert "CRITICAL KL_BLOWUP" in out
