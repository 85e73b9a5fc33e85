"""Ball trajectories per shot, beside the shot log: ``trajectories.json`` and ``.csv``.

Every ball's centre in table mm at ball-centre height, every frame of every shot,
on the shot log's clock, with flags for samples the camera did not measure
(``predicted``, ``occluded``) and frames that were not analysed (``interpolated``).
:func:`shot_track` builds one shot's from vision's tracks, :func:`trajectories_of` a
match's; :func:`write_trajectories` writes both files (``carom analyze`` beside
``shots.json``; ``carom export --trajectories`` for a live match);
:func:`parse_trajectories` reads the JSON back. ``carom score`` never reads them.
The format: docs/trajectories.md.
"""

from carom.trajectories._build import shot_track, trajectories_of
from carom.trajectories._files import (
    CSV_COLUMNS,
    CSV_NAME,
    JSON_NAME,
    parse_trajectories,
    shot_track_from_json,
    shot_track_json,
    trajectories_csv,
    trajectories_json,
    trajectories_text,
    write_trajectories,
    write_trajectories_csv,
    write_trajectories_json,
)
from carom.trajectories._model import (
    FLAG_NAMES,
    FORMAT,
    BallPath,
    ShotTrack,
    Trajectories,
    TrajectoriesError,
    flag_text,
)

__all__ = [
    "CSV_COLUMNS",
    "CSV_NAME",
    "FLAG_NAMES",
    "FORMAT",
    "JSON_NAME",
    "BallPath",
    "ShotTrack",
    "Trajectories",
    "TrajectoriesError",
    "flag_text",
    "parse_trajectories",
    "shot_track",
    "shot_track_from_json",
    "shot_track_json",
    "trajectories_csv",
    "trajectories_json",
    "trajectories_of",
    "trajectories_text",
    "write_trajectories",
    "write_trajectories_csv",
    "write_trajectories_json",
]
