"""The one error a reader raises for a recording it cannot read as rlprobe wrote it."""
from __future__ import annotations

import os
from pathlib import Path

__all__ = ["RecordingError"]


class RecordingError(ValueError):
    """A file of a recording is damaged or is not what rlprobe writes: a truncated or
    foreign Parquet file, columns of the wrong type, a manifest that is not UTF-8 JSON or
    holds fields of the wrong type, an unknown format version.

    ``run_dir`` is the run (or rank) directory, ``path`` the file, ``problem`` what is wrong;
    ``str()`` is one line naming the file, for a command line to print as it is.
    """

    def __init__(self, run_dir: str | os.PathLike[str], path: str | os.PathLike[str], problem: str) -> None:
        self.run_dir = Path(run_dir)
        self.path = Path(path)
        self.problem = " ".join(str(problem).split())  # one line, whatever a library's message holds
        # A URL keeps its "//", which Path would fold.
        where = path if isinstance(path, str) and "://" in path else self.path
        super().__init__(f"{where}: {self.problem}")

    def __reduce__(self) -> tuple[type, tuple[Path, Path, str]]:
        return type(self), (self.run_dir, self.path, self.problem)
