#!/usr/bin/env python3
"""Golden values for the chi-squared critical values of `tests/engine_law.rs`.

Independent of the Rust code (statrs' ChiSquared::inverse_cdf): mpmath at 30 digits, from
closed forms. With 1 degree of freedom the upper a quantile is z^2 with z = sqrt(2)
erfcinv(a) (chi2_1 is the square of a standard normal); with 2 it is -2 ln a (chi2_2 is an
exponential of mean 2). a = 5e-7, half of the comparison's pre-registered level 1e-6.
Run:  python3 verify/golden_chi2.py
"""
import mpmath as mp

mp.mp.dps = 30
a = mp.mpf("5e-7")
z = mp.sqrt(2) * mp.erfinv(1 - a)
print(f"chi2_1 upper {mp.nstr(a, 3)} quantile = {mp.nstr(z**2, 20)}")
print(f"chi2_2 upper {mp.nstr(a, 3)} quantile = {mp.nstr(-2 * mp.log(a), 20)}")
