"""The training loop: targets to heatmaps, CenterNet-style losses, augmentation.

Heat targets are Gaussians (sigma ``_SIGMA`` cells) peaking at 1 on the cell that
holds the centre; the focal loss of CenterNet (alpha 2, beta 4) over every cell except
those near an ignored ball (mostly under the player). A dotted white shows its dots
only half the time, so near a dotted ball the ``white`` channel is ignored (it may
fire); a plain white never shows dots, so the ``dotted`` channel must stay low on it.
Offset and streak are L1 losses on the centre cells of balls to find.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import NDArray

from train._model import BallNet
from vision.detect import BALL_PX, STRIDE

__all__ = ["FitResult", "fit", "normalise"]

_SIGMA = 0.8
_WHITE, _DOTTED = 0, 1


def normalise(crops: NDArray[np.floating] | NDArray[np.uint8]) -> torch.Tensor:
    """(B, H, W, 3) BGR 0..255 -> (B, 3, H, W) float32 network input."""
    x = torch.from_numpy(np.ascontiguousarray(crops, dtype=np.float32))
    return ((x / 255.0 - 0.5) / 0.25).permute(0, 3, 1, 2).contiguous()


def _augment(
    rng: np.random.Generator, crops: NDArray[np.uint8], targets: NDArray[np.float32]
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Dihedral flips and photometric jitter (gain, colour balance, gamma, noise)."""
    n = crops.shape[1]
    x = crops.astype(np.float32)
    t = targets.copy()
    for i in range(len(x)):
        if rng.random() < 0.5:
            x[i] = x[i, :, ::-1]
            t[i, :, 1], t[i, :, 3] = n - 1 - t[i, :, 1], -t[i, :, 3]
        if rng.random() < 0.5:
            x[i] = x[i, ::-1]
            t[i, :, 2], t[i, :, 4] = n - 1 - t[i, :, 2], -t[i, :, 4]
        if rng.random() < 0.5:
            x[i] = x[i].transpose(1, 0, 2)
            t[i, :, [1, 2]] = t[i, :, [2, 1]]
            t[i, :, [3, 4]] = t[i, :, [4, 3]]
    b = len(x)
    gain = rng.uniform(0.75, 1.25, (b, 1, 1, 1)) * rng.uniform(0.94, 1.06, (b, 1, 1, 3))
    gamma = rng.uniform(0.8, 1.25, (b, 1, 1, 1))
    y = 255.0 * np.clip(x * gain / 255.0, 0, 1) ** gamma
    y += rng.normal(0, 1, y.shape) * rng.uniform(0, 4, (b, 1, 1, 1))
    return np.clip(y, 0, 255).astype(np.float32), t


def _maps(t: torch.Tensor, g: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Heat targets (B, 4, g, g) and the loss mask (B, 4, g, g) from targets (B, K, 6)."""
    b, k, _ = t.shape
    q = (t[..., 1:3] + 0.5) / STRIDE
    cell = torch.floor(q)
    grid = torch.arange(g, dtype=torch.float32)
    du = grid.view(1, 1, 1, g) - cell[..., 0].view(b, k, 1, 1)
    dv = grid.view(1, 1, g, 1) - cell[..., 1].view(b, k, 1, 1)
    d2 = du * du + dv * dv
    gauss = torch.exp(-d2 / (2 * _SIGMA**2))
    heat = torch.zeros(b, 4, g, g)
    mask = torch.ones(b, 4, g, g)
    cls = t[..., 0].long()
    for j in range(k):
        present = cls[:, j] >= 0
        find = present & (t[:, j, 5] > 0.5)
        for c in range(4):
            sel = find & (cls[:, j] == c)
            heat[sel, c] = torch.maximum(heat[sel, c], gauss[sel, j])
        near = (d2[:, j] <= 4.0).float()
        ignore = present & (t[:, j, 5] <= 0.5)
        mask[ignore] *= (1 - near[ignore]).unsqueeze(1)
        dotted = find & (cls[:, j] == _DOTTED)
        mask[dotted, _WHITE] *= 1 - (d2[dotted, j] <= 2.0).float()
    return heat, mask


def _loss(out: torch.Tensor, t: torch.Tensor) -> tuple[torch.Tensor, dict[str, float]]:
    g = out.shape[-1]
    heat, mask = _maps(t, g)
    p = torch.sigmoid(out[:, :4]).clamp(1e-4, 1 - 1e-4)
    pos = (heat >= 0.999).float()
    focal = -(
        pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * (1 - heat) ** 4 * p**2 * torch.log(1 - p)
    )
    n_pos = max(float(pos.sum()), 1.0)
    l_heat = (focal * mask).sum() / n_pos
    find = (t[..., 0] >= 0) & (t[..., 5] > 0.5)
    bi, ki = torch.nonzero(find, as_tuple=True)
    if len(bi) == 0:
        return l_heat, {"heat": l_heat.item()}
    q = (t[bi, ki, 1:3] + 0.5) / STRIDE
    cell = torch.floor(q).long().clamp(0, g - 1)
    pred = out[bi, :, cell[:, 1], cell[:, 0]]
    l_off = F.l1_loss(torch.sigmoid(pred[:, 4:6]), q - cell.float())
    s = t[bi, ki, 3:5] / BALL_PX
    length = torch.hypot(s[:, 0], s[:, 1])
    angle = torch.atan2(s[:, 1], s[:, 0])
    want = torch.stack([length * torch.cos(2 * angle), length * torch.sin(2 * angle)], 1)
    l_streak = F.smooth_l1_loss(pred[:, 6:8], want)
    total = l_heat + 2.0 * l_off + 0.5 * l_streak
    return total, {"heat": l_heat.item(), "off": l_off.item(), "streak": l_streak.item()}


@dataclass(frozen=True, slots=True)
class FitResult:
    """The trained net and what the loop saw: per-epoch losses, seconds."""

    net: BallNet
    losses: list[dict[str, float]]
    seconds: float


def fit(
    crops: NDArray[np.uint8], targets: NDArray[np.float32], *, epochs: int, seed: int,
    batch: int = 128, lr: float = 3e-3, log: bool = True,
) -> FitResult:  # fmt: skip
    """Train a fresh :class:`BallNet` on crops (N, 64, 64, 3) and targets (N, K, 6)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = BallNet()
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * math.ceil(len(crops) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    losses, t0 = [], time.perf_counter()
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(len(crops))
        sums: dict[str, float] = {}
        for start in range(0, len(order), batch):
            idx = np.sort(order[start : start + batch])
            x, t = _augment(rng, crops[idx], targets[idx])
            loss, parts = _loss(net(normalise(x)), torch.from_numpy(t))
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            sched.step()
            for key, v in parts.items():
                sums[key] = sums.get(key, 0.0) + v * len(idx) / len(order)
        losses.append(sums)
        if log:
            took = time.perf_counter() - t0
            print(f"epoch {epoch + 1}/{epochs} " + " ".join(f"{k} {v:.4f}" for k, v in sums.items())
                  + f" ({took:.0f} s)", flush=True)  # fmt: skip
    net.eval()
    return FitResult(net, losses, time.perf_counter() - t0)
