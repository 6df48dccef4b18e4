"""The note beside each cached import (``rlprobe.doctor.import_cache``): a later command on an
unchanged source reads its import without loading a reader, and anything that changed what the
readers would decide (a file read, a new checkpoint, a rollout folder filled, an edited reader, a
source written while it was read) sends the command through the readers again."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from rlprobe.doctor import RunView, import_cache, sources
from rlprobe.doctor.sources import recording_dir


def _train(step: int) -> dict:
    return {"loss": 0.01 * step, "grad_norm": 0.5, "learning_rate": 1e-6, "reward": 0.1 + 0.001 * step,
            "reward_std": 0.3, "kl": 0.001 * step, "entropy": 0.6, "epoch": step / 100, "step": step}


def _state(last: int) -> str:
    return json.dumps({"global_step": last, "log_history": [_train(s) for s in range(1, last + 1)]}, indent=2)


def _verl(log: Path, steps: int) -> None:
    with open(log, "w") as fh:
        for s in range(1, steps + 1):
            fh.write(json.dumps({"step": s, "data": {"critic/score/mean": 0.02 * s, "actor/entropy": 0.5,
                                                     "actor/ppo_kl": 1e-4, "actor/grad_norm": 0.3}}) + "\n")


def _rollout(folder: Path, step: int) -> None:
    with open(folder / f"{step}.jsonl", "w") as fh:
        for i in range(8):
            fh.write(json.dumps({"input": f"q{i // 4}", "output": "x" * i, "score": float(i % 2), "step": step}) + "\n")


def _trl_output(out: Path, checkpoints: tuple[int, ...]) -> Path:
    for n in checkpoints:
        (out / f"checkpoint-{n}").mkdir(parents=True, exist_ok=True)
        (out / f"checkpoint-{n}" / "trainer_state.json").write_text(_state(n))
    return out


@pytest.fixture
def readers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each source the readers were asked to recognise (``sources.resolve``)."""
    asked: list[str] = []
    resolve = sources.resolve

    def counted(source: str | os.PathLike[str]) -> sources.Source | None:
        asked.append(os.fspath(source))
        return resolve(source)

    monkeypatch.setattr(sources, "resolve", counted)
    return asked


def _sources(tmp_path: Path) -> dict[str, Path]:
    trainer_state = tmp_path / "state" / "trainer_state.json"
    trainer_state.parent.mkdir()
    trainer_state.write_text(_state(20))
    console = tmp_path / "job" / "slurm-1.out"
    console.parent.mkdir()
    console.write_text("".join(repr({k: v for k, v in _train(s).items() if k != "step"}) + "\n" for s in range(1, 21)))
    verl = tmp_path / "verl" / "exp.jsonl"
    (verl.parent / "rollouts").mkdir(parents=True)
    _verl(verl, 20)
    _rollout(verl.parent / "rollouts", 10)
    return {"trainer_state": trainer_state, "console": console, "verl": verl,
            "output_dir": _trl_output(tmp_path / "out", (10, 20))}


@pytest.mark.parametrize("kind", ["trainer_state", "console", "verl", "output_dir"])
def test_a_later_command_on_an_unchanged_source_loads_no_reader(tmp_path: Path, kind: str, doctor_modules) -> None:
    source = _sources(tmp_path)[kind]
    first = recording_dir(source)
    status, modules, stderr = doctor_modules(source)
    assert status in (0, 1), stderr
    assert "rlprobe.doctor.catalog" in modules and "rlprobe.doctor.import_cache" in modules
    assert sorted(m for m in modules if m.startswith(("rlprobe.doctor.sources", "rlprobe.storage.writer"))) == []
    assert recording_dir(source) == first  # the command read the import, and left it as it was


def test_the_note_leads_to_the_import_the_readers_would_choose(tmp_path: Path, readers: list[str]) -> None:
    for kind, source in _sources(tmp_path).items():
        first = recording_dir(source)
        assert readers == [str(source)], kind
        assert recording_dir(source) == first and readers == [str(source)], kind
        assert RunView.load(source).n_steps == 20
        assert sources.resolve(source).identity() == first.name.split("-", 1)[1], kind  # type: ignore[union-attr]
        readers.clear()


def test_a_changed_file_is_imported_again(tmp_path: Path, readers: list[str]) -> None:
    source = _sources(tmp_path)["trainer_state"]
    first = recording_dir(source)
    source.write_text(_state(25))
    second = recording_dir(source)
    assert second != first and not first.exists() and len(readers) == 2
    assert RunView.load(source).n_steps == 25 and len(readers) == 2


def test_a_new_checkpoint_is_imported_again_even_in_a_folder_that_was_there(tmp_path: Path,
                                                                            readers: list[str]) -> None:
    out = _trl_output(tmp_path / "out", (10, 20))
    (out / "checkpoint-30").mkdir()  # made before the checkpoint is written into it
    assert RunView.load(out).n_steps == 20
    (out / "checkpoint-30" / "trainer_state.json").write_text(_state(30))
    assert RunView.load(out).n_steps == 30 and len(readers) == 2
    _trl_output(out, (40,))
    assert RunView.load(out).n_steps == 40 and len(readers) == 3


def test_a_rollout_folder_filled_beside_a_log_is_imported_again(tmp_path: Path, readers: list[str]) -> None:
    log = tmp_path / "verl" / "exp.jsonl"
    (log.parent / "rollouts").mkdir(parents=True)
    (log.parent / "rollouts" / "notes.txt").write_text("no rollout yet")
    _verl(log, 20)
    assert RunView.load(log).samples.height == 0
    _rollout(log.parent / "rollouts", 10)  # a sub-folder of the log's folder: its own time changes
    assert RunView.load(log).samples.height == 8 and len(readers) == 2


def test_edited_readers_check_the_source_again(tmp_path: Path, readers: list[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    source = _sources(tmp_path)["trainer_state"]
    first = recording_dir(source)
    stamp = import_cache.readers_stamp()
    monkeypatch.setattr(import_cache, "readers_stamp", lambda: [("hf_trainer.py", 1, 1), *stamp])
    assert recording_dir(source) != first and len(readers) == 2


def test_a_damaged_or_dangling_note_is_no_note(tmp_path: Path, readers: list[str]) -> None:
    source = _sources(tmp_path)["console"]
    first = recording_dir(source)
    (note,) = first.parent.glob(f"*{import_cache.NOTE_SUFFIX}")
    for damage in ("{", json.dumps({"version": 1}), json.dumps([1, 2]),
                   note.read_text().replace(first.name, "../elsewhere")):
        note.write_text(damage)
        assert recording_dir(source) == first
    assert len(readers) == 5
    assert recording_dir(source) == first and len(readers) == 5  # noted again, whole
    shutil.rmtree(first)  # the import the note names is gone
    assert recording_dir(source) == first and len(readers) == 6 and (first / "manifest.json").is_file()


def test_a_source_written_while_it_was_read_is_not_noted(tmp_path: Path, readers: list[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    source = _sources(tmp_path)["console"]
    read = sources.Source.read

    def growing(self: sources.Source) -> sources.ImportedRun:
        run = read(self)
        with open(source, "a") as fh:
            fh.write(repr({k: v for k, v in _train(21).items() if k != "step"}) + "\n")
        return run

    monkeypatch.setattr(sources.Source, "read", growing)
    recording_dir(source)
    assert list(import_cache.cache_dir("imports").glob(f"*{import_cache.NOTE_SUFFIX}")) == []
    monkeypatch.setattr(sources.Source, "read", read)
    assert RunView.load(source).n_steps == 21 and len(readers) == 2


def test_a_large_tree_is_left_to_the_readers(tmp_path: Path, readers: list[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    out = _trl_output(tmp_path / "out", (10, 20))
    monkeypatch.setattr(import_cache, "_MAX_ENTRIES", 3)
    first = recording_dir(out)
    assert recording_dir(out) == first and len(readers) == 2
    assert list(first.parent.glob(f"*{import_cache.NOTE_SUFFIX}")) == []


def test_each_spelling_has_its_own_note(tmp_path: Path, readers: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A relative path is noted with the working directory: the same spelling elsewhere is another file."""
    source = _sources(tmp_path)["trainer_state"]
    recording_dir(source)
    monkeypatch.chdir(source.parent)
    here = recording_dir(source.name)
    assert recording_dir(source.name) == here and len(readers) == 2
    assert RunView.load(source.name).n_steps == 20 and len(readers) == 2
    monkeypatch.chdir(tmp_path)
    (tmp_path / source.name).write_text(_state(7))  # the same spelling, another file
    assert RunView.load(source.name).n_steps == 7 and len(readers) == 3


def test_both_spellings_of_one_source_share_its_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A source named by its absolute path and, from its folder, by its relative one is one import: the
    cache keeps one copy, and the second command (another spelling, so another note) finds it made."""
    kinds = _sources(tmp_path)
    for kind, source in kinds.items():
        absolute = recording_dir(source)
        monkeypatch.chdir(source.parent)
        assert recording_dir(source.name) == absolute, kind
        monkeypatch.chdir(tmp_path)
    imports = [p for p in import_cache.cache_dir("imports").iterdir() if p.is_dir() and not p.name.startswith(".")]
    assert len(imports) == len(kinds), [p.name for p in imports]


def test_each_run_of_a_source_has_its_own_note(tmp_path: Path, readers: list[str]) -> None:
    db = tmp_path / "project.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE metrics (id INTEGER PRIMARY KEY, timestamp TEXT, run_id TEXT, run_name TEXT, "
                     "step INTEGER, metrics TEXT)")
        conn.execute("CREATE TABLE configs (id INTEGER PRIMARY KEY, run_id TEXT, run_name TEXT, config TEXT, "
                     "created_at TEXT)")
        for run, steps in (("a", 12), ("b", 8)):
            for s in range(1, steps + 1):
                conn.execute("INSERT INTO metrics (timestamp, run_id, run_name, step, metrics) VALUES (?, ?, ?, ?, ?)",
                             ("2026-01-01T00:00:00", run, run, s, json.dumps({"train/reward": 0.1 * s,
                                                                              "train/kl": 0.01})))
    assert RunView.load(f"{db}#a").n_steps == 12 and RunView.load(f"{db}#b").n_steps == 8 and len(readers) == 2
    assert RunView.load(f"{db}#a").n_steps == 12 and RunView.load(f"{db}#b").n_steps == 8 and len(readers) == 2
