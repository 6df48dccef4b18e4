"""What parsing a 100k-step ``trainer_state.json`` costs with each compiled JSON reader at hand, against
the reader's whole import (issue 30: a first read within 2x a recording's needs the parse itself well
under the recording's ~0.2 s).

    python bench/trainer_state_parsers.py                      # writes the file into a temporary folder
    python bench/trainer_state_parsers.py --keep DIR           # write (and reuse) it under DIR
    python bench/trainer_state_parsers.py --steps 10000        # a smaller run (a smoke run)

Each way is timed in this process, best of ``--repeat``, on the file ``bench/import_sources.py`` writes
(30 TRL GRPO keys a log entry, an eval row every 1000 steps, indented as the Trainer writes it):

- ``orjson.loads`` of the whole document (what the reader does);
- ``pyarrow.json.read_json`` of the ``log_history`` entries as a stream of pretty-printed objects
  (``newlines_in_values``), after rewriting the separators between them;
- ``polars.read_ndjson`` of the entries rewritten one a line (newlines dropped, then put back between them);
- ``hf_trainer.read``: the reader's whole import (parse, Trainer-log rules, columns), without writing it.

The rewrites are timed with the parse they serve. This is a benchmark, not a test: it exits 0 whatever the figures.
"""
from __future__ import annotations

import argparse
import io
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from import_sources import write_trainer_state  # this script's folder is on the path

_OPEN, _CLOSE, _BETWEEN = b'"log_history": [', b"\n  ]", b"\n    },\n    {"


def _entries(data: bytes) -> bytes:
    """The bytes between ``log_history``'s brackets: its entries, indented by 4, comma-separated."""
    return data[data.index(_OPEN) + len(_OPEN):data.rindex(_CLOSE)]


def _orjson(data: bytes) -> int:
    import orjson

    return len(orjson.loads(data)["log_history"])


def _pyarrow(data: bytes) -> int:
    import pyarrow.json as pj

    stream = _entries(data).replace(_BETWEEN, b"\n    }\n    {")
    return int(pj.read_json(io.BytesIO(stream), parse_options=pj.ParseOptions(newlines_in_values=True)).num_rows)


def _polars(data: bytes) -> int:
    import polars as pl

    lines = _entries(data).replace(_BETWEEN, b"}\x00{").replace(b"\n", b"").replace(b"\x00", b"\n")
    return pl.read_ndjson(io.BytesIO(lines), infer_schema_length=None).height


def best(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    times, rows = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        rows = fn()
        times.append(time.perf_counter() - start)
    return min(times), rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="write (and reuse) the file under this directory")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = (args.keep or Path(tmp)) / f"trainer_state-{args.steps}.json"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_trainer_state(path, args.steps)
        from rlprobe.doctor.sources import hf_trainer

        read_bytes, data = best(lambda: len(path.read_bytes()), args.repeat)[0], path.read_bytes()
        ways: dict[str, Callable[[], int]] = {
            "orjson.loads (the reader's parse)": lambda: _orjson(data),
            "pyarrow.json, pretty-printed stream": lambda: _pyarrow(data),
            "polars.read_ndjson, entries a line": lambda: _polars(data),
            "hf_trainer.read (the whole import)": lambda: hf_trainer.read(path).step_table.num_rows,
        }
        print(f"{path.name}: {len(data) / 2**20:.0f} MiB, read in {read_bytes:.3f} s (best of {args.repeat})")
        print(f"{'way':<40} {'best s':>8} {'rows':>8}")
        for name, fn in ways.items():
            seconds, rows = best(fn, args.repeat)
            print(f"{name:<40} {seconds:>8.3f} {rows:>8}")


if __name__ == "__main__":
    main()
