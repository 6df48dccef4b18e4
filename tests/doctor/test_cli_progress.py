"""The progress bar of long reads: drawn on stderr when stderr is a terminal (a real pty
here), never when it is piped or with ``--quiet``, and erased before the command's output.
``RLPROBE_PROGRESS_DELAY=0`` shows it from the start, so that a test need not take a second."""
from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rlprobe.doctor import progress

RLPROBE = shutil.which("rlprobe", path=os.path.dirname(sys.executable)) or "rlprobe"
BAR = b"\r\x1b[K"


def _trainer_state(path: Path, steps: int = 3000) -> Path:
    history = [{"loss": 0.1 * (i % 7), "reward": 0.01 * i, "kl": 0.001, "learning_rate": 1e-6, "step": i}
               for i in range(1, steps + 1)]
    path.write_text(json.dumps({"global_step": steps, "log_history": history}))
    return path


def _run(args: list[str], tmp_path: Path, terminal: bool) -> tuple[int, bytes, bytes]:
    """``rlprobe ARGS`` with stdout piped and stderr on a pty (``terminal``) or a pipe."""
    env = {**os.environ, "RLPROBE_PROGRESS_DELAY": "0", "RLPROBE_CACHE_DIR": str(tmp_path / "cache")}
    if not terminal:
        done = subprocess.run([RLPROBE, *args], capture_output=True, env=env, timeout=120)
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    try:
        done = subprocess.run([RLPROBE, *args], stdout=subprocess.PIPE, stderr=follower, env=env, timeout=120)
    finally:
        os.close(follower)
    err = b""
    while True:
        try:
            chunk = os.read(leader, 1 << 16)
        except OSError:  # the pty's other end is closed: all read
            break
        if not chunk:
            break
        err += chunk
    os.close(leader)
    return done.returncode, done.stdout, err


def test_a_first_read_shows_bytes_read_of_the_total_on_a_terminal(tmp_path: Path) -> None:
    source = _trainer_state(tmp_path / "trainer_state.json")
    code, out, err = _run(["doctor", str(source)], tmp_path, terminal=True)
    assert code in (0, 1), err
    assert BAR + b"reading trainer_state.json [" in err
    assert b" MB " in err and b" MB/s" in err  # bytes of the total, and the rate
    assert b"decoding the log [" in err and b" rows/s" in err
    assert err.endswith(BAR)  # erased: the findings start a clean line
    assert out.startswith(str(source).encode())


def test_no_bar_when_stderr_is_piped_or_with_quiet(tmp_path: Path) -> None:
    source = _trainer_state(tmp_path / "trainer_state.json")
    code, out, err = _run(["doctor", str(source)], tmp_path, terminal=False)
    assert code in (0, 1) and b"reading" not in err and BAR not in err and out
    shutil.rmtree(tmp_path / "cache")  # a first read again
    code, out, err = _run(["doctor", "--quiet", str(source)], tmp_path, terminal=True)
    assert code in (0, 1) and b"reading" not in err and BAR not in err and out


def test_ls_health_shows_the_runs_diagnosed_of_all(synth_run, tmp_path: Path) -> None:
    root = tmp_path / "runs"
    for seed in range(3):
        shutil.copytree(synth_run("healthy", 200, seed), root / f"run-{seed}")
    code, out, err = _run(["ls", str(root), "--health"], tmp_path, terminal=True)
    assert code == 0 and b"run-2" in out
    assert b"diagnosing runs [" in err and b"/3 runs" in err
    code, _, err = _run(["ls", str(root), "--health", "-q"], tmp_path, terminal=True)
    assert code == 0 and b"diagnosing" not in err


def test_the_bar_says_what_how_far_and_how_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RLPROBE_PROGRESS_DELAY", "0")

    class Terminal:
        def __init__(self) -> None:
            self.text = ""

        def write(self, text: str) -> int:
            self.text += text
            return len(text)

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    with progress.shown(True, terminal) as bar:  # type: ignore[arg-type]
        bar.task("reading x.wandb", 200 * 2**20)
        bar.advance(50 * 2**20)
        line = bar.line()  # type: ignore[attr-defined]
    assert line.startswith("reading x.wandb [######------------------] 50/200 MB ")
    assert line.endswith(" MB/s")
    assert terminal.text.startswith(BAR.decode() + "reading x.wandb [")  # drawn at once: no delay
    assert terminal.text.endswith(BAR.decode())  # and erased
    assert progress.current() is not bar  # the command's bar ends with it


@pytest.mark.parametrize("enabled", [True, False])
def test_nothing_is_drawn_where_stderr_is_no_terminal(enabled: bool) -> None:
    class Pipe:
        text = ""

        def write(self, text: str) -> int:
            Pipe.text += text
            return len(text)

        def isatty(self) -> bool:
            return False

    with progress.shown(enabled, Pipe()) as bar:  # type: ignore[arg-type]
        bar.task("reading x", 10)
        bar.advance(10)
    assert not bar.shows and Pipe.text == ""
