"""Frames in: video files, image folders and cameras as a stream of :class:`~vision.Frame`.

A decoded video frame is kept as its YUV planes (:class:`YuvImage`), converted to BGR
only where something looks; a thread decodes ahead of the analysis (:class:`ReadAhead`).
"""

from vision.frames._read_ahead import ReadAhead
from vision.frames._read_frame import read_frame
from vision.frames._sources import (
    IMAGE_SUFFIXES,
    CameraSource,
    FrameSource,
    ImageSource,
    VideoFileSource,
    decode_only,
    image_sequence,
    key_frame_times_s,
    open_source,
    to_bgr,
)
from vision.frames._yuv_planes import YuvImage

__all__ = [
    "IMAGE_SUFFIXES",
    "CameraSource",
    "FrameSource",
    "ImageSource",
    "ReadAhead",
    "VideoFileSource",
    "YuvImage",
    "decode_only",
    "image_sequence",
    "key_frame_times_s",
    "open_source",
    "read_frame",
    "to_bgr",
]
