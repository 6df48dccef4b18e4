"""A single extreme step: one logged point of a curve far above everything else the run logged,
back to its level at the next points. Clipping keeps such a step from moving the policy much, so
it matters only when the run did not return to its level after it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..findings import Evidence, Severity
from ..toolkit import Curve, logged
from ..view import RunView
from .metrics import REWARD_METRICS

__all__ = ["EXTREME_RATIO", "ExtremeStep", "extreme_step"]

#: A point this many times the run's median level is extreme. Chosen on the corpus's tune half: its
#: healthy runs' largest single point is 25x their median gradient norm and 36x their median KL.
EXTREME_RATIO = 100.0
#: Logged points on each side of the extreme one that say whether it was alone and what followed.
_SIDE = 5
#: ... it was alone when the median of the points after it is below this share of the extreme ratio.
_ALONE = 0.1
#: The reward did not return when the median after it is lower by this many of its step noise; the
#: KL did not when the median after it is this many times the one before.
_REWARD_Z, _KL_FACTOR = 3.0, 3.0
#: A KL under this (nats a token; PPO's per-sequence sum × ``_SEQUENCE_SCALE``) is back whatever it was
#: before: near the reference, a KL that multiplied from 0.001 to 0.005 moved nowhere (KL_BLOWUP's
#: ``min_level``, under which no KL is a blow-up).
_KL_NEGLIGIBLE, _SEQUENCE_SCALE = 0.1, 50.0


@dataclass(frozen=True)
class ExtremeStep:
    metric: str
    step: int
    value: float
    median: float
    """The run's median (absolute) level of the metric."""
    returned: bool
    """Whether the reward and the KL were back at their levels after it."""
    unreturned: str
    """What did not return (empty when both did)."""

    @property
    def ratio(self) -> float:
        return self.value / self.median if self.median else float("inf")

    @property
    def severity(self) -> Severity:
        """Info for one step the run came back from; warn when it did not."""
        return "info" if self.returned else "warn"

    @property
    def confidence(self) -> float:
        return 0.6 if self.returned else 0.75

    def told(self, quantity: str) -> str:
        """The measured sentence: ``quantity`` names what the step had ("a gradient norm")."""
        after = ("the reward and the KL were back at their levels after it" if self.returned
                 else f"the {self.unreturned} did not come back to its level after it")
        return (f"One step, {self.step}, had {quantity} of {self.value:.3g}, ×{self.ratio:.0f} the run's median "
                f"({self.median:.3g}), and the next steps were back near the median: {after}.")

    def evidence(self) -> Evidence:
        return Evidence(metric=self.metric, window=(self.step, self.step), baseline=self.median, observed=self.value,
                        note=f"one logged step ×{self.ratio:.0f} the run's median; the {_SIDE} points after it "
                             "back near the median")


def extreme_step(view: RunView, curve: Curve | None) -> ExtremeStep | None:
    """The largest point of ``curve`` at ``EXTREME_RATIO`` times its run median or more, and as far above
    the points before it, when the points after it are back near that median (a lasting rise is another
    finding's); None otherwise, and for a curve too short to hold `_SIDE` points either side of one (a strided
    log whose steps without a signal were set aside can hold as few as that)."""
    if curve is None or curve.size < 2 * _SIDE + 1:
        return None
    x = np.abs(curve.values)
    positive = x[x > 0]
    if not positive.size:
        return None
    median = float(np.median(positive))
    i = int(np.argmax(x))
    after = x[i + 1:i + 1 + _SIDE]
    if x[i] < EXTREME_RATIO * median or not after.size or np.median(after) >= _ALONE * EXTREME_RATIO * median:
        return None
    # Extreme next to what the run had logged before it too: a last ordinary point before the metric fell to
    # nothing (a policy whose completions all became one, its gradient cancelling) is far above a median the
    # degenerate tail makes, and is no spike.
    before = x[:i][x[:i] > 0]
    if before.size >= 3 and x[i] < EXTREME_RATIO * float(np.median(before)):
        return None
    step = int(curve.steps[i])
    lost = [name for name, back in (("reward", _reward_back(view, step)), ("KL", _kl_back(view, step))) if not back]
    return ExtremeStep(curve.name, step, float(x[i]), median, not lost, " and ".join(lost))


def _around(curve: Curve, step: int) -> tuple[np.ndarray, np.ndarray]:
    before = curve.values[curve.steps < step][-2 * _SIDE:]
    after = curve.values[curve.steps > step][:2 * _SIDE]
    return before, after


def _reward_back(view: RunView, step: int) -> bool:
    curve = logged(view, *REWARD_METRICS)
    if curve is None:
        return True
    before, after = _around(curve, step)
    if before.size < 3 or after.size < 3:
        return True
    noise = float(np.median(np.abs(np.diff(before)))) or float(np.std(before))
    return float(np.median(after)) >= float(np.median(before)) - _REWARD_Z * noise


def _kl_back(view: RunView, step: int) -> bool:
    curve = logged(view, "kl_mean")
    if curve is None:
        return True
    before, after = _around(curve, step)
    if before.size < 3 or after.size < 3:
        return True
    negligible = _KL_NEGLIGIBLE * (_SEQUENCE_SCALE if view.algorithm == "ppo" else 1.0)
    return float(np.median(after)) <= max(_KL_FACTOR * float(np.median(before)), negligible)
