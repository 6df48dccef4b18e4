"""LiveDoctor on its own, over a recording written by a real Recorder (no trainer needed)."""
from __future__ import annotations

import warnings

from rlprobe import Recorder
from rlprobe.doctor.toolkit.confidence import UNCALIBRATED_ENV
from rlprobe.integrations.trl.live import LiveDoctor


class SurerThanAtFirst:
    """Halts on a critical KL_BLOWUP only once the doctor is surer of it than when it first
    called it critical."""

    def __init__(self) -> None:
        self.first_confidence: float | None = None
        self.asked: list[float] = []

    def should_halt(self, finding) -> bool:
        if finding.signature_id != "KL_BLOWUP" or finding.severity != "critical":
            return False
        self.asked.append(finding.confidence)
        if self.first_confidence is None:
            self.first_confidence = finding.confidence
        return finding.confidence > self.first_confidence + 0.01


def test_a_finding_turned_down_for_confidence_is_asked_about_again(tmp_path, monkeypatch):
    """The watcher reports a signature once per severity; the halt decision must still see
    the doctor grow surer of it."""
    # The detector's own strength of evidence, which grows with the KL: the printed (calibrated) confidence is
    # a step of the corpus's reliability table, flat across a bin.
    monkeypatch.setenv(UNCALIBRATED_ENV, "1")
    run_dir = tmp_path / "run"
    policy = SurerThanAtFirst()
    doctor = LiveDoctor(str(run_dir), policy=policy, on_finding=None, every=10, config=None, is_main=True)
    halted_at, verdict = None, None
    kl = 0.01
    with Recorder(run_dir, capture_env=False, install_handlers=False) as recorder, warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy on all-NaN warm-up windows
        for step in range(1, 301):
            kl = 0.01 if step < 30 else min(kl * 1.15, 50.0)  # KL to the reference runs away from step 30
            recorder.log_step(step, kl=kl, reward=0.5)
            if doctor.due(step):
                verdict = doctor.diagnose(step, flush=recorder.flush)
                if verdict is not None:
                    halted_at = step
                    break
    assert verdict is not None and verdict.signature_id == "KL_BLOWUP"
    assert verdict.confidence > policy.first_confidence
    # Turned down when first reported, halted at a later diagnosis.
    reported = [f for f in doctor.findings if f.signature_id == "KL_BLOWUP"]
    assert reported and verdict not in reported and halted_at % 10 == 0
    assert len(policy.asked) >= 2


def test_without_a_policy_nothing_halts_and_findings_still_flow(tmp_path):
    run_dir = tmp_path / "run"
    seen = []
    doctor = LiveDoctor(str(run_dir), policy=None, on_finding=seen.append, every=25, config=None, is_main=True)
    with Recorder(run_dir, capture_env=False, install_handlers=False) as recorder, warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for step in range(1, 201):
            recorder.log_step(step, kl=0.01 if step < 50 else 5.0, reward=0.5)
            if doctor.due(step):
                assert doctor.diagnose(step, flush=recorder.flush) is None
    assert "KL_BLOWUP" in {f.signature_id for f in seen} and seen == doctor.findings
