"""``rlprobe watch`` ends by itself, with the exit code its ``--help`` and docs/live.md give,
on every source it follows while a real writer process writes it: on a critical finding
(once ``--on-critical`` ran), when the run ends, when the log stops growing past the stall
window, and on SIGINT/SIGTERM. Each test waits for the watch to exit; one that does not
exit within its budget (three ``--poll`` intervals after the event, or after the stall
window) fails the test. The writers go on writing (or sleeping) after a critical event,
so a watch that ended on the run's end instead would miss its budget."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

RLPROBE = str(Path(sys.executable).with_name("rlprobe"))
#: Seconds between the watch's looks; every budget is counted in them.
POLL = 1.5
#: The stall window the stopped-log cases configure (``[run_stalled] min_stall_s``, ``factor`` 1).
STALL_S = 4.0
#: Looks a watch may take to end after its event (the issue's "within 3 poll intervals").
LOOKS = 3
#: Longest a writer may take to reach its event (a cold W&B or trackio start on a loaded machine).
START_BUDGET_S = 180.0

WANDB_ENV = {"WANDB_MODE": "offline", "WANDB_SILENT": "true", "WANDB_DISABLE_GIT": "true",
             "WANDB_DISABLE_CODE": "true", "WANDB_ERROR_REPORTING": "false", "WANDB__DISABLE_STATS": "true",
             "WANDB__DISABLE_META": "true", "WANDB__DISABLE_MACHINE_INFO": "true"}

#: Each writer takes the log's path and a marker path: it touches the marker once the event
#: (a KL blow-up, written and flushed) is in the log, then goes on writing for a minute.
CONSOLE_CRITICAL = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    with open(sys.argv[1], "w", buffering=1) as out:
        for step in range(1, 10**4):
            kl = 0.01 if step < 80 else 2.0  # the KL to the reference blows up at step 80
            print({"loss": "0.01", "reward": "0.5", "kl": f"{kl * (1 + 0.05 * (step % 5)):.4g}",
                   "epoch": f"{step / 1000:.3f}"}, file=out)
            if step == 110:
                Path(sys.argv[2]).touch()
            time.sleep(0.01 if step < 110 else 0.5)
""")

#: A TRL console job that ends with the Trainer's summary (healthy, or with --keep-watching
#: after a blow-up at step 80): the marker once the summary is written.
CONSOLE_FINISHED = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    blowup = sys.argv[3] == "blowup"
    with open(sys.argv[1], "w", buffering=1) as out:
        for step in range(1, 121):
            kl = 2.0 if blowup and step >= 80 else 0.01
            print({"loss": "0.01", "reward": "0.5", "kl": f"{kl * (1 + 0.05 * (step % 5)):.4g}",
                   "epoch": f"{step / 120:.3f}"}, file=out)
            time.sleep(0.02)
        print({"train_runtime": "2.4", "train_loss": "0.01", "epoch": "1.0"}, file=out)
    Path(sys.argv[2]).touch()
""")

#: A job that keeps training healthily until it is told to stop (the signal cases).
CONSOLE_FOREVER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    with open(sys.argv[1], "w", buffering=1) as out:
        for step in range(1, 10**4):
            print({"loss": "0.01", "reward": f"{0.5 + 0.001 * (step % 7):.4f}", "kl": "0.01",
                   "epoch": f"{step / 10**4:.4f}"}, file=out)
            if step == 20:
                Path(sys.argv[2]).touch()
            time.sleep(0.05)
""")

TENSORBOARD_CRITICAL = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from tensorboardX import SummaryWriter
    writer = SummaryWriter(sys.argv[1], flush_secs=1)
    for step in range(1, 10**4):
        kl = 0.01 if step < 60 else 2.0
        writer.add_scalar("train/kl", kl * (1 + 0.01 * (step % 5)), step)
        writer.add_scalar("train/reward", 0.5, step)
        writer.add_scalar("train/loss", 0.01, step)
        if step == 90:
            writer.flush()
            Path(sys.argv[2]).touch()
        if step >= 90:
            writer.flush()
            time.sleep(0.5)
""")

#: wandb-core writes its log a 32 KiB block at a time: after the blow-up the job logs on
#: (rows of 20 metrics, a few blocks' worth) before the marker, so the blow-up is on disk.
WANDB_CRITICAL = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    import wandb
    run = wandb.init(mode="offline", dir=sys.argv[1], project="rlprobe-test", name="live")
    for s in range(1, 10**5):
        run.log({"train/kl": (0.01 if s < 150 else 2.0) * (1 + s % 3 / 50), "train/reward": 0.5,
                 "train/entropy": 1.0, **{f"train/m{i}": 0.001 * s * i for i in range(20)}, "train/global_step": s})
        if s == 600:
            time.sleep(1.0)  # wandb-core writes what it was handed
            Path(sys.argv[2]).touch()
        if s >= 600:
            time.sleep(0.01)
""")

#: A job that stops writing without ending (a hang): 20 steps, then silence.
VERL_JSONL_STOPS = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    with open(sys.argv[1], "a", buffering=1) as out:
        for step in range(1, 21):
            out.write(json.dumps({"step": step, "data": {"critic/score/mean": 0.5 + 0.001 * step,
                                                         "actor/entropy": 1.0, "actor/kl_loss": 0.01}}) + "\\n")
            time.sleep(0.3)
    Path(sys.argv[2]).touch()
""")

TRACKIO_STOPS = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    import trackio
    trackio.init(project="proj", name="live", config={"beta": 0.04})
    for s in range(1, 21):
        trackio.log({"train/loss": 0.01, "train/reward": 0.5 + 0.001 * s, "train/kl": 0.01,
                     "train/global_step": s})
        time.sleep(0.3)
    trackio.finish()  # no Trainer summary: the run has not ended, it went quiet
    Path(sys.argv[2]).touch()
""")

#: verl console lines, each step once, to a log that logrotate's ``copytruncate`` rotates
#: while the job writes on (the test rotates it when the marker ``rotate`` appears): the
#: job's file descriptor, opened to append, goes on at the start of the emptied file.
CONSOLE_ROTATED = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    marker = Path(sys.argv[2])
    with open(sys.argv[1], "a", buffering=1) as out:
        for step in range(1, 41):
            out.write(f"step:{step} - critic/score/mean:{0.5 + step * 0.001:.3f} - actor/entropy:1.000\\n")
            if step == 15:
                (marker.parent / "rotate").touch()
                while not (marker.parent / "rotated").exists():
                    time.sleep(0.01)
            time.sleep(0.2)
    marker.touch()
""")


@contextmanager
def _running(tmp_path: Path, watch_args: list[str], code: str, log: str, *writer_args: str,
             env: dict[str, str] | None = None, watched: str | None = None,
             ) -> Iterator[tuple[subprocess.Popen, subprocess.Popen, Path]]:
    """The watch of ``watched`` (default ``log``; started first: it does not exist yet) and
    the writer of ``log``, each a real process; both killed on leaving, whatever happened.
    Yields them and the marker path."""
    marker = tmp_path / "event"
    out = open(tmp_path / "watch.out", "w")  # noqa: SIM115 - closed below
    err = open(tmp_path / "watch.err", "w")  # noqa: SIM115
    err_writer = open(tmp_path / "writer.err", "w")  # noqa: SIM115
    full_env = {**os.environ, "OMP_NUM_THREADS": "1", **(env or {})}
    watch = subprocess.Popen([RLPROBE, "watch", watched or log, "--poll", str(POLL), *watch_args],
                             stdout=out, stderr=err, env=full_env)
    writer = subprocess.Popen([sys.executable, "-c", code, log, str(marker), *writer_args], env=full_env,
                              stdout=subprocess.DEVNULL, stderr=err_writer)
    try:
        yield watch, writer, marker
    finally:
        for proc in (watch, writer):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        for stream in (out, err, err_writer):
            stream.close()


def _wait_for(path: Path, writer: subprocess.Popen, tmp_path: Path) -> None:
    deadline = time.monotonic() + START_BUDGET_S
    while not path.exists():
        assert writer.poll() is None or path.exists(), (tmp_path / "writer.err").read_text()[-3000:]
        assert time.monotonic() < deadline, f"the writer never reached its event ({path.name})"
        time.sleep(0.05)


def _exit(watch: subprocess.Popen, budget: float, tmp_path: Path) -> tuple[int, str]:
    """The watch's exit code and output, once it has exited; fails when it runs past ``budget``."""
    try:
        code = watch.wait(timeout=budget)
    except subprocess.TimeoutExpired:
        watch.kill()
        watch.wait()
        pytest.fail(f"the watch did not end within {budget:.1f} s; it said: "
                    + (tmp_path / "watch.out").read_text()[-2000:] + (tmp_path / "watch.err").read_text()[-2000:])
    out = (tmp_path / "watch.out").read_text()
    assert "Traceback" not in (tmp_path / "watch.err").read_text()
    return code, out


def _last_line(out: str) -> str:
    return out.rstrip("\n").splitlines()[-1]


@pytest.mark.parametrize("source", ["console", "tensorboard", "wandb"])
def test_a_critical_finding_ends_the_watch_once_on_critical_ran(tmp_path: Path, source: str) -> None:
    if source == "tensorboard":
        pytest.importorskip("tensorboardX")
    if source == "wandb":
        pytest.importorskip("wandb")
    code, log, env = {
        "console": (CONSOLE_CRITICAL, str(tmp_path / "job.out"), {}),
        "tensorboard": (TENSORBOARD_CRITICAL, str(tmp_path / "runs"), {}),
        "wandb": (WANDB_CRITICAL, str(tmp_path / "logs"), {**WANDB_ENV, "WANDB_DIR": str(tmp_path / "logs")}),
    }[source]
    watched = str(tmp_path / "logs" / "wandb") if source == "wandb" else log  # the folder the job creates
    calls = tmp_path / "calls"
    command = f"echo ran >> '{calls}'; echo cancelled"
    with _running(tmp_path, ["--on-critical", command], code, log, env=env, watched=watched) as (watch, writer,
                                                                                               marker):
        _wait_for(marker, writer, tmp_path)
        status, out = _exit(watch, LOOKS * POLL, tmp_path)
        assert writer.poll() is None, "the job was still training: the watch ended on the finding"
    assert status == 1, out
    assert calls.read_text().splitlines() == ["ran"], "the --on-critical command ran once, before the end"
    assert "CRITICAL KL_BLOWUP" in out and "  | cancelled" in out
    assert _last_line(out).startswith("exit 1: critical KL_BLOWUP from step ") and "--on-critical" in _last_line(out)


@pytest.mark.parametrize("source", ["verl-jsonl", "trackio", "copytruncate"])
def test_a_log_that_stops_growing_ends_the_watch_after_the_stall_window(tmp_path: Path, source: str) -> None:
    if source == "trackio":
        pytest.importorskip("trackio")
    config = tmp_path / "doctor.toml"
    config.write_text(f"[run_stalled]\nmin_stall_s = {STALL_S}\nfactor = 1.0\n")
    code, log, env = {
        "verl-jsonl": (VERL_JSONL_STOPS, str(tmp_path / "verl.jsonl"), {}),
        "trackio": (TRACKIO_STOPS, str(tmp_path / "trackio" / "proj.db"), {"TRACKIO_DIR": str(tmp_path / "trackio")}),
        "copytruncate": (CONSOLE_ROTATED, str(tmp_path / "job.out"), {}),
    }[source]
    with _running(tmp_path, ["--config", str(config)], code, log, env=env) as (watch, writer, marker):
        if source == "copytruncate":
            _wait_for(tmp_path / "rotate", writer, tmp_path)
            time.sleep(POLL)  # the watch has read the log before the rotation
            shutil.copyfile(log, log + ".1")  # logrotate's copytruncate: copy, then empty in place
            os.truncate(log, 0)
            (tmp_path / "rotated").touch()
        _wait_for(marker, writer, tmp_path)
        assert writer.wait(timeout=60) == 0, (tmp_path / "writer.err").read_text()[-3000:]
        assert watch.poll() is None, "the watch ended before the log stopped: " + (tmp_path / "watch.out").read_text()
        status, out = _exit(watch, STALL_S + LOOKS * POLL, tmp_path)
    assert status == 3, out
    assert "WARN RUN_STALLED" in out
    assert _last_line(out).startswith("exit 3: the run stalled: no new step since step ")


def test_a_run_that_ends_ends_the_watch_with_0(tmp_path: Path) -> None:
    log = str(tmp_path / "job.out")
    with _running(tmp_path, [], CONSOLE_FINISHED, log, "healthy") as (watch, writer, marker):
        _wait_for(marker, writer, tmp_path)
        status, out = _exit(watch, LOOKS * POLL, tmp_path)
    assert status == 0, out
    assert _last_line(out) == "exit 0: the run ended (finished)"


def test_keep_watching_goes_on_past_the_critical_finding_to_the_runs_end(tmp_path: Path) -> None:
    log = str(tmp_path / "job.out")
    calls = tmp_path / "calls"
    args = ["--keep-watching", "--on-critical", f"echo ran >> '{calls}'"]
    with _running(tmp_path, args, CONSOLE_FINISHED, log, "blowup") as (watch, writer, marker):
        _wait_for(marker, writer, tmp_path)
        status, out = _exit(watch, LOOKS * POLL, tmp_path)
    assert status == 1, out
    assert calls.read_text().splitlines() == ["ran"]
    assert _last_line(out) == "exit 1: the run ended (finished); a critical finding was seen (KL_BLOWUP)"


@pytest.mark.parametrize("signum, code, said", [(signal.SIGTERM, 143, "stopped by SIGTERM"),
                                                (signal.SIGINT, 130, "stopped by Ctrl-C")])
def test_a_signal_ends_the_watch_with_its_code_and_a_summary(tmp_path: Path, signum: int, code: int,
                                                             said: str) -> None:
    log = str(tmp_path / "job.out")
    with _running(tmp_path, [], CONSOLE_FOREVER, log) as (watch, writer, marker):
        _wait_for(marker, writer, tmp_path)
        time.sleep(2 * POLL)  # the watch has looked at the run
        watch.send_signal(signum)
        status, out = _exit(watch, LOOKS * POLL, tmp_path)
        assert writer.poll() is None
    assert status == code, out
    assert f"rlprobe watch {log}: {said} after " in out
    assert _last_line(out).startswith(f"exit {code}: ") and "before the run ended" in _last_line(out)


def test_help_and_docs_give_the_codes_the_watch_exits_with() -> None:
    """``rlprobe watch --help`` and docs/live.md's table list the same codes, the ones the
    command uses (``rlprobe.doctor.cli``'s constants)."""
    import re

    from rlprobe.doctor import cli

    used = {cli.EXIT_OK, cli.EXIT_CRITICAL, cli.EXIT_UNUSABLE, cli.EXIT_STALLED, cli.EXIT_SIGINT, cli.EXIT_SIGTERM}
    shown = subprocess.run([RLPROBE, "watch", "--help"], capture_output=True, text=True, timeout=60).stdout
    block = shown.split("Exit codes:", 1)[1].split("Examples:", 1)[0]
    assert {int(code) for code in re.findall(r"^\s+(\d+)\s", block, re.M)} == used
    live = (Path(__file__).resolve().parents[2] / "docs" / "live.md").read_text("utf-8")
    table = live.split("| code | the watch ended |", 1)[1].split("\n\n", 1)[0]
    assert {int(code) for code in re.findall(r"^\s*\| (\d+) \|", table, re.M)} == used
