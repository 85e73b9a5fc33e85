"""The pipeline description every front end builds from (source, calibration, vision, match).

:class:`Pipeline` says what to watch and how; :class:`VisionPipeline` builds the
analyser for one camera from it; :func:`read_frame` reads one frame of any source
(the calibration commands and the wizard).
"""

from carom.pipeline._frames import IMAGE_SUFFIXES, read_frame
from carom.pipeline._spec import Pipeline
from carom.pipeline._vision import VisionPipeline, balls_on_table

__all__ = ["IMAGE_SUFFIXES", "Pipeline", "VisionPipeline", "balls_on_table", "read_frame"]
