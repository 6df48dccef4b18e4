"""The doctor's shortcuts for speed give the answers of the plain computation, to the bit: a
trailing window over a curve that starts with NaN (a shifted curve, another window's output) is
computed on the rest of it, without a null mask."""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from rlprobe.doctor.toolkit import rolling_max, rolling_median, rolling_min, rolling_quantile


def _masked(x: np.ndarray, window: str, **kw: object) -> np.ndarray:
    """The window over ``x`` with every NaN a null: what the toolkit computed before the shortcut."""
    series = pl.Series(x, dtype=pl.Float64).fill_nan(None)
    return getattr(series, window)(**kw).to_numpy()


@pytest.mark.parametrize("lead", [0, 1, 7, 49, 50, 299])
@pytest.mark.parametrize("window,min_samples", [(1, 1), (4, 2), (9, 3), (50, 25), (100, 50)])
def test_trailing_windows_skip_leading_nan_exactly(lead: int, window: int, min_samples: int) -> None:
    rng = np.random.default_rng(lead * 1000 + window)
    x = np.round(rng.standard_normal(300) * 5, 1)  # ties, as quantised metrics have
    x[:lead] = np.nan
    kw = {"window_size": window, "min_samples": min_samples}
    np.testing.assert_array_equal(rolling_median(x, window, min_samples), _masked(x, "rolling_median", **kw))
    np.testing.assert_array_equal(rolling_quantile(x, 0.9, window, min_samples),
                                  _masked(x, "rolling_quantile", quantile=0.9, **kw))
    np.testing.assert_array_equal(rolling_min(x, window), _masked(x, "rolling_min", window_size=window,
                                                                 min_samples=window))
    np.testing.assert_array_equal(rolling_max(x, window), _masked(x, "rolling_max", window_size=window,
                                                                 min_samples=window))


@pytest.mark.parametrize("x", [np.array([]), np.full(5, np.nan), np.array([np.nan, 1.0, np.nan, 2.0, 3.0]),
                               np.array([1.0, 2.0, np.nan, 4.0, 5.0, 6.0])])
def test_other_nan_patterns_keep_the_mask(x: np.ndarray) -> None:
    np.testing.assert_array_equal(rolling_median(x, 3, 1), _masked(x, "rolling_median", window_size=3, min_samples=1))
    np.testing.assert_array_equal(rolling_min(x, 2), _masked(x, "rolling_min", window_size=2, min_samples=2))
