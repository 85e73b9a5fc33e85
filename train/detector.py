"""Train the learned ball detector and export it: ``python -m train.detector --out PATH``.

One command, CPU only, fixed seeds: render the training scenes (``--scenes`` seeds
from 0, ``--frames`` each; cached in ``--data``), train (:mod:`train._fit`), export to
ONNX (opset 17, dynamic batch and crop size), check the export against PyTorch on
held-out crops, and write a training record next to the model (``.train.json``:
command, seeds, sizes, losses, timings, export check). Needs the ``train`` extra
(``pip install torch==2.13.0``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

__all__ = ["main"]

_VAL_SHARE = 0.08  # the last scenes' crops: held out of training, used for the check


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m train.detector", description=__doc__)
    p.add_argument("--out", type=Path, default=Path("vision/models/balls.onnx"))
    p.add_argument("--data", type=Path, default=Path("out/train_detector/train.npz"))
    p.add_argument("--scenes", type=int, default=240)
    p.add_argument("--frames", type=int, default=6)
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--crop", type=int, default=48, help="training crop side, px")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--workers", type=int, default=2, help="render processes")
    return p.parse_args(argv)


def _export(net: object, path: Path) -> None:
    import torch

    from train._model import Exported

    wrapped = Exported(net).eval()  # type: ignore[arg-type]
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        wrapped, (torch.zeros(1, 3, 64, 64),), str(path), input_names=["crops"],
        output_names=["maps"], opset_version=17, dynamo=False,
        dynamic_axes={"crops": {0: "batch", 2: "height", 3: "width"},
                      "maps": {0: "batch", 2: "cells_v", 3: "cells_u"}},
    )  # fmt: skip


def _check(net: object, path: Path, crops: np.ndarray) -> dict[str, float]:
    """Largest difference of onnxruntime's outputs from PyTorch's on ``crops``."""
    import onnxruntime as ort  # type: ignore[import-untyped]
    import torch

    from train._fit import normalise
    from train._model import Exported

    x = normalise(crops)
    with torch.no_grad():
        want = Exported(net).eval()(x).numpy()  # type: ignore[arg-type]
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = sess.run(None, {"crops": x.numpy()})[0]
    big = np.pad(crops[:2], ((0, 0), (16, 16), (32, 32), (0, 0)), mode="edge")  # other sizes
    with torch.no_grad():
        want_big = Exported(net).eval()(normalise(big)).numpy()  # type: ignore[arg-type]
    got_big = sess.run(None, {"crops": normalise(big).numpy()})[0]
    diff = max(float(np.abs(got - want).max()), float(np.abs(got_big - want_big).max()))
    if diff > 1e-3:
        raise SystemExit(f"export check failed: onnxruntime differs from torch by {diff:g}")
    return {"max_abs_diff": diff, "crops": len(crops)}


def main(argv: list[str] | None = None) -> int:
    """Run the whole recipe; 0 on success."""
    args = _parse(argv)
    import torch

    from train._dataset import build, centre_crop
    from train._fit import fit

    torch.set_num_threads(args.threads)
    t0 = time.perf_counter()
    if not args.data.exists():
        n, cpu_s = build(range(args.scenes), args.frames, args.data, args.workers)
        print(f"rendered {args.scenes} scenes -> {n} crops ({cpu_s:.0f} s CPU)", flush=True)
    data = np.load(args.data)
    crops, targets = centre_crop(data["crops"], data["targets"], args.crop)
    split = int(len(crops) * (1 - _VAL_SHARE))
    t_data = time.perf_counter() - t0
    result = fit(crops[:split], targets[:split], epochs=args.epochs, seed=args.seed)
    _export(result.net, args.out)
    check = _check(result.net, args.out, crops[split : split + 64])
    record = {
        "command": "python -m train.detector " + " ".join(sys.argv[1:] if argv is None else argv),
        "seed": args.seed, "scenes": args.scenes, "frames_per_scene": args.frames,
        "epochs": args.epochs, "threads": args.threads, "crops_train": split,
        "crops_held_out": len(crops) - split, "data_s": round(t_data, 1),
        "train_s": round(result.seconds, 1), "losses": result.losses, "export_check": check,
        "torch": torch.__version__, "model_bytes": args.out.stat().st_size,
    }  # fmt: skip
    args.out.with_suffix(".train.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {args.out} ({record['model_bytes']} bytes); export check {check}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
