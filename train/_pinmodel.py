"""The pin network and its training loop.

Input (B, 6, 32, 32): a pin crop and the same crop of the reference frame, each less
its per-channel median, over 64 (:func:`vision.pins.pin_input`). Four 3 x 3
conv blocks (the last three halve the size) to 4 x 4, global max and mean pooling,
one linear layer: the logit that a pin stands. About 21k parameters, about 4 M
multiply-adds per crop. Exported with the sigmoid applied: output (B,) probability.

Training: binary cross-entropy, AdamW, cosine learning rate, batches of 128; each
batch is augmented with the eight flips and transposes of the square (the same for the
crop and its reference), gain, colour balance, gamma (shared, the reference's gain a
few % apart) and noise (each its own), applied to the raw crops.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from numpy.typing import NDArray
from torch import nn

from vision.pins import pin_input

__all__ = ["Exported", "PinFit", "PinNet", "fit"]


def _block(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class PinNet(nn.Module):
    """Crop and reference (B, 6, 32, 32) -> logit (B,) that a pin stands."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            _block(6, 16, 1), _block(16, 24, 2), _block(24, 32, 2), _block(32, 32, 2)
        )
        self.head = nn.Linear(64, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits (B,)."""
        f = self.body(x)
        pooled = torch.cat([f.amax(dim=(2, 3)), f.mean(dim=(2, 3))], dim=1)
        out: torch.Tensor = self.head(pooled)[:, 0]
        return out


class Exported(nn.Module):
    """What ships: the net with the sigmoid applied."""

    def __init__(self, net: PinNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Probabilities (B,)."""
        return torch.sigmoid(self.net(x))


@dataclass(frozen=True, slots=True)
class PinFit:
    """A trained net, per-epoch mean losses and the seconds it took."""

    net: PinNet
    losses: list[float]
    seconds: float


def _augment(
    rng: np.random.Generator, crops: NDArray[np.uint8], refs: NDArray[np.uint8]
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Dihedral flips and photometric jitter of crops and references (B, n, n, 3)."""
    x = np.concatenate([crops, refs], axis=3).astype(np.float32)
    for i in range(len(x)):
        if rng.random() < 0.5:
            x[i] = x[i, :, ::-1]
        if rng.random() < 0.5:
            x[i] = x[i, ::-1]
        if rng.random() < 0.5:
            x[i] = x[i].transpose(1, 0, 2)
    b = len(x)
    gain = rng.uniform(0.7, 1.3, (b, 1, 1, 1)) * rng.uniform(0.92, 1.08, (b, 1, 1, 3))
    gain = np.concatenate([gain, gain * rng.uniform(0.95, 1.05, (b, 1, 1, 1))], axis=3)
    gamma = rng.uniform(0.8, 1.25, (b, 1, 1, 1))
    y = 255.0 * np.clip(x * gain / 255.0, 0, 1) ** gamma
    y += rng.normal(0, 1, y.shape) * rng.uniform(0, 4, (b, 1, 1, 1))
    out = np.clip(y, 0, 255).astype(np.float32)
    return out[..., :3], out[..., 3:]


def fit(
    crops: NDArray[np.uint8],
    refs: NDArray[np.uint8],
    labels: NDArray[np.int64],
    epochs: int,
    seed: int,
    batch: int = 128,
) -> PinFit:
    """Train a :class:`PinNet` on crops and references (N, 32, 32, 3), labels (N,) 0/1."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = PinNet()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * math.ceil(len(crops) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    t0 = time.perf_counter()
    losses = []
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(len(crops))
        total, n = 0.0, 0
        for start in range(0, len(order), batch):
            idx = order[start : start + batch]
            x = torch.from_numpy(pin_input(*_augment(rng, crops[idx], refs[idx])))
            y = torch.from_numpy(labels[idx].astype(np.float32))
            loss = F.binary_cross_entropy_with_logits(net(x), y)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            sched.step()
            total += float(loss) * len(idx)
            n += len(idx)
        losses.append(total / n)
        print(f"epoch {epoch + 1}/{epochs}: loss {losses[-1]:.4f}", flush=True)
    return PinFit(net.eval(), losses, time.perf_counter() - t0)
