"""The Markdown page of ``bench/detector_compare.py``, made from its JSON results.

Kept apart from the measuring so that the page can be written again from the
committed ``bench/results/detector_compare.json`` (``--speed-clip`` does).
"""

from __future__ import annotations

from typing import Any

#: Speed bands of a ball, in table order, and the detectors, in column order.
BANDS = ("rest", "<1 m/s", "1-3 m/s", ">3 m/s")
KINDS = ("color", "auto", "onnx")


def markdown(doc: dict[str, Any]) -> str:
    """The results as tables."""
    lines = _intro(doc)
    for occl in ("all", "clear", "partly", "covered"):
        lines += _recall_table(doc["recall"], occl)
    lines += _cost_table(doc)
    lines += _real_frames_table(doc.get("real_frames", {}))
    lines += _speed_table(doc.get("speed"))
    lines += _verdicts_table(doc.get("verdicts"))
    return "\n".join(lines)


def _intro(doc: dict[str, Any]) -> list[str]:
    return ["# Ball detectors compared: colour, auto, onnx", "",
            f"Machine: {doc['machine']['cpu']}, {doc['machine']['cores']} cores, load "
            f"{doc['machine']['load_1_5_15']}, {doc['machine']['date']}. "
            f"Command: `{doc['command']}`. Model: `{doc['model']}`.", "",
            "Recall = share of balls found (right class, centre within one radius); errors "
            "in ball radii (median, 90th percentile) over the hits. `onnx` is the network "
            "alone on windows around predictions from the previous frame (no first "
            "frame).", ""]  # fmt: skip


def _recall_table(recall: list[dict[str, Any]], occl: str) -> list[str]:
    """Recall and errors per set and speed band for one occlusion class (none: no rows)."""
    rows = [r for r in recall if r["occlusion"] == occl]
    if not rows:
        return []
    lines = [f"## Occlusion: {occl}", "",
             "| set | speed | n | color recall | auto recall | onnx recall | "
             "color err med/p90 | auto err med/p90 | onnx err med/p90 |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    keys = sorted({(r["set"], r["speed"]) for r in rows},
                  key=lambda k: (k[0], BANDS.index(k[1])))  # fmt: skip
    for where, b in keys:
        by = {r["detector"]: r for r in rows if r["set"] == where and r["speed"] == b}
        n = by.get("color", {}).get("n", 0)
        rec = [f"{by[k]['recall']:.3f}" if k in by else "-" for k in KINDS]
        err = [f"{by[k]['median_err_radii']}/{by[k]['p90_err_radii']}" if k in by else "-"
               for k in KINDS]  # fmt: skip
        lines.append(f"| {where} | {b} | {n} | " + " | ".join(rec + err) + " |")
    lines.append("")
    return lines


def _cost_table(doc: dict[str, Any]) -> list[str]:
    """Milliseconds per frame per set, then the network alone per call."""
    lines = [
        "## Cost (mean ms per frame, on a shared machine under the load above)",
        "",
        "| set | color ms/frame | auto ms/frame | onnx ms/frame | auto: ROI calls / "
        "full scans / frames | auto: network ms per use |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for where, c in sorted(doc["cost"].items()):
        lines.append(
            f"| {where} | {c['color']} | {c['auto']} | {c.get('onnx', '-')} | "
            f"{c['calls']} / {c['scans']} / {c['frames']} | {c['model_ms_per_use']} |"
        )
    lines += [
        "",
        "Network alone, one thread, per call (crop side x batch): "
        + ", ".join(f"{k}: {v} ms" for k, v in doc["roi_ms"].items()),
        "",
    ]
    return lines


def _real_frames_table(rf: dict[str, Any]) -> list[str]:
    """The hand-labelled broadcast frames (none when they were absent)."""
    if "frames" not in rf:
        return []
    lines = ["## Hand-labelled broadcast frames (1920x1080)", "",
             f"Frames {', '.join(rf['frames'])}; labels in "
             "`tests/vision/realdata_labels/broadcast_frames.json`. `onnx` searches the "
             "whole table with the network.", "",
             "| detector | balls | missed | false detections | median err px | max err px |",
             "| --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for k in KINDS:
        r = rf[k]
        lines.append(
            f"| {k} | {r['balls']} | {r['missed']} | {r['false']} | "
            f"{r['median_err_px']} | {r['max_err_px']} |"
        )
    lines.append("")
    return lines


def _speed_table(sp: dict[str, Any] | None) -> list[str]:
    """``carom analyze`` wall time per detector (none when not measured)."""
    if not sp:
        return []
    lines = [
        "## `carom analyze` speed (decode + analysis, whole clip)",
        "",
        f"Clip `{sp['clip']}` ({sp['video_s']} s of video); load during the run "
        f"{sp['machine']['load_1_5_15']}.",
        "",
        "| detector | wall s | x real time | verdicts agree | network use |",
        "| --- | --- | --- | --- | --- |",
    ]
    for k in ("color", "auto"):
        r = sp[k]
        use = (f"{r['calls']} ROI calls, {r['scans']} scans, {r['model_ms']} ms in "
               f"{r['frames']} frames") if k == "auto" else "-"  # fmt: skip
        lines.append(f"| {k} | {r['seconds']} | {r['x_realtime']} | "
                     f"{r['agree']}/{r['shots']} | {use} |")  # fmt: skip
    lines.append("")
    return lines


def _verdicts_table(verdicts: list[dict[str, Any]] | None) -> list[str]:
    """End-to-end verdict agreement per clip (none when not run)."""
    if not verdicts:
        return []
    lines = ["## End to end: `carom analyze` verdicts vs truth", "",
             "| clip | color agree | auto agree | color s | auto s | "
             "color ball recall | auto ball recall |",
             "| --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for r in verdicts:
        c, a = r["color"], r["auto"]
        lines.append(
            f"| {r['clip']} | {c['agree']}/{c['shots']} | {a['agree']}/{a['shots']} | "
            f"{c['seconds']} | {a['seconds']} | {c['ball_recall']:.3f} | "
            f"{a['ball_recall']:.3f} |"
        )
    lines.append("")
    return lines
