"""Serial scoreboards and cameras (issues 6, 7). Empty until that work lands."""

__all__: list[str] = []
