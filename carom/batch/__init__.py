"""``carom batch``: many videos analysed as ``carom analyze`` would, on one machine or Ray.

Resumable, one folder a video, an index, the season's statistics (docs/batch.md).

The data flow: sources (files, folders, globs, URLs, manifests:
:func:`expand_sources`) -> a plan (each video's options, key, folder, status:
:func:`plan_batch`) -> an engine (:class:`LocalPool` by default, :class:`RayEngine`)
running :func:`analyze_job` in its workers -> each result installed whole into
``DIR/<video>/`` and the index ``DIR/batch.json`` rewritten (:func:`run_batch`).
"""

from carom.batch._engine import Engine
from carom.batch._fetch import is_url
from carom.batch._folders import MARKER, finished_key
from carom.batch._index import INDEX, IndexEntry, read_previous
from carom.batch._jobs import AnalysisSettings, JobStatus, VideoJob, VideoResult
from carom.batch._local_pool import LocalPool
from carom.batch._manifest import COLUMNS, ManifestError
from carom.batch._plan import PlannedVideo, plan_batch
from carom.batch._progress import BatchProgress, duration_text, plural
from carom.batch._ray_engine import RayEngine
from carom.batch._run import BatchSummary, run_batch
from carom.batch._sources import VIDEO_SUFFIXES, SourceEntry, expand_sources
from carom.batch._work import ProgressSink, analyze_job

__all__ = [
    "COLUMNS",
    "INDEX",
    "MARKER",
    "VIDEO_SUFFIXES",
    "AnalysisSettings",
    "BatchProgress",
    "BatchSummary",
    "Engine",
    "IndexEntry",
    "JobStatus",
    "LocalPool",
    "ManifestError",
    "PlannedVideo",
    "ProgressSink",
    "RayEngine",
    "SourceEntry",
    "VideoJob",
    "VideoResult",
    "analyze_job",
    "duration_text",
    "expand_sources",
    "finished_key",
    "is_url",
    "plan_batch",
    "plural",
    "read_previous",
    "run_batch",
]
