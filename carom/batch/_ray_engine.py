"""The Ray engine (``--ray`` for a local Ray, ``--ray ADDRESS`` for a cluster; docs/batch.md).

Each video is one Ray task of one CPU. Where the cluster has GPUs and the detector
uses the network (``auto``, ``onnx``), a task also asks for ``gpus_per_video`` of a
GPU, and a task given one runs onnxruntime on CUDA (``CAROM_ONNX_DEVICE=cuda``). A
worker that dies is retried once by Ray; a task that still fails is a failed video.
Progress comes back through a small actor, sent to it without waiting. Ray is an optional dependency
(``pip install 'carom-referee[ray]'``), imported only here.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from carom.batch._engine import crashed
from carom.batch._jobs import VideoJob, VideoResult
from carom.batch._work import analyze_job
from referee import CaromError

__all__ = ["RayEngine"]

_NETWORK_DETECTORS = ("auto", "onnx")


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise CaromError("--ray: Ray is not installed; install it with pip install "
                         "'carom-referee[ray]' (in a clone of the project: pip install -e "
                         "'.[ray]'; docs/batch.md)") from None  # fmt: skip
    return ray


class _Reports:
    """The progress reports of every task, kept by one small actor until the driver reads them."""

    def __init__(self) -> None:
        self._items: list[tuple[str, float]] = []

    def put(self, item: tuple[str, float]) -> None:
        """One report."""
        self._items.append(item)

    def take(self) -> list[tuple[str, float]]:
        """Every report since the last call."""
        items, self._items = self._items, []
        return items


class _ActorSink:
    """A task's :class:`ProgressSink`: each report sent to the actor without waiting.

    Waiting (``ray.get``) would block the task, and Ray hands a blocked task's CPU to
    another task: two videos would then share one CPU.
    """

    def __init__(self, actor: Any) -> None:
        self._actor = actor

    def put_nowait(self, item: tuple[str, float]) -> None:
        """Send one report."""
        self._actor.put.remote(item)


def _task(job: VideoJob, reports: Any) -> VideoResult:
    """One video in a Ray worker (a GPU given to the task runs the network)."""
    import ray

    if ray.get_gpu_ids():
        os.environ["CAROM_ONNX_DEVICE"] = "cuda"
    return analyze_job(job, _ActorSink(reports))


class RayEngine:
    """Jobs as Ray tasks on a local Ray (``address`` ``None``) or a cluster."""

    def __init__(
        self,
        address: str | None,
        workers: int,
        gpus_per_video: float | None,
        local_gpus: int | None = None,
    ) -> None:
        """Start a local Ray, or join the cluster at ``address``.

        A local Ray has ``workers`` CPUs and ``local_gpus`` GPUs (``None``: those Ray finds).
        """
        ray = self._ray = _ray()
        try:
            if address is None:
                ray.init(num_cpus=workers, num_gpus=local_gpus, include_dashboard=False,
                         logging_level=logging.ERROR, log_to_driver=False)  # fmt: skip
            else:
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = "a local Ray" if address is None else f"the Ray cluster at {address}"
            raise CaromError(f"--ray: cannot start or reach {where} ({exc}); check the "
                             "address and that `ray status` works there") from None  # fmt: skip
        self._gpus = self._gpu_share(gpus_per_video)
        self._reports = ray.remote(num_cpus=0)(_Reports).remote()
        self._running: dict[Any, VideoJob] = {}
        self.description = self._describe(address)

    def _gpu_share(self, asked: float | None) -> float:
        if asked is not None:
            return asked
        return 0.25 if self._ray.cluster_resources().get("GPU", 0) > 0 else 0.0

    def _describe(self, address: str | None) -> str:
        res = self._ray.cluster_resources()
        where = "a local Ray" if address is None else f"Ray at {address}"
        gpus = f", {res.get('GPU', 0):g} GPUs ({self._gpus:g} a video)" if res.get("GPU") else ""
        return f"{where}: {len(self._ray.nodes())} node(s), {res.get('CPU', 0):g} CPUs{gpus}"

    def submit(self, job: VideoJob) -> None:
        """Queue ``job`` as a Ray task."""
        gpus = self._gpus if job.settings.detector in _NETWORK_DETECTORS else 0.0
        remote = self._ray.remote(_task).options(num_cpus=1, num_gpus=gpus, max_retries=1)
        self._running[remote.remote(job, self._reports)] = job

    def next_result(self, timeout_s: float) -> VideoResult | None:
        """The next finished task's result (``None`` after ``timeout_s``)."""
        if not self._running:
            return None
        ready, _ = self._ray.wait(list(self._running), num_returns=1, timeout=timeout_s)
        if not ready:
            return None
        job = self._running.pop(ready[0])
        try:
            result: VideoResult = self._ray.get(ready[0])
        except self._ray.exceptions.RayError as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            return crashed(job, f"the Ray task failed: {first}")
        return result

    def progress(self) -> list[tuple[str, float]]:
        """The workers' progress reports since the last call."""
        items: list[tuple[str, float]] = self._ray.get(self._reports.take.remote())
        return items

    def close(self, *, cancel: bool) -> None:
        """Cancel what is left (``cancel``) and leave Ray."""
        if cancel:
            for ref in self._running:
                self._ray.cancel(ref, force=True)
        self._running.clear()
        self._ray.shutdown()
