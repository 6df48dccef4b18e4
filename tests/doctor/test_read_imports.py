"""What reading a recording costs in imports (issue 17: a whole ``rlprobe doctor`` process at 100k
steps is measured in tenths of a second, and each of these was tens of milliseconds of it, or more).

- No pandas: pyarrow imports it (0.3 s) the first time a Python sequence is converted, so the read
  path builds its columns from Arrow data.
- Not the recorder or the writer: ``rlprobe`` and ``rlprobe.storage`` export their names on first use.
- Not ``pyarrow.compute``: the reader imports it only where a read filters rows or folds an alias.
- Not the readers of foreign logs (``rlprobe.doctor.sources``): a run directory is read as it is.

A fresh interpreter runs ``rlprobe doctor`` on a recorded run and lists what it imported."""
from __future__ import annotations

from pathlib import Path

NOT_NEEDED = ("pandas", "pyarrow.compute", "rlprobe.recorder", "rlprobe.storage.writer", "rlprobe.doctor.sources")


def test_doctor_on_a_recording_imports_only_what_reading_it_needs(synth_run, doctor_modules) -> None:
    status, modules, stderr = doctor_modules(Path(synth_run("kl_blowup", n_steps=300)))
    assert status == 0, stderr
    assert "rlprobe.doctor.catalog" in modules
    assert sorted(m for m in modules if m.startswith(NOT_NEEDED)) == []
