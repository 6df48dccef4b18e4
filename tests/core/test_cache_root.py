"""The cache layout: one root (``RLPROBE_CACHE_DIR``, else ``$XDG_CACHE_HOME/rlprobe``) and one
directory a kind of cache under it, whether the variable is set or not, so imports of foreign
logs never land among (or prune) the copies of remote recordings."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rlprobe.storage.location import CACHE_DIRS, cache_dir, cache_root


def _trainer_state(folder: Path) -> Path:
    """A foreign source the doctor imports: a Trainer's ``trainer_state.json``."""
    folder.mkdir()
    rows = [{"step": s, "loss": 1.0 / s, "reward": 0.1 * s, "kl": 0.01 * s} for s in range(1, 31)]
    (folder / "trainer_state.json").write_text(json.dumps({"global_step": 30, "log_history": rows}))
    return folder


def _imported_into(source: Path, env: dict[str, str]) -> list[Path]:
    """Where ``rlprobe doctor SOURCE`` (a separate process, as a user runs it) put its import."""
    rlprobe = Path(sys.executable).parent / "rlprobe"
    done = subprocess.run([str(rlprobe), "doctor", str(source)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr  # 1: findings; 2 would be unusable input
    return [p.parent for p in Path(env["HOME"]).rglob("manifest.json")]


@pytest.mark.parametrize("configured", [True, False], ids=["RLPROBE_CACHE_DIR", "XDG_CACHE_HOME"])
def test_one_layout_with_or_without_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 configured: bool) -> None:
    monkeypatch.delenv("RLPROBE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    root = tmp_path / "xdg" / "rlprobe"
    if configured:
        root = tmp_path / "mine"
        monkeypatch.setenv("RLPROBE_CACHE_DIR", str(root))
    assert cache_root() == root
    assert {kind: cache_dir(kind) for kind in CACHE_DIRS} == {
        "remote": root / "remote", "imports": root / "imports", "remote-logs": root / "remote-logs",
        "health": root / "health"}

    from rlprobe.doctor.sources import recording_dir
    imported = recording_dir(_trainer_state(tmp_path / "run"))
    assert imported.parent == root / "imports"
    assert (imported / "manifest.json").is_file()


def test_the_cli_imports_under_the_configured_root(tmp_path: Path) -> None:
    source = _trainer_state(tmp_path / "run")
    env = {**os.environ, "HOME": str(tmp_path / "home"), "RLPROBE_CACHE_DIR": str(tmp_path / "home" / "c")}
    env.pop("XDG_CACHE_HOME", None)
    assert [p.parent for p in _imported_into(source, env)] == [tmp_path / "home" / "c" / "imports"]


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="not a kind of cache"):
        cache_dir("everything")
