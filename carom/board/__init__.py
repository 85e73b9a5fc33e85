"""The app's side of a scoreboard: what a shot shows on it, and a shot log replayed on one.

The wire protocols, the link and the emulator are :mod:`hardware`'s; here is what the
referee's results become on a board (:func:`event_of`) and ``carom score
--scoreboard`` (:func:`replay_to_scoreboard`). Live mode shows its session on a board
through the same :func:`event_of`.
"""

from carom.board._messages import event_of
from carom.board._replay import replay_to_scoreboard

__all__ = ["event_of", "replay_to_scoreboard"]
