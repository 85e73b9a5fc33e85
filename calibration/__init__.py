"""Table geometry and the camera model (issue 4). Empty until that work lands."""

__all__: list[str] = []
