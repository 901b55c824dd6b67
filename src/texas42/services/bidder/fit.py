"""The fits behind the learned bidder, in numpy: a cumulative logistic with shared weights and
non-increasing level offsets, a plain logistic, and a multinomial logistic over legal classes.

Each fit is deterministic: Newton's method from zero for the first two, full-batch gradient
steps (Adam) from zero for the third, with a small L2 penalty on the weights, so the same rows
give the same weights.
"""

from __future__ import annotations

import numpy as np


def standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each column's mean and spread (1 where a column is constant)."""
    mean = x.mean(axis=0) if len(x) else np.zeros(x.shape[1])
    scale = x.std(axis=0) if len(x) else np.ones(x.shape[1])
    scale = np.where(scale > 1e-9, scale, 1.0)
    return mean, scale


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -40, 40))))


def fit_cumulative(
    z: np.ndarray, points: np.ndarray, levels: tuple[int, ...], l2: float = 1.0, steps: int = 25
) -> tuple[np.ndarray, np.ndarray]:
    """``P(points >= b) = sigmoid(z . w + a_b)`` for each level ``b``: the weights ``w`` shared
    by every level, fitted by Newton's method on the levels' summed log loss; the offsets are
    then made non-increasing in ``b`` (a running minimum), so no chance rises with the bid."""
    d = z.shape[1]
    k = len(levels)
    targets = np.stack([points >= b for b in levels], axis=1).astype(float)  # n x k
    w = np.zeros(d)
    base = targets.mean(axis=0).clip(1e-3, 1 - 1e-3)
    a = np.log(base / (1 - base))
    for _ in range(steps):
        logits = z @ w
        p = _sigmoid(logits[:, None] + a[None, :])
        r = p - targets
        s = p * (1 - p)
        grad_w = z.T @ r.sum(axis=1) + l2 * w
        grad_a = r.sum(axis=0) + 1e-6 * a
        h_ww = (z * s.sum(axis=1)[:, None]).T @ z + l2 * np.eye(d)
        h_wa = z.T @ s  # d x k
        h_aa = np.diag(s.sum(axis=0) + 1e-6)
        hessian = np.block([[h_ww, h_wa], [h_wa.T, h_aa]])
        step = np.linalg.solve(hessian + 1e-9 * np.eye(d + k), np.concatenate([grad_w, grad_a]))
        w -= step[:d]
        a -= step[d:]
        if np.abs(step).max() < 1e-7:
            break
    return w, np.minimum.accumulate(a)


def fit_binary(
    z: np.ndarray, made: np.ndarray, l2: float = 1.0, steps: int = 25
) -> tuple[np.ndarray, np.ndarray]:
    """A logistic ``P(made) = sigmoid(z . w + b)`` by Newton's method."""
    w, a = fit_cumulative(z, made.astype(float), (1,), l2, steps)
    return w, a


def fit_multinomial(
    z: np.ndarray,
    labels: np.ndarray,
    allowed: np.ndarray,
    classes: int,
    l2: float = 1.0,
    steps: int = 400,
    rate: float = 0.05,
) -> tuple[np.ndarray, np.ndarray]:
    """A softmax over ``classes`` restricted to each row's ``allowed`` ones (an n x classes
    bool array): weights (classes x d) and offsets, by full-batch Adam on the mean log loss
    plus ``l2 / n`` times the squared weights."""
    n, d = z.shape
    weights = np.zeros((classes, d))
    offsets = np.zeros(classes)
    onehot = np.zeros((n, classes))
    onehot[np.arange(n), labels] = 1.0
    moments = [np.zeros_like(weights), np.zeros_like(offsets)]
    squares = [np.zeros_like(weights), np.zeros_like(offsets)]
    beta1, beta2 = 0.9, 0.999
    for t in range(1, steps + 1):
        p = softmax(z @ weights.T + offsets, allowed)
        r = (p - onehot) / max(n, 1)
        grads = [r.T @ z + (l2 / max(n, 1)) * weights, r.sum(axis=0)]
        for i, g in enumerate(grads):
            moments[i] = beta1 * moments[i] + (1 - beta1) * g
            squares[i] = beta2 * squares[i] + (1 - beta2) * g * g
            m_hat = moments[i] / (1 - beta1**t)
            v_hat = squares[i] / (1 - beta2**t)
            update = rate * m_hat / (np.sqrt(v_hat) + 1e-8)
            if i == 0:
                weights -= update
            else:
                offsets -= update
    return weights, offsets


def softmax(scores: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Row-wise softmax of ``scores`` over the ``allowed`` classes (others get 0)."""
    s = np.where(allowed, scores, -np.inf)
    s = s - s.max(axis=1, keepdims=True)
    e = np.where(allowed, np.exp(s), 0.0)
    return np.asarray(e / e.sum(axis=1, keepdims=True))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean log loss of chances ``p`` for outcomes ``y`` (0 or 1)."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def brier(p: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((p - y) ** 2))
