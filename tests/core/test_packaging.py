"""Each distribution builds a wheel with hatchling; core installs alone into a fresh venv
(no polars there) and records a run; the doctor installs beside it with its own
dependencies; inter-package pins are exact.

Dependencies come from the local package indexes pip is configured with, when it has
some (so this works offline); otherwise from pip's default index. trl itself (and so
torch) is not installed: its pins are checked in the wheel's metadata and its wheel is
installed without dependencies, to check the files land in the shared namespace.
"""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import rlprobe

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ROOT / "packages"
VERSION = rlprobe.__version__


def _pip(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return done


def _local_index_args() -> list[str]:
    """pip options that point only at the local indexes pip is configured with."""
    done = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True)
    indexes: list[str] = []
    links: list[str] = []
    for line in done.stdout.splitlines():
        key, _, value = line.partition("=")
        values = value.strip().strip("'\"").split()
        if key.endswith("index-url"):
            indexes += [v for v in values if v.startswith("file://")]
        elif key.endswith("find-links"):
            links += [v for v in values if v.startswith("/") or v.startswith("file://")]
    existing = [i for i in indexes if Path(i.removeprefix("file://")).is_dir()]
    if not existing:
        return []
    args = ["--index-url", existing[0]]
    for extra in existing[1:]:
        args += ["--extra-index-url", extra]
    for link in links:
        args += ["--find-links", link]
    return args


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("wheels")
    # Build with the hatchling we have, or let pip fetch one into an isolated build env.
    isolation = ["--no-build-isolation"] if importlib.util.find_spec("hatchling") else _local_index_args()
    _pip("wheel", "--no-deps", *isolation, "-q", "-w", str(out),
         *(str(PACKAGES / name) for name in ("rlprobe-core", "rlprobe-doctor", "rlprobe-trl")))
    found = {p.name.split("-")[0].replace("_", "-"): p for p in out.glob("*.whl")}
    assert set(found) == {"rlprobe-core", "rlprobe-doctor", "rlprobe-trl"}
    return found


def _for_extra(requirement: str, extra: str) -> bool:
    return re.search(rf"extra\s*==\s*['\"]{extra}['\"]", requirement) is not None


def _metadata(wheel: Path) -> tuple[list[str], dict]:
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(zf.read(meta_name).decode())
    return names, meta


def test_wheels_share_one_version_with_exact_pins_and_one_namespace_owner(wheels: dict[str, Path]) -> None:
    core_files, core = _metadata(wheels["rlprobe-core"])
    doctor_files, doctor = _metadata(wheels["rlprobe-doctor"])
    trl_files, trl = _metadata(wheels["rlprobe-trl"])
    assert core["Version"] == doctor["Version"] == trl["Version"] == VERSION
    assert {"rlprobe/__init__.py", "rlprobe/recorder.py", "rlprobe/py.typed", "rlprobe/storage/reader.py"} \
        <= set(core_files)
    assert "rlprobe/__init__.py" not in doctor_files and "rlprobe/__init__.py" not in trl_files
    assert "rlprobe/integrations/__init__.py" not in trl_files
    assert any(f.startswith("rlprobe/doctor/") for f in doctor_files)
    assert any(f.startswith("rlprobe/integrations/trl/") for f in trl_files)

    core_requires = core.get_all("Requires-Dist")
    assert any(re.match(r"pyarrow\s*>=", r) for r in core_requires)
    assert not any(r.startswith(("polars", "numpy", "pydantic", "torch")) for r in core_requires)
    for extra, wanted in (("doctor", ["rlprobe-doctor"]), ("trl", ["rlprobe-trl"]),
                          ("all", ["rlprobe-doctor", "rlprobe-trl"])):
        assert sorted(r.split(";")[0].strip() for r in core_requires if _for_extra(r, extra)) == \
            [f"{name}=={VERSION}" for name in wanted]
    assert f"rlprobe-core=={VERSION}" in doctor.get_all("Requires-Dist")
    trl_requires = trl.get_all("Requires-Dist")
    assert f"rlprobe-core=={VERSION}" in trl_requires
    assert any(r.startswith("trl") and "<1.8" in r and ">=1.7" in r for r in trl_requires)
    assert [r.split(";")[0].strip() for r in trl_requires if _for_extra(r, "live")] == [f"rlprobe-doctor=={VERSION}"]


RECORD = """
import sys
from rlprobe import Recorder
from rlprobe.storage import RunReader
with Recorder(sys.argv[1], algorithm="grpo") as rec:
    for step in range(20):
        rec.log_step(step, loss=1.0, reward=0.5)
    rec.log_samples(19, [{"completion": "c", "reward": 1.0}])
reader = RunReader(sys.argv[1])
assert reader.steps().num_rows == 20 and reader.samples().num_rows == 1
assert reader.manifest["status"] == "finished"
try:
    import polars
except ImportError:
    print("recorded without polars")
else:
    raise SystemExit("polars is installed in the core-only venv")
"""


def test_core_installs_alone_records_a_run_then_the_doctor_installs_beside_it(wheels: dict[str, Path],
                                                                            tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    source = ["--find-links", str(wheels["rlprobe-core"].parent), *_local_index_args()]

    _pip("--python", python, "install", "-q", "rlprobe-core", *source)
    done = subprocess.run([python, "-c", RECORD, str(tmp_path / "run")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "recorded without polars" in done.stdout
    installed = _pip("--python", python, "list", "--format=freeze").stdout
    assert {line.split("==")[0].lower() for line in installed.split()} >= {"rlprobe-core", "pyarrow"}
    assert "polars" not in installed.lower()

    _pip("--python", python, "install", "-q", "rlprobe-doctor", *source)
    help_text = subprocess.run([str(venv / "bin" / "rlprobe"), "--help"], capture_output=True, text=True,
                               timeout=120)
    assert help_text.returncode == 0 and "Usage" in help_text.stdout, help_text.stderr

    _pip("--python", python, "install", "-q", "--no-deps", str(wheels["rlprobe-trl"]))
    located = subprocess.run([python, "-c", "import importlib.util as u; "
                              "print(u.find_spec('rlprobe.integrations.trl').origin)"],
                             capture_output=True, text=True, timeout=60)
    assert located.returncode == 0 and str(venv) in located.stdout, located.stderr
