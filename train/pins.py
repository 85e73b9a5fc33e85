"""Train the pin classifier and export it: ``python -m train.pins --out PATH``.

One command, CPU only, fixed seeds: render the pin scenes (``--scenes`` seeds from 0,
``--frames`` each, :mod:`train._pinscenes`; cached in ``--data``), train
(:mod:`train._pinmodel`) on all but the last ``_VAL_SHARE`` of the scenes, export to
ONNX (opset 17, dynamic batch), check the export against PyTorch on the held-out
crops, measure the held-out accuracy, and write a training record next to the model
(``.train.json``). Needs the ``train`` extra (torch).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

__all__ = ["main"]

_VAL_SHARE = 0.1  # the last scenes: held out of training, used for the check


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m train.pins", description=__doc__)
    p.add_argument("--out", type=Path, default=Path("vision/models/pins.onnx"))
    p.add_argument("--data", type=Path, default=Path("out/train_pins/pins.npz"))
    p.add_argument("--scenes", type=int, default=160)
    p.add_argument("--frames", type=int, default=12)
    p.add_argument("--epochs", type=int, default=24)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--workers", type=int, default=2, help="render processes")
    return p.parse_args(argv)


def _export(net: object, path: Path) -> None:
    import torch

    from train._pinmodel import Exported
    from vision.pins import PIN_CROP

    wrapped = Exported(net).eval()  # type: ignore[arg-type]
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        wrapped, (torch.zeros(2, 6, PIN_CROP, PIN_CROP),), str(path), input_names=["crops"],
        output_names=["standing"], opset_version=17, dynamo=False,
        dynamic_axes={"crops": {0: "batch"}, "standing": {0: "batch"}},
    )  # fmt: skip


def _check(
    net: object, path: Path, crops: np.ndarray, refs: np.ndarray, labels: np.ndarray
) -> dict[str, float]:
    """Export check (largest onnxruntime - PyTorch difference) and held-out accuracy."""
    import torch

    from train._pinmodel import Exported
    from vision.pins import PinModel, pin_input

    with torch.no_grad():
        x = torch.from_numpy(pin_input(crops, refs))
        want = Exported(net).eval()(x).numpy()  # type: ignore[arg-type]
    got = PinModel(path).standing(crops, refs)
    diff = float(np.abs(got - want).max())
    if diff > 1e-4:
        raise SystemExit(f"export check failed: onnxruntime differs from torch by {diff:g}")
    up = labels == 1
    return {
        "max_abs_diff": diff, "crops": len(crops),
        "accuracy": float(np.mean((got > 0.5) == up)),
        "standing_recall": float(np.mean(got[up] > 0.5)),
        "down_recall": float(np.mean(got[~up] <= 0.5)),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Run the whole recipe; 0 on success."""
    args = _parse(argv)
    import torch

    from train._pindata import build
    from train._pinmodel import fit

    torch.set_num_threads(args.threads)
    t0 = time.perf_counter()
    render_cpu_s = None  # None: the crops were rendered by an earlier run (cached)
    if not args.data.exists():
        n, render_cpu_s = build(range(args.scenes), args.frames, args.data, args.workers)
        print(f"rendered {args.scenes} scenes -> {n} crops ({render_cpu_s:.0f} s CPU)", flush=True)
    data = np.load(args.data)
    crops, refs, labels, seeds = data["crops"], data["refs"], data["labels"], data["seeds"]
    train = seeds < int(args.scenes * (1 - _VAL_SHARE))
    t_data = time.perf_counter() - t0
    result = fit(crops[train], refs[train], labels[train], epochs=args.epochs, seed=args.seed)
    _export(result.net, args.out)
    check = _check(result.net, args.out, crops[~train], refs[~train], labels[~train])
    record = {
        "command": "python -m train.pins " + " ".join(sys.argv[1:] if argv is None else argv),
        "seed": args.seed, "scenes": args.scenes, "frames_per_scene": args.frames,
        "epochs": args.epochs, "threads": args.threads, "crops_train": int(train.sum()),
        "crops_held_out": int((~train).sum()), "standing_share": float(labels.mean()),
        "data": str(args.data), "data_s": round(t_data, 1), "render_cpu_s": render_cpu_s,
        "train_s": round(result.seconds, 1),
        "losses": [round(x, 5) for x in result.losses], "held_out": check,
        "torch": torch.__version__, "model_bytes": args.out.stat().st_size,
    }  # fmt: skip
    args.out.with_suffix(".train.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {args.out} ({record['model_bytes']} bytes); held out {check}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
