"""What the run ran on: Python, host, git, package versions, GPUs.

Package versions come from installed metadata, never by importing the packages
(importing torch would cost seconds and break core's no-torch promise).
"""
from __future__ import annotations

import platform
import socket
import subprocess
import sys
from importlib import metadata
from typing import Any

PACKAGES = ("torch", "transformers", "trl", "accelerate", "vllm", "deepspeed",
            "rlprobe-core", "rlprobe-doctor", "rlprobe-trl")


def _run(cmd: list[str], timeout: float) -> str | None:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def git_info(timeout: float = 2.0) -> dict[str, Any]:
    sha = _run(["git", "rev-parse", "HEAD"], timeout)
    if sha is None:
        return {}
    status = _run(["git", "status", "--porcelain", "--untracked-files=no"], timeout)
    return {"sha": sha.strip(), "dirty": bool(status and status.strip())}


def gpu_info(timeout: float = 2.0) -> list[dict[str, str]]:
    out = _run(["nvidia-smi", "--query-gpu=name,memory.total,driver_version",
                "--format=csv,noheader"], timeout)
    gpus = []
    for line in (out or "").splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 3:
            gpus.append({"name": parts[0], "memory": parts[1], "driver": parts[2]})
    return gpus


def package_versions() -> dict[str, str]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return versions


def capture_env() -> dict[str, Any]:
    """Environment facts for the manifest. Never raises; slow probes are time-bounded."""
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "hostname": socket.gethostname(),
        "argv": list(sys.argv),
        "git": git_info(),
        "packages": package_versions(),
        "gpus": gpu_info(),
    }
