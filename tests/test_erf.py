"""minigrad.ops._erf: the vectorised erf and erfc agree with Python's correctly rounded ones."""

import math

import numpy as np
import pytest

from minigrad.ops._erf import erf, erfc


def _ulps(got, want):
    diff = np.abs(got - want)
    return np.where(diff == 0, 0, diff / np.maximum(np.spacing(np.abs(want)), 5e-324))


POINTS = np.concatenate([np.linspace(-30, 30, 60001), np.geomspace(1e-300, 1, 300),
                         -np.geomspace(1e-300, 1, 300), [0.46875, 4.0, 26.5, 27.2]])


@pytest.mark.parametrize(("ours", "exact", "ulps"), [(erf, math.erf, 4), (erfc, math.erfc, 8)])
def test_within_a_few_ulps_of_the_math_module(ours, exact, ulps):
    want = np.array([exact(v) for v in POINTS])
    assert _ulps(ours(POINTS), want).max() <= ulps


def test_erfc_keeps_its_digits_where_erf_is_one():
    assert erfc(np.array([10.0]))[0] == pytest.approx(math.erfc(10.0), rel=1e-14)
    assert erf(np.array([10.0]))[0] == 1.0


def test_infinities_nan_and_signed_zero():
    x = np.array([np.inf, -np.inf, np.nan, -0.0])
    np.testing.assert_array_equal(erf(x), [1.0, -1.0, np.nan, -0.0])
    np.testing.assert_array_equal(erfc(x), [0.0, 2.0, np.nan, 1.0])
    assert np.signbit(erf(x)[3])
