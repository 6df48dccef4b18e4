"""How the libraries under a command allocate memory and use threads, in the process the
``rlprobe`` command runs in: it reads a run, diagnoses it and exits, and what suits a
long-lived server does not suit it. Each library reads its setting once, as it loads, from an
environment variable; ``prepare`` sets the ones not set already (a user's own setting wins) for
the libraries not loaded yet, and ``restore`` puts the environment back once the command's
module has loaded them, so that a command this one starts (``watch --on-critical``) inherits
the user's environment, not these.

On a 100k-step recording (docs/benchmarks.md, issue 30) they take a whole ``rlprobe doctor``
process from ~385 to ~290 MiB at its peak, and from ~1.04 to ~0.81 s of CPU:

- Arrow allocates with the C library's ``malloc`` instead of its mimalloc pool, which keeps
  what a Parquet read decoded through and let go of (~70 MB).
- Polars' jemalloc keeps one arena: what one detector thread frees, the other reuses, where
  an arena a thread keeps what it freed (~25 MB); the C library's ``malloc`` (numpy's, and
  now Arrow's) keeps one arena too (``mallopt``, ~15 MB).
- numpy's OpenBLAS runs on one thread: its products here are over a run's steps, too short to
  share, and its second thread spins against the detectors' own (~0.2 s of CPU).

Not for a caller's process: where a library is loaded already (tests, a notebook that runs
``main``), its setting is left alone.
"""
from __future__ import annotations

import os
import sys
import threading

__all__ = ["prepare", "restore"]

#: library module → (environment variable, value) it reads as it loads.
SETTINGS = {
    "pyarrow": ("ARROW_DEFAULT_MEMORY_POOL", "system"),
    "polars": ("_RJEM_MALLOC_CONF", "narenas:1"),  # Polars appends it to its own jemalloc settings
    "numpy": ("OPENBLAS_NUM_THREADS", "1"),
}
#: glibc's ``mallopt`` parameter for the most arenas its ``malloc`` keeps.
_M_ARENA_MAX = -8

_set: list[str] = []


def prepare() -> None:
    """Set what the libraries not loaded yet read as they load; call before any of them is imported."""
    for module, (variable, value) in SETTINGS.items():
        if module not in sys.modules and variable not in os.environ:
            os.environ[variable] = value
            _set.append(variable)
    if "numpy" not in sys.modules and threading.active_count() == 1:
        import ctypes

        mallopt = getattr(ctypes.CDLL(None), "mallopt", None)  # glibc's; musl and macOS have none
        if mallopt is not None:
            mallopt(_M_ARENA_MAX, 1)


def restore() -> None:
    """Unset what ``prepare`` set, once the libraries have read it (idempotent)."""
    while _set:
        os.environ.pop(_set.pop(), None)
