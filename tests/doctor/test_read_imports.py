"""Reading a recording costs no pandas: pyarrow imports it (0.3 s, a fifth of a ``rlprobe doctor``
process at 100k steps) the first time a Python sequence is converted, so the read path builds its
columns from Arrow data. A fresh interpreter diagnoses a recorded run without importing it."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DIAGNOSE = """
import json, sys
from rlprobe.doctor import diagnose
diagnose(sys.argv[1])
print(json.dumps(sorted(sys.modules)))
"""


def test_diagnosing_a_recording_does_not_import_pandas(synth_run) -> None:
    run = synth_run("kl_blowup", n_steps=300)
    done = subprocess.run([sys.executable, "-c", DIAGNOSE, str(Path(run))], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    modules = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "rlprobe.doctor.catalog" in modules
    assert not any(m.split(".")[0] == "pandas" for m in modules)
