"""The pipeline description every front end builds from (source, calibration, vision, match).

:class:`Pipeline` says what to watch and how; :class:`VisionPipeline` builds the
analyser for one camera from it.
"""

from carom.pipeline._spec import Pipeline
from carom.pipeline._vision import VisionPipeline, balls_on_table

__all__ = ["Pipeline", "VisionPipeline", "balls_on_table"]
