"""What reading a foreign source costs against reading the same run as an rlprobe recording.

    python bench/import_sources.py                  # 100k steps
    python bench/import_sources.py --steps 10000    # a smaller run (a smoke run)
    python bench/import_sources.py --keep DIR       # write the sources under DIR and reuse them
    python bench/import_sources.py --compare ../before --repeat 5   # also another checkout, in turn

Three sources of one 100k-step run: a ``trainer_state.json`` (30 TRL GRPO keys a log entry,
an eval row every 1000 steps, written as the Trainer writes it: indented, sorted keys), a
TensorBoard event file of 100k steps x 30 tags (written record by record with
tensorboardX's protobuf classes and CRCs, as its SummaryWriter does, without the writer's
per-call overhead) and a W&B run log, ``wandb/offline-run-…/run-<id>.wandb`` (written with
the wandb package's ``wandb_internal_pb2`` classes and framed as wandb-core frames it, without
going through the wandb service, which would take far too long for 100k steps: a ``header``
and a ``run`` record, then for each step the records ``run.log`` makes: two ``summary``
updates and a ``history`` row of the 30 keys as ``train/<key>`` plus ``train/global_step``
and W&B's ``_timestamp``, ``_runtime``, ``_step``; an ``exit`` record at the end). A source
whose writer's package is not installed (tensorboardX, wandb) is skipped, with a message.
Each is measured in a fresh process: the first command on a source
(``RunView.load`` = recognise + import into the cache + load), a later command on the
unchanged source (check the import's note, else recognise + identity check; load the cached
import), and ``RunView.load`` of the equivalent rlprobe recording (the import's output).
Ratios are against the last.
With ``--repeat N``, the later command and the recording are measured N times, in turn, and the
best of each is kept. With ``--compare CHECKOUT``, the same in another checkout (a ``git
worktree`` or ``git archive`` of an earlier revision), into its own cache, in turn with this
one. Every process runs the packages of its checkout and reads its bytecode from a private
cache written by an untimed first run, as an installed package does.

This is a benchmark, not a test: it exits 0 whatever the figures.
"""
from __future__ import annotations

import argparse
import decimal
import json
import math
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import BinaryIO

from doctor_scaling import REPO, bytecode_env, tree_env  # this script's folder is on the path

KEYS = ["loss", "grad_norm", "learning_rate", "num_tokens", "completions/mean_length", "completions/min_length",
        "completions/max_length", "completions/clipped_ratio", "completions/mean_terminated_length",
        "completions/min_terminated_length", "completions/max_terminated_length", "rewards/accuracy/mean",
        "rewards/accuracy/std", "rewards/format/mean", "rewards/format/std", "reward", "reward_std",
        "frac_reward_zero_std", "kl", "entropy", "clip_ratio/low_mean", "clip_ratio/low_min",
        "clip_ratio/high_mean", "clip_ratio/high_max", "clip_ratio/region_mean", "step_time", "epoch",
        "completion_length", "rewards/length/mean", "rewards/length/std"]
assert len(KEYS) == 30

_MEASURE = r"""
import json, os, sys, time
t0 = time.perf_counter()
from rlprobe.doctor import RunView
view = RunView.load(sys.argv[1])
elapsed = time.perf_counter() - t0
from rlprobe.doctor.sources import recording_dir
print(json.dumps({"s": elapsed, "steps": view.n_steps, "recording": str(recording_dir(sys.argv[1]))}))
"""


def _value(step: int, k: int) -> float:
    return round(0.001 * ((step * (k + 7)) % 997) + k, 6)


def write_trainer_state(path: Path, n: int) -> None:
    history = []
    for step in range(1, n + 1):
        history.append({**{key: _value(step, k) for k, key in enumerate(KEYS)}, "step": step})
        if step % 1000 == 0:
            history.append({"eval_loss": 0.5, "eval_reward": 0.4, "eval_runtime": 10.0, "epoch": step / n,
                            "step": step})
    with open(path, "w") as fh:
        json.dump({"global_step": n, "epoch": 1.0, "log_history": history}, fh, indent=2, sort_keys=True)


def write_event_file(folder: Path, n: int) -> None:
    from tensorboardX.proto import event_pb2, summary_pb2
    from tensorboardX.record_writer import masked_crc32c

    folder.mkdir(parents=True, exist_ok=True)
    Event, Summary, Value = event_pb2.Event, summary_pb2.Summary, summary_pb2.Summary.Value
    with open(folder / "events.out.tfevents.1.bench", "wb") as fh:
        def record(data: bytes) -> None:
            header = struct.pack("Q", len(data))
            fh.write(header + struct.pack("I", masked_crc32c(header)) + data + struct.pack("I", masked_crc32c(data)))

        record(Event(wall_time=1.0, file_version="brain.Event:2").SerializeToString())
        tags = [f"train/{key}" for key in KEYS]
        for step in range(1, n + 1):
            for k, tag in enumerate(tags):
                record(Event(wall_time=1.0 + step, step=step,
                             summary=Summary(value=[Value(tag=tag, simple_value=_value(step, k))])).SerializeToString())


# -- a W&B run log -----------------------------------------------------------------------------
# wandb-core's framing (checked against files written by wandb 0.31's ``wandb.init(mode="offline")``,
# byte for byte): a 7-byte file header, then 32 KiB blocks (the header counts in the first) of
# chunks, each a 7-byte header (CRC-32 of the type byte and the data, uint16 length, type) and
# its data; a record too long for the rest of a block goes on in the next as FIRST, MIDDLE…,
# LAST chunks; a block's last bytes, too few for a chunk header, are zeros.
_WANDB_HEADER = struct.pack("<4sHB", b":W&B", 0xBEE1, 0)
_WANDB_BLOCK = 32 * 1024
_WANDB_CHUNK = struct.Struct("<IHB")
_FULL, _FIRST, _MIDDLE, _LAST = 1, 2, 3, 4
_WANDB_RUN_ID = "rlpbench"


class WandbLog:
    """Records framed as wandb-core writes them into ``run-<id>.wandb``."""

    def __init__(self, fh: BinaryIO) -> None:
        self.fh = fh
        fh.write(_WANDB_HEADER)
        self.pos = len(_WANDB_HEADER)

    def write(self, data: bytes) -> None:
        first = True
        while True:
            room = _WANDB_BLOCK - self.pos % _WANDB_BLOCK
            if room < _WANDB_CHUNK.size:
                self.fh.write(bytes(room))
                self.pos += room
                continue
            chunk, data = data[:room - _WANDB_CHUNK.size], data[room - _WANDB_CHUNK.size:]
            kind = (_FIRST if data else _FULL) if first else (_MIDDLE if data else _LAST)
            crc = zlib.crc32(chunk, zlib.crc32(bytes((kind,))))
            self.fh.write(_WANDB_CHUNK.pack(crc, len(chunk), kind) + chunk)
            self.pos += _WANDB_CHUNK.size + len(chunk)
            first = False
            if not data:
                return


def wandb_json(value: int | float) -> str:
    """A number's ``value_json`` as wandb-core writes it (wandb 0.31): an int as it is, a float
    as Go's shortest ``%g`` (3.0 is ``3``, 1234567.0 ``1.234567e+06``, 1e-05 ``1e-05``), NaN and
    the infinities as ``NaN``, ``Infinity``, ``-Infinity``."""
    if isinstance(value, int):
        return json.dumps(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    text = repr(value)  # the shortest digits that read back, as Go's
    if value == 0 or 1e-4 <= abs(value) < 1e6:  # where repr and %g both write it plainly
        return text[:-2] if text.endswith(".0") else text
    sign, digits, exponent = decimal.Decimal(text).normalize().as_tuple()
    power = len(digits) + exponent - 1
    mantissa = str(digits[0]) + ("." + "".join(map(str, digits[1:])) if len(digits) > 1 else "")
    return f"{'-' if sign else ''}{mantissa}e{'-' if power < 0 else '+'}{abs(power):02d}"


def wandb_records(n: int) -> Iterator[bytes]:
    """The records of a run that logs ``n`` steps of the 30 keys (``train/<key>`` and
    ``train/global_step``, as the Trainer logs them through W&B), serialised, in file order."""
    import wandb
    from wandb.proto import wandb_internal_pb2 as pb

    start = 1_767_225_600.0  # 2026-01-01
    num = 0

    def record(**fields) -> bytes:
        nonlocal num
        num += 1
        return pb.Record(num=num, **fields).SerializeToString()

    info = {"stream_id": _WANDB_RUN_ID}
    yield record(header=pb.HeaderRecord(version_info=pb.VersionInfo(producer=wandb.__version__,
                                                                    min_consumer="0.70.0")), _info=info)
    yield record(run=pb.RunRecord(run_id=_WANDB_RUN_ID, project="rlprobe-bench", display_name="bench",
                                  config=pb.ConfigRecord(update=[pb.ConfigItem(key="_wandb", value_json="{}")]),
                                  start_time={"seconds": int(start)}), _info=info)
    runtime_summary = pb.SummaryRecord(update=[pb.SummaryItem(nested_key=["_wandb", "runtime"], value_json="0"),
                                               pb.SummaryItem(key="_runtime", value_json="0")])
    names = [[f"train/{key}"] for key in KEYS] + [["train/global_step"], ["_timestamp"], ["_runtime"], ["_step"]]
    for step in range(1, n + 1):
        values = [wandb_json(_value(step, k)) for k in range(len(KEYS))]
        values += [wandb_json(step), wandb_json(start + 1.5 * step), wandb_json(1.5 * step), wandb_json(step - 1)]
        yield record(summary=runtime_summary)
        yield record(summary=pb.SummaryRecord(update=[pb.SummaryItem(nested_key=key, value_json=value)
                                                      for key, value in zip(names, values, strict=True)]))
        yield record(history=pb.HistoryRecord(item=[pb.HistoryItem(nested_key=key, value_json=value)
                                                    for key, value in zip(names, values, strict=True)],
                                              step=pb.HistoryStep(num=step - 1)))
    yield record(exit=pb.RunExitRecord(), _info=info)


def write_wandb_log(path: Path, n: int) -> None:
    """``path`` is ``…/wandb/offline-run-DATE-ID/run-ID.wandb``; written aside, then renamed, so
    that ``--keep`` never reuses a file cut short."""
    import wandb.proto.wandb_internal_pb2  # noqa: F401  (ImportError: the source is skipped)

    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part")
    with open(part, "wb") as fh:
        log = WandbLog(fh)
        for data in wandb_records(n):
            log.write(data)
    part.rename(path)


def timed(target: Path, cache: Path, env: Mapping[str, str]) -> dict:
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(target)], check=True, capture_output=True, text=True,
                         env={**env, "RLPROBE_CACHE_DIR": str(cache), "OMP_NUM_THREADS": "1"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="write (and reuse) the sources under this directory")
    parser.add_argument("--repeat", type=int, default=1, help="measure later commands and the recording this often")
    parser.add_argument("--compare", type=Path, metavar="CHECKOUT", help="also measure another checkout, in turn")
    args = parser.parse_args()
    n = args.steps
    with tempfile.TemporaryDirectory() as tmp:
        env = tree_env(bytecode_env(Path(tmp) / "pycache"), REPO)
        trees = {"this checkout": env}
        if args.compare:
            trees[str(args.compare)] = tree_env(env, args.compare.resolve())
        for tree_env_ in trees.values():  # bytecode, as an installed package has it
            subprocess.run([sys.executable, "-c", "import rlprobe.doctor.sources, rlprobe.doctor.catalog, "
                            "rlprobe.storage.writer"], env=tree_env_, check=True)
        root = args.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        sources = {"trainer_state.json": root / f"trainer_state-{n}.json", "tensorboard": root / f"tb-{n}",
                   "wandb": root / f"wandb-{n}" / "wandb" / f"offline-run-20260101_000000-{_WANDB_RUN_ID}"
                   / f"run-{_WANDB_RUN_ID}.wandb"}
        writers = {"trainer_state.json": write_trainer_state, "tensorboard": write_event_file,
                   "wandb": write_wandb_log}
        for name, path in list(sources.items()):
            if not path.exists():
                start = time.perf_counter()
                try:
                    writers[name](path, n)
                except ImportError as exc:
                    print(f"  skipped {name}: {(exc.name or str(exc)).split('.')[0]} is not installed", file=sys.stderr)
                    del sources[name]
                    continue
                print(f"  wrote {name} ({n} steps x {len(KEYS)} metrics) in {time.perf_counter() - start:.0f} s",
                      file=sys.stderr)
        print(f"{'source':<20} {'checkout':<16} {'size MB':>8} {'first s':>8} {'later s':>8} {'recording s':>12} "
              f"{'first/rec':>10} {'later/rec':>10}")
        for name, path in sources.items():
            size = sum(p.stat().st_size for p in ([path] if path.is_file() else path.iterdir())) / 2**20
            caches = {label: Path(tmp) / f"cache-{name}-{i}" for i, label in enumerate(trees)}
            first = {label: timed(path, caches[label], tree) for label, tree in trees.items()}
            later: dict[str, list[dict]] = {label: [] for label in trees}
            recording: dict[str, list[dict]] = {label: [] for label in trees}
            for _ in range(args.repeat):
                for label, tree in trees.items():
                    later[label].append(timed(path, caches[label], tree))
                    recording[label].append(timed(Path(first[label]["recording"]), caches[label], tree))
            for label in trees:
                best_later = min(r["s"] for r in later[label])
                best_recording = min(r["s"] for r in recording[label])
                assert {r["steps"] for r in [first[label], *later[label], *recording[label]]} == {n}, label
                print(f"{name:<20} {label[-16:]:<16} {size:>8.1f} {first[label]['s']:>8.2f} {best_later:>8.2f} "
                      f"{best_recording:>12.2f} {first[label]['s'] / best_recording:>9.1f}x "
                      f"{best_later / best_recording:>9.2f}x")


if __name__ == "__main__":
    main()
