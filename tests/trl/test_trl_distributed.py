"""Two processes under torchrun (gloo, CPU): one recording, and a halt both ranks obey."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tiny_trl import KL_BLOWUP_TRAINING

from rlprobe.storage import RunReader

SCRIPT = Path(__file__).with_name("dist_train.py")


def torchrun(model_dir: Path, work: Path, *extra: str) -> list[dict]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONWARNINGS": "ignore"}
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
               str(SCRIPT), str(model_dir), str(work), *extra]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return [json.loads((work / f"rank-{rank}.json").read_text()) for rank in (0, 1)]


def test_two_ranks_one_recording_and_a_shared_halt(tiny_model_dir, tmp_path):
    ranks = torchrun(tiny_model_dir, tmp_path, "halt")
    assert [r["world_size"] for r in ranks] == [2, 2]
    assert [r["recorder_active"] for r in ranks] == [True, False]

    # Both ranks stopped at the same step, early, for the same reason.
    step = ranks[0]["global_step"]
    assert step < KL_BLOWUP_TRAINING["max_steps"] and ranks[1]["global_step"] == step
    assert ranks[0]["halted_by"] == ranks[1]["halted_by"] == "KL_BLOWUP"
    assert (tmp_path / "out" / f"checkpoint-{step}").is_dir()

    # One run directory, written by world process zero only, no row twice.
    run_dir = tmp_path / "run"
    assert not [p for p in run_dir.iterdir() if p.name.startswith("rank-")]
    run = RunReader(run_dir)
    assert run.manifest["world_size"] == 2 and run.manifest["recorded_ranks"] == [0]
    assert run.manifest["status"] == "halted"
    assert [row["step"] for row in run.steps().to_pylist()] == list(range(1, step + 1))
    samples = run.samples().to_pylist()
    assert len({s["sample_id"] for s in samples}) == len(samples)
    # TRL gathers both processes' completions: each step's generation holds the global
    # batch (2 processes x 4 completions), recorded once.
    assert len(samples) == 8 * step
    assert [e["kind"] for e in run.events()].count("auto_halt") == 1


def test_record_all_ranks_gives_each_rank_a_directory_and_samples_stay_single(tiny_model_dir, tmp_path):
    ranks = torchrun(tiny_model_dir, tmp_path, "all-ranks")
    assert [r["recorder_active"] for r in ranks] == [True, True]
    run_dir = tmp_path / "run"
    assert sorted(p.name for p in run_dir.iterdir()) == ["rank-0", "rank-1"]
    run = RunReader(run_dir)
    steps = run.steps().to_pylist()
    assert sorted((row["rank"], row["step"]) for row in steps) == [(r, s) for r in (0, 1) for s in (1, 2, 3, 4)]
    # TRL's logged metrics are global means: both ranks logged the same values.
    by_rank = {r: [row["reward_mean"] for row in steps if row["rank"] == r] for r in (0, 1)}
    assert by_rank[0] == by_rank[1]
    # The completions buffer is already gathered: only rank 0 records samples.
    samples = run.samples().to_pylist()
    assert {s["rank"] for s in samples} == {0} and len(samples) == 4 * 8
