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


def test_no_module_reaches_into_a_recorder_s_private_parts() -> None:
    """Other modules and packages act on a Recorder through its API or ``recorder.internals``
    (``RecorderInternals``), never through its private methods or state."""
    import ast

    packages = Path(__file__).resolve().parents[2] / "packages"
    recorder_py = packages / "rlprobe-core" / "src" / "rlprobe" / "recorder.py"
    cls = next(node for node in ast.parse(recorder_py.read_text()).body
               if isinstance(node, ast.ClassDef) and node.name == "Recorder")
    private = {node.name for node in cls.body if isinstance(node, ast.FunctionDef) and node.name.startswith("_")
               and not node.name.startswith("__")}
    for node in ast.walk(cls):
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        private |= {t.attr for t in targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                    and t.value.id == "self" and t.attr.startswith("_")}
    assert {"_sync", "_status", "_queue", "_closed"} <= private
    reaching = []
    for path in sorted(packages.glob("*/src/**/*.py")):
        if path == recorder_py:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Attribute) and node.attr in private
                    and not (isinstance(node.value, ast.Name) and node.value.id == "self")):
                reaching.append(f"{path.relative_to(packages)}:{node.lineno}: {ast.unparse(node)}")
    assert reaching == []
