"""``rlprobe watch`` end to end: a real recording process, a real webhook receiver, Ctrl-C."""
from __future__ import annotations

import http.server
import json
import queue
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rlprobe.doctor.cli import main
from rlprobe.doctor.synth import generate
from rlprobe.storage import RunWriter

RLPROBE = str(Path(sys.executable).with_name("rlprobe"))

RECORDING_SCRIPT = textwrap.dedent("""
    import sys, time
    from rlprobe import Recorder

    with Recorder(sys.argv[1], algorithm="grpo", capture_env=False, install_handlers=False,
                  flush_interval_s=0.05) as rec:
        for step in range(420):
            kl = 0.01 if step < 300 else 2.0  # KL blows up ×200 at step 300
            rec.log_step(step, kl=kl * (1 + 0.05 * (step % 5)), reward=0.5, grad_norm=1.0)
            time.sleep(0.002)
""")


class Receiver(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.bodies: list[dict[str, Any]] = []


class _Handler(http.server.BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:  # noqa: N802
        self.server.bodies.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def test_watch_reports_a_run_turning_pathological_and_posts_the_webhook(tmp_path: Path, receiver: Receiver) -> None:
    run = tmp_path / "runs" / "live"
    script = tmp_path / "record.py"
    script.write_text(RECORDING_SCRIPT)
    url = f"http://127.0.0.1:{receiver.server_address[1]}/"
    # the watcher starts first: the run does not exist yet
    watch = subprocess.Popen([RLPROBE, "watch", str(run), "--poll", "0.1", "--webhook", url, "--max-ticks", "600"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        record = subprocess.run([sys.executable, str(script), str(run)], capture_output=True, text=True, timeout=120)
        assert record.returncode == 0, record.stderr
        out, err = watch.communicate(timeout=120)
    finally:
        watch.kill()
    assert watch.returncode == 1, (out, err)
    assert "CRITICAL KL_BLOWUP" in out and "Traceback" not in err
    looks = int(re.search(r"done after (\d+) look", out).group(1))
    assert looks < 600  # it stopped because the run ended, not at --max-ticks
    [kl] = [b for b in receiver.bodies if b["text"].startswith(f"rlprobe: CRITICAL KL_BLOWUP in {run}")]
    assert kl["blocks"][0]["type"] == "header" and "KL_BLOWUP" in kl["blocks"][0]["text"]["text"]
    assert all(b["text"] and b["blocks"] for b in receiver.bodies)  # one payload per finding printed
    assert len(receiver.bodies) == len(re.findall(r"^\d+\. (?:CRITICAL|WARN|INFO) ", out, re.M))


def test_watch_stops_after_max_ticks(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["watch", str(tmp_path / "never"), "--poll", "0", "--max-ticks", "3"])
    assert result.exit_code == 0, result.output
    assert "after 3 look(s); no findings" in result.output


def test_watch_on_a_finished_healthy_run_exits_0_by_itself(tmp_path: Path) -> None:
    writer = RunWriter(tmp_path / "run", {"run_id": "ok", "algorithm": "grpo"})
    writer.write_part([{"step": s, "time": time.time(), "reward_mean": 0.5} for s in range(200)])
    writer.close()
    result = CliRunner().invoke(main, ["watch", str(tmp_path / "run"), "--poll", "0"])
    assert result.exit_code == 0, result.output
    assert "done after 2 look(s); no findings." in result.output


@pytest.mark.parametrize("args, message", [
    (["--poll", "-1"], "--poll"),
    (["--max-ticks", "0"], "--max-ticks"),
    (["--webhook", "slack"], "webhook url must start with http"),
    (["--config", "missing.toml"], "config file missing.toml not found"),
])
def test_watch_usage_errors_exit_2_with_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["watch", str(tmp_path), *args])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_watch_rejects_an_unknown_config_key(tmp_path: Path) -> None:
    config = tmp_path / "doctor.toml"
    config.write_text("[run_stalled]\nfactr = 3.0\n")
    result = CliRunner().invoke(main, ["watch", str(tmp_path), "--config", str(config)])
    assert result.exit_code == 2 and "unknown key 'factr'" in result.output


class Pump:
    """Collects a subprocess stream from a thread, so a test can wait for a line without blocking."""

    def __init__(self, stream: Any) -> None:
        self.lines: list[str] = []
        self._queue: queue.Queue[str] = queue.Queue()
        self._thread = threading.Thread(target=self._run, args=(stream,), daemon=True)
        self._thread.start()

    def _run(self, stream: Any) -> None:
        for line in stream:
            self.lines.append(line)
            self._queue.put(line)

    def wait_for(self, needle: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self._queue.get(timeout=max(0.01, deadline - time.monotonic())):
            pass

    def text(self) -> str:
        self._thread.join(10)
        return "".join(self.lines)


@pytest.mark.parametrize("case", ["stalled", "not-yet"])
def test_ctrl_c_ends_watch_cleanly_with_a_summary(tmp_path: Path, case: str) -> None:
    run = tmp_path / case
    if case == "stalled":
        generate(run, "run_stalled", n_steps=100, seed=0)  # marked running, silent for hours
    args = ["--keep-watching"] if case == "stalled" else []  # else the critical stall ends it by itself
    proc = subprocess.Popen([RLPROBE, "watch", str(run), "--poll", "0.1", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = Pump(proc.stdout), Pump(proc.stderr)
    try:
        if case == "stalled":
            out.wait_for("RUN_STALLED")
        else:
            err.wait_for("waiting for a recording")
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    finally:
        proc.kill()
    assert "Traceback" not in err.text()
    assert "stopped by Ctrl-C" in out.text()
    if case == "stalled":
        assert proc.returncode == 1  # a critical was seen
        assert re.search(r"CRITICAL RUN_STALLED from step \d+", out.text().split("stopped by Ctrl-C")[1])
    else:
        assert proc.returncode == 130  # stopped before the run (here: before it even appeared)
        assert "no findings" in out.text()


def test_a_stalled_recording_ends_the_watch_by_itself(tmp_path: Path) -> None:
    run = tmp_path / "stalled"
    generate(run, "run_stalled", n_steps=100, seed=0)  # marked running, silent for hours: critical
    done = subprocess.run([RLPROBE, "watch", str(run), "--poll", "0.1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.rstrip().splitlines()[-1].startswith("exit 1: critical RUN_STALLED from step ")
