"""Cameras: device indexes, V4L2 devices and network streams behind one small protocol.

:func:`open_camera` opens what a spec names (``0``, ``/dev/video0``, ``rtsp://...``)
with the first camera kind that takes it (today OpenCV's, :class:`Camera` is what
every kind gives); :func:`is_camera_spec` tells a camera from a file. Frames carry
their capture time (:class:`CameraFrame`). No camera library loads before a camera
opens.
"""

from hardware.camera._camera import Camera, CameraFrame
from hardware.camera._cameras import CameraKind, is_camera_spec, open_camera, register_camera
from hardware.camera._diagnose import explain_camera, safe_spec

__all__ = [
    "Camera",
    "CameraFrame",
    "CameraKind",
    "explain_camera",
    "is_camera_spec",
    "open_camera",
    "register_camera",
    "safe_spec",
]
