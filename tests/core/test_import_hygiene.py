"""Core needs only the standard library and pyarrow: a full record-and-read cycle, run in
a fresh interpreter, leaves the heavy or doctor-side packages unimported."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FORBIDDEN = ("torch", "polars", "pydantic", "click", "jinja2", "trl", "transformers")

CYCLE = """
import json, sys
from rlprobe import Recorder, SamplingConfig
from rlprobe.storage import RunReader, list_runs, load_manifest, compact_run
run = sys.argv[1]
with Recorder(run, algorithm="grpo", capture_env=True, sampling=SamplingConfig(top_k=1, bottom_k=1, random_k=1)) as rec:
    for step in range(50):
        rec.log_step(step, loss=1.0, reward=0.5, **{"rewards/acc/mean": 0.5})
        rec.log_samples(step, [{"prompt": "p", "completion": "c", "reward": float(i)} for i in range(6)])
    rec.log_event("checkpoint", step=49, message="saved")
    rec.flush()
reader = RunReader(run)
assert reader.steps().num_rows == 50 and reader.samples().num_rows == 150
reader.events(); reader.read_new("steps"); list_runs(run); load_manifest(run); compact_run(run)
print(json.dumps(sorted(sys.modules)))
"""


def test_record_cycle_imports_nothing_heavy(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", CYCLE, str(tmp_path / "run")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    modules = set(json.loads(done.stdout.strip().splitlines()[-1]))
    leaked = sorted(m for m in modules if m.split(".")[0] in FORBIDDEN)
    assert leaked == []
    assert not any(m.startswith("rlprobe.doctor") or m.startswith("rlprobe.integrations") for m in modules)
