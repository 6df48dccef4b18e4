"""How a curve stood over an episode against the run's opening level: the fact that reads one curve in
the light of another's collapse (a gradient norm rising in a policy whose entropy collapsed, an entropy
rising over completions that shrank to a token or two)."""
from __future__ import annotations

from ..toolkit import COLLAPSED, episode_median, finite_median, logged
from ..view import RunView

__all__ = ["collapsed"]

#: Logged points a curve needs before its opening level means anything.
_MIN_POINTS = 10


def collapsed(view: RunView, names: tuple[str, ...], first: int, last: int) -> tuple[float, float] | None:
    """(opening, during) for the first of ``names`` the run logs: its median over the run's first
    tenth (at least 3 logged values) and over steps ``first`` to ``last``, when the latter is at most
    ``COLLAPSED`` of the former; None otherwise (or when it is not logged)."""
    curve = logged(view, *names)
    if curve is None or curve.size < _MIN_POINTS:
        return None
    opening = finite_median(curve.values[:max(3, curve.size // 10)])
    during = episode_median(view, names, first, last)
    if opening is None or during is None or not opening > 0:
        return None
    return (opening, during) if during <= COLLAPSED * opening else None
