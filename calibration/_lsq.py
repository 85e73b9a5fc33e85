"""Levenberg-Marquardt least squares with a numeric Jacobian (numpy only: no scipy)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

__all__ = ["least_squares"]

F64 = NDArray[np.float64]


def least_squares(fun: Callable[[F64], F64], params: F64, iterations: int = 60) -> F64:
    """Parameters (k,) minimising ``sum(fun(params) ** 2)``; ``fun`` returns residuals (n,).

    Numeric forward-difference Jacobian, multiplicative damping; stops when a step
    gains less than 1e-8 of the cost or ``iterations`` are done.
    """
    scale = np.abs(params) * 1e-6 + 1e-7
    res = fun(params)
    cost, lam = float(res @ res), 1e-3
    for _ in range(iterations):
        jac = np.empty((len(res), len(params)))
        for j in range(len(params)):
            step = np.zeros_like(params)
            step[j] = scale[j]
            jac[:, j] = (fun(params + step) - res) / scale[j]
        jtj, jtr = jac.T @ jac, jac.T @ res
        improved = False
        for _ in range(10):
            damped = jtj + lam * np.diag(np.diag(jtj) + 1e-12)
            try:
                delta = np.linalg.solve(damped, -jtr)
            except np.linalg.LinAlgError:
                lam *= 10.0
                continue
            trial = params + delta
            trial_res = fun(trial)
            trial_cost = float(trial_res @ trial_res)
            if trial_cost < cost:
                gain = cost - trial_cost
                params, res, cost, lam = trial, trial_res, trial_cost, max(lam / 3.0, 1e-9)
                improved = True
                break
            lam *= 4.0
        if not improved or gain < 1e-8 * cost:
            break
    return params
