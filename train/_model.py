"""The network: a small fully convolutional centre-heatmap detector (stride 4).

Input (B, 3, H, W) float: BGR / 255 - 0.5 over 0.25 (H, W multiples of 16; crops at
``BALL_PX`` per ball radius). Output (B, 8, H/4, W/4): four class heatmaps (sigmoid:
white, dotted, yellow, red), the centre's offset in its cell (sigmoid, 0..1, u then
v) and the blur as a doubled-angle vector (L cos 2a, L sin 2a) with L the streak's
half length in ball radii and a its direction (a streak has no sign).
Dilated convolutions give a receptive field of about 60 crop pixels (10 radii), enough
to see a streak four radii long whole. About 30k parameters, about 5 M multiply-adds
per 48 x 48 crop.
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["BallNet"]


def _block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class BallNet(nn.Module):
    """Heatmap + offset + streak head over a four-times-downsampled feature map."""

    def __init__(self, width: int = 32) -> None:
        super().__init__()
        self.body = nn.Sequential(
            _block(3, 12, 2),
            _block(12, 16),
            _block(16, 24, 2),
            _block(24, width),
            _block(width, width, dilation=2),
            _block(width, width, dilation=4),
        )
        self.head = nn.Sequential(
            nn.Conv2d(width, 24, 1), nn.ReLU(inplace=True), nn.Conv2d(24, 8, 1)
        )
        nn.init.constant_(self.head[2].bias[:4], -2.2)  # type: ignore[index]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Raw outputs (B, 8, H/4, W/4): heat logits, offset logits, streak."""
        out: torch.Tensor = self.head(self.body(x))
        return out


class Exported(nn.Module):
    """What ships: the net with sigmoids applied (heat and offset in 0..1)."""

    def __init__(self, net: BallNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(B, 8, H/4, W/4): heat 0..1, offset 0..1, streak."""
        y = self.net(x)
        return torch.cat([torch.sigmoid(y[:, :6]), y[:, 6:]], dim=1)
