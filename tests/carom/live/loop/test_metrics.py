"""``LiveMetrics``: shots judged and verdicts timed are counted apart."""

from __future__ import annotations

from carom.live.loop._metrics import LiveMetrics


def test_a_judged_shot_is_counted_before_its_verdict_is_timed() -> None:
    metrics = LiveMetrics(clock=lambda: 0.0)
    metrics.shot_judged()
    summary = metrics.summary()
    assert (summary.shots, summary.timed, summary.processing_p50_ms) == (1, 0, None)
    assert summary.line().startswith("0.0 fps, 0 dropped, 1 shot (1 not on the board yet); ")
    metrics.verdict(0.1, 0.12)
    summary = metrics.summary()
    assert (summary.shots, summary.timed) == (1, 1)
    assert summary.processing_p50_ms is not None
    assert round(summary.processing_p50_ms) == 100
    assert ", 1 shot; verdict latency p50/p95: processing 100/100 ms, from the last " in (
        summary.line()
    )
    assert summary.to_json()["timed"] == 1
