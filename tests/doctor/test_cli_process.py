"""The settings a command's process gives the libraries under it (``rlprobe.doctor.cli.process``):
Arrow allocates with ``malloc``, Polars' jemalloc keeps one arena, OpenBLAS one thread; each is
read by its library as it loads and then taken back out of the environment, so a command started
from this one inherits the user's; a user's own setting wins; a caller's process (libraries
loaded already) is left as it is."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rlprobe.doctor.cli import process

COMMAND = """
import atexit, json, os, sys

def report():
    import pyarrow
    print(json.dumps({"arrow": pyarrow.default_memory_pool().backend_name,
                      "environment": {v: os.environ.get(v) for v, _ in SETTINGS}}))

from rlprobe.doctor.cli import main, process
SETTINGS = list(process.SETTINGS.values())
atexit.register(report)
main(sys.argv[1:])
"""


def _command(*args: str, **environment: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {v for v, _ in process.SETTINGS.values()}}
    done = subprocess.run([sys.executable, "-c", COMMAND, *args], capture_output=True, text=True, timeout=120,
                          env={**env, **environment})
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_command_s_libraries_read_their_settings_and_the_environment_is_left_as_it_was(synth_run) -> None:
    run = synth_run("kl_blowup", n_steps=300)
    seen = _command("doctor", str(Path(run)))
    assert seen == {"arrow": "system", "environment": {v: None for v, _ in process.SETTINGS.values()}}


def test_a_user_s_own_setting_wins(synth_run) -> None:
    run = synth_run("kl_blowup", n_steps=300)
    seen = _command("doctor", str(Path(run)), ARROW_DEFAULT_MEMORY_POOL="mimalloc", OPENBLAS_NUM_THREADS="2")
    assert seen["arrow"] == "mimalloc"
    assert seen["environment"] == {"ARROW_DEFAULT_MEMORY_POOL": "mimalloc", "_RJEM_MALLOC_CONF": None,
                                   "OPENBLAS_NUM_THREADS": "2"}


def test_a_process_that_loaded_the_libraries_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy  # noqa: F401
    import polars  # noqa: F401
    import pyarrow  # noqa: F401

    for variable, _ in process.SETTINGS.values():
        monkeypatch.delenv(variable, raising=False)
    process.prepare()
    assert {v: os.environ.get(v) for v, _ in process.SETTINGS.values()} == {
        v: None for v, _ in process.SETTINGS.values()}
    process.restore()
