"""Recording scenarios run in a child process, so tests can kill, signal and crash them.

    python child.py SCENARIO RUN_DIR [ARGS...]

Each scenario prints progress lines (flushed at once) that the parent test waits for.
"""
from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from rlprobe import Recorder


def say(*parts: object) -> None:
    print(*parts, flush=True)


def sample_batch(step: int, n: int = 3) -> list[dict]:
    return [{"prompt": f"p{step}", "completion": f"c{step}-{j}", "reward": float(j), "prompt_id": f"p{step}"}
            for j in range(n)]


def log_until_killed(run: str) -> None:
    """Log steps (and samples every 10th) forever; print how many are durable after each
    explicit flush. The parent SIGKILLs us at a random moment."""
    rec = Recorder(run, flush_interval_s=0.05, steps_per_flush=37, capture_env=False)
    say("started")
    step = 0
    while True:
        rec.log_step(step, loss=1.0 / (step + 1), reward=float(step))
        if step % 10 == 0:
            rec.log_samples(step, sample_batch(step), select=False)
        step += 1
        if step % 100 == 0:
            if rec.flush(10):
                say("flushed", step)
        time.sleep(0.0002)


def sigterm(run: str, mode: str, n: str) -> None:
    """Install a previous SIGTERM handler per ``mode``, record ``n`` steps, wait for SIGTERM."""
    n_steps = int(n)
    caught = []
    if mode == "python-exit":
        def previous(signum: int, frame: object) -> None:
            Path(run + ".previous").write_text("called")
            sys.exit(3)
        signal.signal(signal.SIGTERM, previous)
    elif mode == "python-continue":
        def previous(signum: int, frame: object) -> None:  # type: ignore[misc]
            Path(run + ".previous").write_text("called")
            caught.append(signum)
        signal.signal(signal.SIGTERM, previous)
    elif mode == "ignored":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    else:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    rec = Recorder(run, capture_env=False, flush_interval_s=60, steps_per_flush=10**6)
    for step in range(n_steps):
        rec.log_step(step, loss=float(step))
        rec.log_samples(step, sample_batch(step), select=False)
    say("ready")
    deadline = time.monotonic() + (1.0 if mode == "ignored" else 30.0)
    while not caught and time.monotonic() < deadline:
        time.sleep(0.01)
    # Only "python-continue" and "ignored" get here: training goes on.
    for step in range(n_steps, 2 * n_steps):
        rec.log_step(step, loss=float(step))
    say("continued")


def exit_without_close(run: str) -> None:
    """Record and simply return: the atexit handler closes the run."""
    rec = Recorder(run, capture_env=False, flush_interval_s=60, steps_per_flush=10**6)
    for step in range(123):
        rec.log_step(step, loss=float(step))
    say("returning")


def crash(run: str, n: str) -> None:
    """Install a previous excepthook, record, then die of an uncaught exception."""
    def previous_hook(exc_type: type, exc: BaseException, tb: object) -> None:
        Path(run + ".previous").write_text(f"{exc_type.__name__}: {exc}")
        sys.__excepthook__(exc_type, exc, tb)

    sys.excepthook = previous_hook
    rec = Recorder(run, capture_env=False, flush_interval_s=60, steps_per_flush=10**6)
    for step in range(int(n)):
        rec.log_step(step, loss=float(step))
    rec.log_samples(0, sample_batch(0), select=False)

    def train_step() -> None:
        raise ValueError("boom at the training step")

    train_step()


def close_paused(run: str, window: str, n_parts: str) -> None:
    """Write ``n_parts`` parts, then close; pause inside compaction at ``window`` (announced
    on stdout) so the parent can SIGKILL us exactly there. ``window`` "none" pauses nowhere."""
    import rlprobe.storage.writer as writer_module

    rec = Recorder(run, capture_env=False, install_handlers=False, flush_interval_s=60, steps_per_flush=10**6)
    step = 0
    for part in range(int(n_parts)):
        for _ in range(20):
            rec.log_step(step, loss=float(step), **{f"late_{part % 3}": 1.0})
            step += 1
        rec.log_samples(step, sample_batch(step), select=False)
        assert rec.flush(10)
    say("parts", step)

    def pause(label: str) -> None:
        say(label)
        time.sleep(30)

    real_replace = os.replace
    real_discard = writer_module.discard
    real_writer = writer_module.pq.ParquetWriter
    deleted = []

    class SlowWriter(real_writer):  # type: ignore[misc, valid-type]
        def write_table(self, table, *args, **kwargs):
            super().write_table(table, *args, **kwargs)
            if window == "mid-write" and table.num_rows and "steps.parquet" in str(getattr(self, "where", "")):
                pause("mid-write")

    def replace(src, dst):
        if window == "before-rename" and str(dst).endswith("steps.parquet"):
            pause("before-rename")
        real_replace(src, dst)
        if window == "after-rename" and str(dst).endswith("steps.parquet"):
            pause("after-rename")

    def discard(path):
        real_discard(path)
        deleted.append(path)
        if window == "mid-delete" and len(deleted) == 2:
            pause("mid-delete")

    writer_module.os.replace = replace  # type: ignore[assignment]
    writer_module.discard = discard
    writer_module.pq.ParquetWriter = SlowWriter
    say("closing")
    rec.close()
    say("closed")


def fork_mid_run(run: str) -> None:
    """Fork in the middle of a run: the child logs, flushes and closes (all no-ops) and
    exits through atexit; the parent records on and closes."""
    rec = Recorder(run, capture_env=False, flush_interval_s=0.05)
    for step in range(100):
        rec.log_step(step, loss=float(step))
    rec.log_samples(0, sample_batch(0), select=False)
    assert rec.flush(10)
    pid = os.fork()
    if pid == 0:
        assert not rec.active
        for step in range(1000, 2000):
            rec.log_step(step, loss=-1.0)
        rec.log_samples(1000, sample_batch(1000), select=False)
        rec.log_event("from_child", message="must not be recorded")
        assert rec.flush(1)
        rec.close()
        child_dir = run + ".child"
        with Recorder(child_dir, capture_env=False, install_handlers=False) as own:
            own.log_step(7, loss=7.0)
        sys.exit(0)
    for step in range(100, 200):
        rec.log_step(step, loss=float(step))
    _, status = os.waitpid(pid, 0)
    say("child-exit", os.waitstatus_to_exitcode(status))
    rec.log_event("after_fork", message="parent still recording")
    rec.close()
    say("done")


def storage_trouble(mount_point: str, trouble: str, out: str) -> None:
    """Inside a private mount namespace (run under ``unshare -m``): record onto a small
    tmpfs, then make it full or read-only mid-run, then heal it. Prints a JSON summary and
    copies the run to ``out`` (the tmpfs vanishes with us)."""
    import errno
    import json
    import shutil
    import subprocess
    import warnings

    from rlprobe import RlprobeWarning

    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mount_point], check=True)
    run = Path(mount_point) / "run"
    filler = Path(mount_point) / "filler"
    summary: dict = {"errors": []}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rec = Recorder(run, capture_env=False, install_handlers=False, flush_interval_s=60)
        try:
            for step in range(100):
                rec.log_step(step, loss=float(step))
            summary["flush_before"] = rec.flush(10)
            if trouble == "full":
                with open(filler, "wb") as fh:
                    try:
                        while True:
                            fh.write(b"\0" * 65536)
                            fh.flush()
                    except OSError as exc:
                        summary["filler_errno"] = errno.errorcode[exc.errno]
            else:
                subprocess.run(["mount", "-o", "remount,ro", mount_point], check=True)
            for step in range(100, 300):
                rec.log_step(step, loss=float(step))
                rec.log_samples(step, [{"completion": "z" * 1024, "reward": 1.0}], select=False)
            rec.log_event("during_trouble", message="must not raise")
            summary["flush_during"] = rec.flush(10)
            summary["flush_during_again"] = rec.flush(10)
            if trouble == "full":
                filler.unlink()
            else:
                subprocess.run(["mount", "-o", "remount,rw", mount_point], check=True)
            summary["flush_after"] = rec.flush(10)
            rec.close()
        except Exception as exc:  # noqa: BLE001 - the point is that nothing gets here
            summary["errors"].append(repr(exc))
    summary["warnings"] = [str(w.message) for w in caught if issubclass(w.category, RlprobeWarning)]
    summary["storage_errors"] = rec.storage_errors
    summary["lost"] = rec.lost
    shutil.copytree(run, out)
    say(json.dumps(summary))


if __name__ == "__main__":
    scenario, *args = sys.argv[1:]
    scenarios = {"log_until_killed": log_until_killed, "sigterm": sigterm, "crash": crash, "close_paused": close_paused,
                 "fork_mid_run": fork_mid_run, "exit_without_close": exit_without_close,
                 "storage_trouble": storage_trouble}
    scenarios[scenario](*args)
