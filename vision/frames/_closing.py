"""What every frame source shares: ``with source:`` closes it at the end of the block."""

from __future__ import annotations

from types import TracebackType
from typing import Self

__all__ = ["ClosedByWith"]


class ClosedByWith:
    """A source used in a ``with`` block is closed when the block ends (also on an error)."""

    def close(self) -> None:
        """Release what the source holds; each source says what."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
