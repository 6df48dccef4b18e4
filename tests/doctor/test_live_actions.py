"""``CommandAction`` and ``StopFile``, the sinks behind ``rlprobe watch --on-critical`` and
``--on-critical-file``: they act once, on the first finding the policy halts on, hand the
finding over as data, and never raise."""
from __future__ import annotations

import json
import time
from pathlib import Path

from rlprobe.doctor.findings import Finding
from rlprobe.doctor.live import ActionResult, CommandAction, HaltPolicy, StopFile


def _finding(signature: str = "KL_BLOWUP", severity: str = "critical", confidence: float = 0.9) -> Finding:
    return Finding(signature_id=signature, severity=severity, confidence=confidence, first_step=400,
                   explanation="KL to the reference rose from 0.01 to 2.0; $(rm -rf /) `x` stays text")


def test_the_command_runs_once_with_the_finding_on_stdin_and_in_the_environment(tmp_path: Path) -> None:
    out = tmp_path / "seen"
    reports: list[ActionResult] = []
    action = CommandAction(f'cat > {out}.json; printf %s "$RLPROBE_EXPLANATION" > {out}.env; echo done',
                           "job.out", report=reports.append)
    action(_finding(severity="warn"))  # below the default policy: nothing
    assert action.result is None and not out.with_suffix(".json").exists()
    action(_finding())
    action(_finding("ENTROPY_COLLAPSE"))  # once: the second critical runs nothing
    assert len(reports) == 1 and reports[0].exit_code == 0 and reports[0].output == "done\n"
    sent = json.loads(out.with_suffix(".json").read_text())
    assert sent == {"run": "job.out", **_finding().model_dump(mode="json")}
    # Text from the finding reaches the command as data, never as shell code.
    assert out.with_suffix(".env").read_text() == _finding().explanation


def test_a_hung_command_is_killed_and_reported(tmp_path: Path) -> None:
    reports: list[ActionResult] = []
    action = CommandAction("echo started; sleep 30", "job.out", report=reports.append, timeout=0.5)
    start = time.monotonic()
    action(_finding())
    assert time.monotonic() - start < 10
    assert reports[0].exit_code is None and reports[0].error == "killed after 0.5 s"


def test_a_policy_chooses_what_acts(tmp_path: Path) -> None:
    stop = tmp_path / "STOP"
    sink = StopFile(stop, "run", policy=HaltPolicy(min_severity="warn", signatures={"ENTROPY_COLLAPSE"}))
    sink(_finding())
    assert not stop.exists()
    sink(_finding("ENTROPY_COLLAPSE", "warn"))
    assert json.loads(stop.read_text())["signature_id"] == "ENTROPY_COLLAPSE"
    assert sink.result is not None and sink.result.exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["STOP"]  # written whole, no temporary left


def test_a_stop_file_that_cannot_be_written_is_reported_not_raised(tmp_path: Path) -> None:
    reports: list[ActionResult] = []
    StopFile(tmp_path / "missing" / "STOP", "run", report=reports.append)(_finding())
    assert reports[0].exit_code is None and "cannot write" in (reports[0].error or "")
