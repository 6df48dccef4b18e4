"""HF Trainer / TRL sources built here in the shapes the Trainer writes them: trainer_state.json
(NaN/Infinity literals, null metrics, eval rows, the summary), output_dir with checkpoints,
JSON lists of log dicts, console captures; and the one-line errors for bad files."""
from __future__ import annotations

import io
import json
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from rlprobe.doctor import RunView, UnusableInput, diagnose
from rlprobe.doctor.sources import import_source, list_source_runs, recording_dir, resolve
from rlprobe.doctor.sources.pickled_args import read_training_args

RLPROBE = str(Path(sys.executable).parent / "rlprobe")


def _train(step: int, **extra: float | None) -> dict:
    row = {"loss": 0.01 * step, "grad_norm": 0.5, "learning_rate": 1e-6, "reward": 0.1 + 0.001 * step,
           "reward_std": 0.3, "kl": 0.001 * step, "entropy": 0.6, "completions/mean_length": 40.0,
           "epoch": step / 100, "step": step}
    row.update(extra)
    return row


def _state(history: list[dict], global_step: int) -> str:
    return json.dumps({"global_step": global_step, "epoch": 1.0, "log_history": history}, indent=2)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([RLPROBE, *args], capture_output=True, text=True, timeout=300)


def test_trainer_state_with_nan_infinity_null_eval_rows_and_summary(tmp_path):
    history = [_train(s) for s in range(1, 31)]
    history[9]["grad_norm"] = float("nan")
    history[10]["loss"] = float("inf")
    history[11]["kl"] = None
    history.insert(20, {"eval_loss": 0.7, "eval_reward": 0.42, "eval_runtime": 3.0, "epoch": 0.2, "step": 20})
    history.append({"train_runtime": 100.0, "train_loss": 0.2, "total_flos": 0.0, "epoch": 0.3, "step": 30})
    path = tmp_path / "trainer_state.json"
    path.write_text(_state(history, 30))
    assert "NaN" in path.read_text() and "Infinity" in path.read_text()
    view = RunView.load(path)
    assert view.n_steps == 30
    assert np.isnan(view.series("grad_norm")[9]) and np.isinf(view.series("loss")[10])
    assert np.isnan(view.series("kl_mean")[11])
    assert view.series("eval_reward")[19] == 0.42 and view.series("reward_mean")[19] == pytest.approx(0.12)
    assert "eval_loss" in view.metric_names() and view.series("loss")[19] == pytest.approx(0.2)
    summary = view.events_of("train_summary")
    assert len(summary) == 1 and summary[0]["data"]["train_runtime"] == 100.0
    assert "train_runtime" not in view.metric_names()


def test_output_dir_merges_the_newest_checkpoint_with_the_root_state(tmp_path):
    out = tmp_path / "out"
    for n in (10, 20):
        (out / f"checkpoint-{n}").mkdir(parents=True)
        (out / f"checkpoint-{n}" / "trainer_state.json").write_text(_state([_train(s) for s in range(1, n + 1)], n))
    root = [_train(s) for s in range(1, 26)] + [{"train_runtime": 9.0, "train_loss": 0.1, "total_flos": 1.0,
                                                  "step": 25}]
    (out / "trainer_state.json").write_text(_state(root, 25))
    view = RunView.load(out)
    assert view.n_steps == 25 and len(view.events_of("train_summary")) == 1
    only_checkpoints = tmp_path / "ck"
    (only_checkpoints / "checkpoint-20").mkdir(parents=True)
    (only_checkpoints / "checkpoint-20" / "trainer_state.json").write_text(
        (out / "checkpoint-20" / "trainer_state.json").read_text())
    assert RunView.load(only_checkpoints).n_steps == 20
    assert RunView.load(only_checkpoints / "checkpoint-20").n_steps == 20


def test_a_json_list_of_log_dicts_whatever_its_name(tmp_path):
    path = tmp_path / "whatever.txt"
    path.write_text(json.dumps([{k: v for k, v in _train(s).items() if k != "step"} for s in range(1, 41)]))
    view = RunView.load(path)
    assert view.n_steps == 40 and list(view.step[:3]) == [1, 2, 3]
    assert any("carry no step" in e["message"] for e in view.events_of("import_note"))


def test_console_output_with_bars_colours_string_values_and_verl_lines(tmp_path):
    lines = ["Loading model...\n", "\x1b[32mINFO\x1b[0m starting\n"]
    for s in range(1, 26):
        d = {k: v for k, v in _train(s).items() if k != "step"}
        d["reward"] = f"{d['reward']:.4g}"  # printed as a string, as with the default progress bar
        lines.append(f"\r  {s * 4}%|███▏      | {s}/25 [00:{s:02d}<00:10]\x1b[A\n{d!r}\n")
    lines.append("{'role': 'user', 'content': 'not a log dict'}\n")
    lines.append(repr({"train_runtime": 5.0, "train_samples_per_second": 1.0, "train_loss": 0.1, "epoch": 0.25}))
    path = tmp_path / "slurm-123.out"
    path.write_text("".join(lines))
    view = RunView.load(path)
    assert view.n_steps == 25 and view.series("reward_mean")[4] == pytest.approx(0.105)
    verl = tmp_path / "verl.log"
    verl.write_text("".join(
        f"\x1b[36m(main_task pid=1)\x1b[0m step:{s} - actor/pg_loss:-0.01 - critic/score/mean:{0.1 * s:.3f} - "
        f"actor/entropy:0.5 - actor/ppo_kl:0.0 - actor/kl_loss:{0.001 * s} - response_length/mean:np.float64(300.0)"
        f" - training/global_step:{s}\n" for s in range(1, 11)) + "step:10 - val-core/acc:0.5\n")
    view = RunView.load(verl)
    assert view.n_steps == 10 and view.series("reward_mean")[2] == pytest.approx(0.3)
    assert view.series("length_mean")[0] == 300.0 and view.series("val-core/acc")[-1] == 0.5
    assert "actor/ppo_kl" in view.metric_names() and view.series("kl_mean")[0] == pytest.approx(0.001)


def test_training_args_bin_is_read_without_torch_or_running_code(tmp_path):
    torch = pytest.importorskip("torch")
    from trl import GRPOConfig

    args = GRPOConfig(output_dir=str(tmp_path / "o"), beta=0.07, num_generations=4, use_cpu=True, bf16=False,
                      report_to=[], loss_type="dr_grpo")
    path = tmp_path / "training_args.bin"
    torch.save(args, path)
    code = ("import sys; sys.modules['torch'] = None; sys.modules['trl'] = None; sys.modules['transformers'] = None\n"
            "from rlprobe.doctor.sources.pickled_args import read_training_args\n"
            f"name, config = read_training_args({str(path)!r})\n"
            "import json; print(json.dumps([name, config['beta'], config['num_generations'], config['loss_type'],"
            " config['lr_scheduler_type'], config['save_strategy']]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["GRPOConfig", 0.07, 4, "dr_grpo", "linear", "steps"]


class _Exploit:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (__import__("os").system, (f"touch {self.marker}",))


def test_a_malicious_training_args_bin_runs_nothing(tmp_path):
    marker = tmp_path / "pwned"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("training_args/data.pkl", pickle.dumps(_Exploit(marker), protocol=2))
        archive.writestr("training_args/version", "3\n")
    path = tmp_path / "training_args.bin"
    path.write_bytes(buf.getvalue())
    with pytest.raises(ValueError, match="no arguments object"):
        read_training_args(path)
    assert not marker.exists()
    out = tmp_path / "out" / "checkpoint-5"
    out.mkdir(parents=True)
    (out / "trainer_state.json").write_text(_state([_train(s) for s in range(1, 6)], 5))
    (out / "training_args.bin").write_bytes(buf.getvalue())
    view = RunView.load(tmp_path / "out")
    assert view.n_steps == 5 and not marker.exists()
    assert any("config not read" in e["message"] for e in view.events_of("import_note"))


@pytest.mark.parametrize("content, message", [
    ('{"global_step": 3, "log_history": [{"loss": 0.1, "step": 1}, {"loss"', "not valid JSON"),
    ('{"global_step": 3, "log_history": 7}', "without a log_history list"),
    ('{"log_history": []}', "log history is empty"),
    ('[{"name": "a"}, {"name": "b"}, {"loss": 1}]', None),
])
def test_bad_or_partial_files_are_one_line_naming_the_file_exit_2(tmp_path, content, message):
    path = tmp_path / "trainer_state.json"
    path.write_text(content)
    done = _cli("doctor", str(path))
    if message is None:
        assert done.returncode in (0, 1), done.stderr
        return
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and str(path) in done.stderr and message in done.stderr


def test_an_unrecognised_path_lists_the_formats(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello\n")
    for command in (["doctor"], ["report"], ["show", "--step", "1"], ["samples"], ["import"]):
        args = command[:1] + [str(path)] + command[1:] + ([str(tmp_path / "x")] if command == ["import"] else [])
        done = _cli(*args)
        assert done.returncode == 2, (command, done.stderr)
        assert "not an rlprobe recording or a known log format" in done.stderr and "console output" in done.stderr
        assert done.stderr.count("\n") == 1


def test_import_round_trips_and_importing_again_replaces(tmp_path):
    first = tmp_path / "a.json"
    first.write_text(json.dumps([_train(s) for s in range(1, 21)]))
    second = tmp_path / "b.json"
    second.write_text(json.dumps([_train(s, kl=0.5 * s) for s in range(1, 11)]))
    out = tmp_path / "imported"
    assert _cli("import", str(first), str(out)).returncode == 0
    assert RunView.load(out).n_steps == 20
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["format_version"] == 1 and manifest["algorithm"] == "grpo"
    assert manifest["imported_from"]["format"] == "trainer"
    assert _cli("import", str(second), str(out)).returncode == 0
    view = RunView.load(out)
    assert view.n_steps == 10 and view.series("kl_mean")[-1] == 5.0
    assert [f.signature_id for f in diagnose(out)] == [f.signature_id for f in diagnose(second)]
    diff = _cli("diff", str(first), str(out), "--json")
    assert diff.returncode == 0, diff.stderr


def test_the_cache_follows_the_source(tmp_path):
    path = tmp_path / "log.json"
    path.write_text(json.dumps([_train(s) for s in range(1, 11)]))
    first = recording_dir(path)
    assert recording_dir(path) == first
    path.write_text(json.dumps([_train(s) for s in range(1, 16)]))
    second = recording_dir(path)
    assert second != first and not first.exists()
    assert RunView.load(path).n_steps == 15


def test_a_live_view_of_a_growing_log_sees_new_steps(tmp_path):
    path = tmp_path / "job.out"
    path.write_text("".join(repr({k: v for k, v in _train(s).items() if k != "step"}) + "\n" for s in range(1, 6)))
    view = RunView.load(path)
    assert view.n_steps == 5
    with open(path, "a") as fh:
        fh.write(repr({k: v for k, v in _train(6).items() if k != "step"}) + "\n")
    assert view.refresh() and view.n_steps == 6


def test_single_run_sources_take_no_name(tmp_path):
    path = tmp_path / "log.json"
    path.write_text(json.dumps([_train(s) for s in range(1, 11)]))
    assert list_source_runs(path)[1] == []
    with pytest.raises(UnusableInput, match="single run"):
        resolve(f"{path}#other")
    assert import_source(path, tmp_path / "out").is_dir()


def test_import_never_empties_a_directory_that_is_not_a_recording(tmp_path):
    source = tmp_path / "log.json"
    source.write_text(json.dumps([_train(s) for s in range(1, 11)]))
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me")
    done = _cli("import", str(source), str(precious))
    assert done.returncode == 2 and "neither empty nor an rlprobe recording" in done.stderr
    assert (precious / "notes.txt").read_text() == "keep me"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _cli("import", str(source), str(empty)).returncode == 0 and RunView.load(empty).n_steps == 10


def test_render_report_takes_a_source_and_writes_beside_a_file(tmp_path):
    from rlprobe.doctor import render_report

    path = tmp_path / "job.json"
    path.write_text(json.dumps([_train(s) for s in range(1, 31)]))
    written = render_report(path)
    assert written == tmp_path / "job.json.report.html" and "<html" in written.read_text()[:2000].lower()
