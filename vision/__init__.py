"""Frames to ball tracks and referee events (issue 5). Empty until that work lands."""

__all__: list[str] = []
