"""`rlprobe ls | doctor | synth` through the real console script and click's runner."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rlprobe.doctor.cli import main

RLPROBE = shutil.which("rlprobe", path=os.path.dirname(sys.executable)) or "rlprobe"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([RLPROBE, *args], capture_output=True, text=True, timeout=120)


def test_doctor_exits_1_on_critical_and_json_is_machine_readable(synth_run):
    run = synth_run("kl_blowup", 400, 1)
    done = run_cli("doctor", str(run), "--json")
    assert done.returncode == 1, done.stderr
    findings = json.loads(done.stdout)
    assert findings[0]["signature_id"] == "KL_BLOWUP"
    assert findings[0]["severity"] == "critical"
    assert set(findings[0]) >= {"signature_id", "severity", "confidence", "first_step", "explanation",
                                "evidence", "suggested_actions", "links_to_samples"}


def test_doctor_human_output_names_the_signature_and_step(synth_run):
    run = synth_run("kl_blowup", 400, 1)
    result = CliRunner().invoke(main, ["doctor", str(run)])
    assert result.exit_code == 1
    assert "KL_BLOWUP" in result.output and "from step" in result.output


def test_doctor_exits_0_on_a_healthy_run(synth_run):
    done = run_cli("doctor", str(synth_run("healthy", 400, 0)))
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("args, message", [
    (["doctor", "/nonexistent/run"], "no rlprobe recording"),
    (["synth", "{tmp}/x", "--pathology", "nonsense"], "valid: healthy"),
    (["ls", "/nonexistent/root"], "no such directory"),
    (["doctor"], "Missing argument 'RUN'"),
    (["doctor", "{tmp}", "--bogus"], "No such option"),
    (["frobnicate"], "No such command"),
])
def test_unusable_input_is_one_line_and_exit_2(args, message, tmp_path):
    done = run_cli(*[a.format(tmp=tmp_path) for a in args])
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_bare_rlprobe_prints_help_and_lists_every_command():
    done = run_cli()
    assert done.returncode == 0
    for command in ("ls", "doctor", "watch", "report", "show", "samples", "diff", "synth"):
        assert f"  {command} " in done.stdout


def test_bad_config_is_one_line_naming_valid_choices(synth_run, tmp_path):
    run = synth_run("healthy", 400, 0)
    bad_detector = tmp_path / "a.toml"
    bad_detector.write_text("[no_such_detector]\nenabled = false\n")
    bad_key = tmp_path / "b.toml"
    bad_key.write_text("[kl_blowup]\nlevel_typo = 3\n")
    done = run_cli("doctor", str(run), "--config", str(bad_detector))
    assert done.returncode == 2 and "KL_BLOWUP" in done.stderr and "no_such_detector" in done.stderr
    done = run_cli("doctor", str(run), "--config", str(bad_key))
    assert done.returncode == 2 and "critical_level" in done.stderr and "level_typo" in done.stderr


def test_config_can_disable_a_detector(synth_run, tmp_path):
    run = synth_run("kl_blowup", 400, 1)
    config = tmp_path / "doctor.toml"
    config.write_text("[kl_blowup]\nenabled = false\n")
    done = run_cli("doctor", str(run), "--json", "--config", str(config))
    assert "KL_BLOWUP" not in {f["signature_id"] for f in json.loads(done.stdout)}


def test_ls_lists_runs_with_their_facts(synth_run, tmp_path):
    root = tmp_path / "runs"
    for name, pathology in (("a", "healthy"), ("b", "kl_blowup")):
        shutil.copytree(synth_run(pathology, 400, 1 if pathology != "healthy" else 0), root / name)
    result = CliRunner().invoke(main, ["ls", str(root), "--json"])
    assert result.exit_code == 0
    rows = json.loads(result.output)
    assert {Path(r["path"]).name for r in rows} == {"a", "b"}
    assert all(r["steps"] == 400 and r["status"] == "finished" and r["algorithm"] for r in rows)
    human = CliRunner().invoke(main, ["ls", str(root)])
    assert "synth-kl_blowup-s1" in human.output and "STATUS" in human.output


def test_synth_writes_a_readable_run_and_reports_onset(tmp_path):
    result = CliRunner().invoke(main, ["synth", str(tmp_path / "r"), "--pathology", "healthy",
                                       "--n-steps", "120", "--seed", "3"])
    assert result.exit_code == 0, result.output
    from rlprobe.storage import RunReader

    reader = RunReader(tmp_path / "r")
    assert reader.steps().num_rows == 120
    assert reader.manifest["status"] == "finished"
