"""Every CLI command on every kind of damaged run directory: one line on stderr, the
documented exit code, never a traceback (docs/forensics.md, "Damaged recordings")."""
from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from rlprobe import Recorder
from rlprobe.doctor import diagnose
from rlprobe.doctor.cli import main
from rlprobe.doctor.errors import UnusableInput
from rlprobe.storage import RunWriter

N_STEPS = 40


def record(run: Path, trainer_config: dict | None = None, message: str = "checkpoint saved") -> Path:
    """A small healthy run written through the real Recorder, closed (compacted)."""
    with Recorder(run, algorithm="grpo", run_id=run.name, trainer_config=trainer_config or {"beta": 0.04},
                  capture_env=False, install_handlers=False) as rec:
        for step in range(N_STEPS):
            rec.log_step(step, reward=0.5 + 0.001 * step, kl=0.01, entropy=0.6, loss=0.1, grad_norm=1.0,
                         learning_rate=1e-6)
            rec.log_samples(step, [{"sample_id": f"s{step}-{i}", "prompt_id": f"p{i}", "group_id": f"g{step}",
                                    "prompt": "What is 2 + 2?", "completion": f"It is {4 + i % 2}.",
                                    "reward": float(i % 2), "advantage": float(i % 2) - 0.5, "length": 12}
                                   for i in range(4)], select=False)
            if step == 10:
                rec.log_event("checkpoint", step=step, message=message)
    return run


def crashed(run: Path) -> Path:
    """A run killed after three flushes: part files only, status running."""
    writer = RunWriter(run, {"run_id": run.name, "algorithm": "grpo"})
    for part in range(3):
        writer.write_part([{"step": s, "time": 1.0, "reward_mean": 0.5, "kl_mean": 0.01}
                           for s in range(part * 10, part * 10 + 10)],
                          [{"step": part * 10, "rank": 0, "sample_id": f"s{part}", "completion": "x", "reward": 1.0}])
    return run


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def rewrite(path: Path, change: Callable[[pa.Table], pa.Table], metadata: dict[bytes, bytes] | None) -> None:
    table = change(pq.read_table(path))
    pq.write_table(table.replace_schema_metadata(metadata), path)


def as_strings(*columns: str) -> Callable[[pa.Table], pa.Table]:
    def change(table: pa.Table) -> pa.Table:
        for name in columns:
            index = table.schema.get_field_index(name)
            table = table.set_column(index, name, table.column(name).cast(pa.string()))
        return table
    return change


def edit_manifest(run: Path, **changes: object) -> None:
    manifest = json.loads((run / "manifest.json").read_text())
    manifest.update(changes)
    (run / "manifest.json").write_text(json.dumps(manifest))


def replace_by_directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _part(run: Path, n: int, kind: str = "steps") -> Path:
    return run / "parts" / f"{kind}-{n:08d}.parquet"


WATERMARK = b"rlprobe.watermark"

#: name → (how a healthy or crashed run is damaged, the file the error must name)
UNREADABLE: dict[str, tuple[Callable[[Path], None], str]] = {
    "truncated steps.parquet": (lambda r: truncate(r / "steps.parquet"), "steps.parquet"),
    "truncated samples.parquet": (lambda r: truncate(r / "samples.parquet"), "samples.parquet"),
    "garbage watermark": (lambda r: rewrite(r / "steps.parquet", lambda t: t, {WATERMARK: b"\xffxyz"}),
                          "steps.parquet"),
    "no watermark": (lambda r: rewrite(r / "steps.parquet", lambda t: t, None), "steps.parquet"),
    "step and kl as strings": (lambda r: rewrite(r / "steps.parquet", as_strings("step", "kl_mean"), {WATERMARK: b"1"}),
                               "steps.parquet"),
    "sample reward as strings": (lambda r: rewrite(r / "samples.parquet", as_strings("reward"), {WATERMARK: b"1"}),
                                 "samples.parquet"),
    "manifest not UTF-8": (lambda r: (r / "manifest.json").write_bytes(b'{"format_version": 1, "run_id": "\xff"}'),
                           "manifest.json"),
    "manifest not JSON": (lambda r: (r / "manifest.json").write_text("{not json"), "manifest.json"),
    "manifest counts a list": (lambda r: edit_manifest(r, counts=[1, 2]), "manifest.json"),
    "manifest created_at a string": (lambda r: edit_manifest(r, created_at="yesterday"), "manifest.json"),
    "manifest from the future": (lambda r: edit_manifest(r, format_version=99), "manifest.json"),
    "events.jsonl a directory": (lambda r: replace_by_directory(r / "events.jsonl"), "events.jsonl"),
    "steps.parquet a directory": (lambda r: replace_by_directory(r / "steps.parquet"), "steps.parquet"),
}
#: Damage to a crashed run's part files (no compacted file yet).
UNREADABLE_PARTS: dict[str, tuple[Callable[[Path], None], str]] = {
    "truncated part": (lambda r: truncate(_part(r, 2)), "steps-00000002.parquet"),
    "part with string metrics": (lambda r: rewrite(_part(r, 2), as_strings("reward_mean"), None),
                                 "steps-00000002.parquet"),
    "part that is not Parquet": (lambda r: _part(r, 3, "samples").write_text("PAR1 garbage"),
                                 "samples-00000003.parquet"),
}

#: Damage a command never sees, because it does not read that file.
NOT_READ = {("events.jsonl a directory", "samples")}

COMMANDS = {
    "doctor": ["doctor", "{run}"],
    "doctor --json": ["doctor", "{run}", "--json"],
    "watch": ["watch", "{run}", "--max-ticks", "1", "--poll", "0"],
    "report": ["report", "{run}", "--out", "{tmp}/report.html"],
    "show": ["show", "{run}", "--step", "10"],
    "samples": ["samples", "{run}"],
    "diff": ["diff", "{other}", "{run}"],
}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("pristine")
    return {"closed": record(root / "closed"), "crashed": crashed(root / "crashed")}


def damaged(pristine: dict[str, Path], tmp_path: Path, which: str, damage: Callable[[Path], None]) -> Path:
    run = tmp_path / "runs" / "damaged"
    shutil.copytree(pristine[which], run)
    damage(run)
    return run


def invoke(args: list[str], **where: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [a.format(**where) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def one_line(stderr: str) -> str:
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", [("closed", name) for name in UNREADABLE]
                         + [("crashed", name) for name in UNREADABLE_PARTS], ids=lambda k: k[1])
def test_every_command_refuses_a_damaged_run_naming_the_file(pristine, tmp_path, kind, command) -> None:
    which, name = kind
    damage, file = {**UNREADABLE, **UNREADABLE_PARTS}[name]
    run = damaged(pristine, tmp_path, which, damage)
    code, _, stderr = invoke(COMMANDS[command], run=run, other=pristine["closed"], tmp=tmp_path)
    if (name, command) in NOT_READ:
        assert code == 0 and stderr == "", stderr
        return
    line = one_line(stderr)
    assert code == 2, stderr
    assert line.startswith("rlprobe: error: ") and str(run) in line and file in line, line


@pytest.mark.parametrize("name", UNREADABLE)
def test_ls_lists_the_others_and_flags_a_damaged_manifest(pristine, tmp_path, name) -> None:
    damage, file = UNREADABLE[name]
    run = damaged(pristine, tmp_path, "closed", damage)
    shutil.copytree(pristine["closed"], tmp_path / "runs" / "fine")
    code, stdout, stderr = invoke(["ls", "{root}"], root=tmp_path / "runs")
    assert code == 0, stderr
    assert "fine" in stdout and str(run) in stdout
    if file == "manifest.json":  # ls reads manifests only: damage elsewhere shows when the run is read
        assert "unreadable" in stdout
        line = one_line(stderr)
        assert str(run / "manifest.json") in line and line.startswith("rlprobe: warning: ")
        listed = json.loads(invoke(["ls", "{root}", "--json"], root=tmp_path / "runs")[1])
        assert [r["path"] for r in listed] == [str(tmp_path / "runs" / "fine"), str(run)]
        assert "error" not in listed[0] and "manifest.json" in listed[1]["error"]
    else:
        assert stderr == ""


def bad_events(run: Path) -> None:
    lines = [{"kind": "note", "step": 3, "time": "yesterday", "message": "m", "data": {}},
             {"kind": "note", "step": "three", "time": 5.0, "message": "m", "data": {}},
             {"kind": ["x"], "step": 3, "time": 5.0, "message": "m", "data": {}},
             {"kind": "note", "step": 3, "time": 5.0, "message": "m", "data": "not an object"},
             {"kind": "note", "step": True, "time": 5.0, "message": "m", "data": {}},
             ["not", "an", "object"], 17]
    with open(run / "events.jsonl", "a", encoding="utf-8") as fh:
        fh.write("\n".join(json.dumps(line) for line in lines) + "\nNaN\n" + "[" * 100_000 + "\n")


@pytest.mark.parametrize("command", COMMANDS)
def test_event_lines_of_the_wrong_shape_are_skipped(pristine, tmp_path, command) -> None:
    run = damaged(pristine, tmp_path, "closed", bad_events)
    code, _, stderr = invoke(COMMANDS[command], run=run, other=pristine["closed"], tmp=tmp_path)
    assert code == 0 and stderr == "", stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_lone_surrogates_the_recorder_wrote_are_read_and_printed(tmp_path, command) -> None:
    run = record(tmp_path / "odd", trainer_config={"note\ud800": "a\udfffb", "beta": 0.04}, message="bad \ud800 text")
    other = record(tmp_path / "plain")
    code, stdout, stderr = invoke(COMMANDS[command], run=run, other=other, tmp=tmp_path)
    assert code == 0 and stderr == "", stderr
    if command == "show":
        assert "bad \ufffd text" in stdout
    if command == "diff":
        assert "note\ufffd" in stdout
    if command == "report":
        assert "bad \ufffd text" in (tmp_path / "report.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("command, code, says", [
    ("doctor", 2, "no steps"), ("doctor --json", 2, "no steps"), ("report", 2, "no steps"), ("show", 2, "no steps"),
    ("samples", 2, "no samples"), ("diff", 0, None), ("watch", 0, None),
])
def test_a_run_that_recorded_nothing(tmp_path, command, code, says) -> None:
    run = tmp_path / "empty"
    Recorder(run, run_id="empty", capture_env=False, install_handlers=False).close()
    code_seen, stdout, stderr = invoke(COMMANDS[command], run=run, other=run, tmp=tmp_path)
    assert code_seen == code, stdout + stderr
    if says:
        line = one_line(stderr)
        assert str(run) in line and says in line, line
    else:
        assert stderr == ""


def test_diagnose_refuses_a_run_that_recorded_nothing_as_the_cli_does(tmp_path) -> None:
    """An empty list of findings would read as a healthy run in a Python CI gate."""
    run = tmp_path / "empty"
    Recorder(run, run_id="empty", capture_env=False, install_handlers=False).close()
    with pytest.raises(UnusableInput, match="no steps recorded"):
        diagnose(run)


def test_a_run_with_only_nan_metrics_still_shows_them(tmp_path) -> None:
    run = tmp_path / "nan"
    with Recorder(run, run_id="nan", capture_env=False, install_handlers=False) as rec:
        for step in range(20):
            rec.log_step(step, reward=math.nan, kl=math.nan)
            rec.log_samples(step, [{"sample_id": f"s{step}", "completion": "x", "length": 3}], select=False)
    code, stdout, stderr = invoke(COMMANDS["show"], run=run)
    assert code == 0, stderr
    assert "METRIC" in stdout and "reward_mean" in stdout and "kl_mean" in stdout
    assert "records reward; they record: length" in " ".join(stdout.split())  # why no sample is listed
