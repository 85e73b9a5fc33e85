"""The live match session: one match state that every sink is fed from, never lost.

Theory of operation (write-ahead journal). An input (an analysed shot, a person's
call or review decision, a pause) is planned and checked first (illegal input
raises and changes nothing), then appended to the database in one durable
transaction together with the session's new version, and only then applied in
memory and announced to the sinks, in order. ``LiveSession.open`` resumes the
newest unfinished match of the same set-up (match config + source) by replaying
its journal through a fresh referee ``Match``: the resumed state equals the state
before the crash. See ``docs/live-storage.md``.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from carom.live._account import Account
from carom.live._calls import DecisionKind, FoulCall, PersonCall, ReviewDecision, TimeoutCall
from carom.live._codec import (
    config_doc,
    config_from_doc,
    correction_json,
    decode_tracks,
    encode_tracks,
    setup_key,
    shot_doc,
    source_identity,
)
from carom.live._hold import hold_match, release_match
from carom.live._machine import Machine
from carom.live._steps import Op, PendingReview, Plan, ReviewPending
from carom.live._store import JournalEntry, LiveError, MatchRow, MatchStore
from carom.trajectories import ShotTrack, shot_track
from referee import (
    CaromError,
    Correction,
    CorrectionKind,
    LagResult,
    MatchConfig,
    MatchState,
    Phase,
    ShotRecord,
    record_json,
)

if TYPE_CHECKING:
    from vision import AnalyzedShot

__all__ = [
    "LiveError",
    "LiveSession",
    "LiveSetup",
    "PendingReview",
    "ReviewPending",
    "SessionUpdate",
]

#: ``who`` of the inputs that come from the camera rather than a person.
VISION = "vision"


@dataclass(frozen=True, slots=True)
class LiveSetup:
    """What a live match is: the referee set-up and the camera or video it is seen by.

    ``config`` and ``source`` make the resume key; ``timeouts_per_game`` (time-outs
    per player per game, ``None``: no limit) is not part of it. ``aliases``: other
    spellings of the source (the path as typed, when ``source`` is its
    :func:`~carom.live.source_identity`) whose unfinished match of this set-up is
    resumed too (one begun before sources were keyed by their absolute path).
    """

    config: MatchConfig
    source: str
    timeouts_per_game: int | None = None
    aliases: tuple[str, ...] = ()

    @classmethod
    def seen_by(
        cls, config: MatchConfig, camera: str, timeouts_per_game: int | None = None
    ) -> LiveSetup:
        """The set-up of a match ``camera`` (``--camera`` as given) watches.

        Keyed by its :func:`~carom.live.source_identity`; the spelling as given is kept
        as an alias (a match begun under it is resumed too).
        """
        source = source_identity(camera)
        return cls(config, source, timeouts_per_game, tuple({camera} - {source}))

    @property
    def sources(self) -> frozenset[str]:
        """Every spelling of the source a match of this set-up may be stored under."""
        return frozenset((self.source, *self.aliases))


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionUpdate:
    """What a sink is told after every committed change.

    ``version`` counts the journal entries; ``what`` is a one-line account of the
    change, ``account`` the same keyed (None: a caller's own line); ``record`` the shot
    just judged (if any); ``pending`` the shot held for review; ``paused`` why scoring
    is paused; ``timeouts`` the time-outs used by players A and B in this game.
    """

    version: int
    state: MatchState
    what: str
    account: Account | None = None
    record: ShotRecord | None = None
    pending: PendingReview | None = None
    paused: str | None = None
    timeouts: tuple[int, ...] = (0, 0)


Sink = Callable[[SessionUpdate], None]


class LiveSession:
    """A live match backed by the journal of a :class:`MatchStore`; thread-safe."""

    def __init__(self, store: MatchStore, row: MatchRow, config: MatchConfig, setup: LiveSetup):
        self._store = store
        self._row = row
        self.setup = setup
        self._m = Machine(config, setup.timeouts_per_game)
        self._version = 0
        self._lock = threading.RLock()
        self._sinks: list[Sink] = []
        self.sink_errors: list[str] = []
        self.resumed = False

    # --- opening ---

    @classmethod
    def open(cls, store: MatchStore, setup: LiveSetup, *, now_iso: str) -> LiveSession:
        """Resume the newest unfinished match of ``setup``, else start a new one.

        The match is held for this process until :meth:`release` or its end
        (:mod:`carom.live._hold`). Raises LiveError when another process holds it.
        """
        store.require_sound()  # never resume, nor start a match beside, a damaged one
        key = setup_key(setup.config, setup.source)
        row = store.find_unfinished(key)
        for alias in setup.aliases:
            row = row or store.find_unfinished(setup_key(setup.config, alias))
        if row is None:
            row = store.new_match(setup_key=key, source=setup.source,
                                  config=config_doc(setup.config), now_iso=now_iso)  # fmt: skip
            hold_match(store.path, row.id)
            return cls(store, row, setup.config, setup)
        hold_match(store.path, row.id)  # before its journal is read: nobody else writes it
        session = cls(store, row, setup.config, setup)
        session._replay(store.journal(row.id))
        session.resumed = True
        return session

    @classmethod
    def load(
        cls, store: MatchStore, match_id: int, *, upto: int | None = None,
        timeouts_per_game: int | None = None,
    ) -> LiveSession:  # fmt: skip
        """Any match of the store, replayed (its first ``upto`` entries when given)."""
        store.require_sound()
        row = store.match(match_id)
        config = config_from_doc(row.config)
        session = cls(store, row, config, LiveSetup(config, row.source, timeouts_per_game))
        session._replay(store.journal(match_id, upto=upto))
        session.resumed = True
        return session

    @staticmethod
    def left_unfinished(
        store: MatchStore, sources: frozenset[str], *, besides: int | None = None
    ) -> MatchRow | None:
        """The newest unfinished match seen by one of ``sources`` (but ``besides``), if any.

        A restart or a crash left it; only the same set-up resumes it.
        """
        left = [m for m in store.matches()
                if m.finished_at is None and m.source in sources and m.id != besides]  # fmt: skip
        return left[-1] if left else None

    def release(self) -> None:
        """Let another process referee this match (it was held since :meth:`open`)."""
        release_match(self._store.path, self.match_id)

    def _replay(self, entries: list[JournalEntry]) -> None:
        for e in entries:
            try:
                plan = self._m.plan(e.kind, e.payload, e.paths, e.seq, who=e.who, at=e.at)
            except (CaromError, KeyError, TypeError, ValueError) as exc:  # a damaged entry
                raise LiveError(
                    f"match {self.match_id}: journal entry {e.seq} cannot be replayed ({exc}); "
                    "export what is before it with carom export --match"
                ) from None
            self._m.execute(plan)
            self._version = e.seq

    # --- reading ---

    @property
    def match_id(self) -> int:
        """The match's id in the database."""
        return self._row.id

    @property
    def created_at(self) -> str:
        """When the match was created (ISO)."""
        return self._row.created_at

    @property
    def version(self) -> int:
        """How many journal entries the session holds."""
        return self._version

    @property
    def state(self) -> MatchState:
        """The referee's match state."""
        return self._m.match.state

    @property
    def records(self) -> tuple[ShotRecord, ...]:
        """The judged shots in effect."""
        return self._m.match.records

    @property
    def ops(self) -> tuple[Op, ...]:
        """The referee inputs in effect (lags, shots, corrections), in order."""
        return tuple(self._m.ops)

    @property
    def lag(self) -> LagResult | None:
        """The last lag's result."""
        return self._m.lag

    @property
    def pending(self) -> PendingReview | None:
        """The shot held for review, if any (scoring waits for the decision)."""
        return self._m.pending

    @property
    def paused(self) -> str | None:
        """Why scoring is paused (``None``: it is not)."""
        return self._m.paused

    @property
    def resume_video_t_s(self) -> float | None:
        """Video time (s) of the end of the last committed shot; skip frames before it."""
        return self._m.resume_video_t_s

    def timeouts_used(self) -> tuple[int, ...]:
        """Time-outs used in the current game by each player, in the order of play."""
        state, used = self.state, self._m.timeouts
        return tuple(used.get((state.set_index, p), 0) for p in state.config.players)

    def snapshot(self, what: str | None = None) -> SessionUpdate:
        """The current state as an update (e.g. to tell a scoreboard at once on resume)."""
        with self._lock:
            if what is not None:
                return self._update(what, None)
            how = "resumed" if self.resumed else "new"
            fields = {"how": how, "id": self.match_id, "version": self._version}
            return self._update(Account("session", fields), None)

    def _update(self, said: Account | str, record: ShotRecord | None) -> SessionUpdate:
        account = said if isinstance(said, Account) else None
        what = said.english if isinstance(said, Account) else said
        return SessionUpdate(version=self._version, state=self.state, what=what,
                             account=account, record=record, pending=self.pending,
                             paused=self.paused, timeouts=self.timeouts_used())  # fmt: skip

    def subscribe(self, fn: Sink) -> None:
        """Call ``fn`` after every committed change, in subscription order."""
        with self._lock:
            self._sinks.append(fn)

    # --- inputs ---

    def submit(
        self, analyzed: AnalyzedShot, *, video_t_s: float | None, now_iso: str
    ) -> SessionUpdate:
        """Judge an analysed shot (or lag); a shot asking for review is held as pending.

        While scoring is paused the shot is held as pending too (stored, not scored,
        until a person decides). ``video_t_s`` is the video time of the end of the shot
        (``None``: unknown).

        Raises:
            ReviewPending: a shot waits for a decision.
            CaromError: the referee refuses the shot (e.g. the match is over).
        """
        info = {i: (s.confidence, s.evidence) for i, s in enumerate(_aligned(analyzed))
                if s is not None}  # fmt: skip
        doc, paths = shot_doc(analyzed.shot, info)
        payload = {
            "video_t_s": None if video_t_s is None else float(video_t_s),
            "lag": bool(analyzed.lag),
            "lag_rule": "report_all",  # a lag before the first stroke (live-storage.md)
            "shot": doc,
        }
        with self._lock:
            update = self._commit("shot", payload, paths, VISION, now_iso)
            self._keep_tracks(update.version, analyzed)
        return update

    def _keep_tracks(self, seq: int, analyzed: AnalyzedShot) -> None:
        """Store the shot's trajectories beside its entry, once the verdict is out.

        A failure is recorded in ``sink_errors`` (as a sink's is): it never undoes the
        committed shot, whose trajectories are then missing from the export.
        """
        if not analyzed.tracks:
            return  # nothing was tracked (a shot typed in or made up): nothing to keep
        try:
            blob = encode_tracks(shot_track(analyzed.shot.index, analyzed))
            self._store.put_tracks(self.match_id, seq, blob)
        except CaromError as exc:
            self.sink_errors.append(f"trajectories of journal entry {seq}: {exc}")

    def tracks(self) -> dict[int, ShotTrack]:
        """The kept trajectories of the match's shots, by the ``seq`` of their entry.

        A :class:`PlayStep`'s ``entry`` names its shot's; entries written before
        trajectories were kept have none, and so has one whose blob no longer decodes
        (zlib's checksum; replay never reads them, so the match itself is sound).
        """
        kept = {}
        for seq, blob in self._store.tracks(self.match_id).items():
            try:
                kept[seq] = decode_tracks(blob)
            except (zlib.error, ValueError, KeyError, TypeError, IndexError):
                continue  # damaged: left out like a shot whose trajectories were not kept
        return kept

    def decide(self, decision: ReviewDecision, *, who: str, now_iso: str) -> SessionUpdate:
        """Settle the shot held for review (accept, reject, or its points)."""
        payload: dict[str, Any] = {"decision": str(decision.kind)}
        if decision.kind is DecisionKind.POINTS:  # the stroke's own points (not corrections)
            payload |= {"points": decision.points, "stroke": True}
        return self._commit("decide", payload, None, who, now_iso)

    def call(self, call: PersonCall, *, who: str, now_iso: str) -> SessionUpdate:
        """A person's foul call, undo, correction or time-out."""
        payload: dict[str, Any]
        if isinstance(call, FoulCall):
            payload = {"call": "foul", "foul": str(call.foul)}
        elif isinstance(call, TimeoutCall):
            payload = {"call": "timeout", "player": call.player or self.state.shooter}
        elif isinstance(call, Correction):
            payload = {"call": "correct", "correction": correction_json(self._resolved(call))}
        else:
            payload = {"call": "undo"}
        return self._commit("call", payload, None, who, now_iso)

    def _resolved(self, c: Correction) -> Correction:
        if c.kind is CorrectionKind.BREAK_POSITION and not c.player:
            return replace(c, player=self.state.shooter or "")
        return c

    def set_paused(self, why: str | None, *, now_iso: str, who: str = "runtime") -> SessionUpdate:
        """Pause scoring (``why``: "camera lost", "calibration drift") or resume it."""
        with self._lock:
            if why == self.paused:  # unchanged: nothing to write
                return self._update(f"scoring still paused: {why}" if why else "scoring", None)
            return self._commit("pause", {"why": why}, None, who, now_iso)

    def _commit(
        self, kind: str, payload: dict[str, Any], paths: bytes | None, who: str, now_iso: str
    ) -> SessionUpdate:
        with self._lock:
            # raises: nothing written, nothing changed
            plan = self._m.plan(kind, payload, paths, self._version + 1, who=who, at=now_iso)
            entry = JournalEntry(
                seq=self._version + 1, kind=kind, payload=payload, who=who, at=now_iso,
                state_version=self.state.version + len(plan.steps), result=_result(plan),
                paths=paths,
            )  # fmt: skip
            finished = now_iso if plan.phase is Phase.OVER else None
            self._store.append(self.match_id, [entry], finished_at=finished)
            records = self._m.execute(plan)
            self._version = entry.seq
            update = self._update(plan.account, records[-1] if records else None)
            for sink in self._sinks:
                self._tell(sink, update)
            return update

    def _tell(self, sink: Sink, update: SessionUpdate) -> None:
        try:
            sink(update)
        except Exception as exc:  # a sink's failure must not undo a committed input
            self.sink_errors.append(f"{getattr(sink, '__name__', sink)}: {exc}")


def _aligned(analyzed: AnalyzedShot) -> list[Any]:
    """Vision's scored events in the order of ``analyzed.shot.events`` (``None``: unscored)."""
    by_id = {id(s.event): s for s in analyzed.scored}
    by_value = {s.event: s for s in analyzed.scored}
    return [by_id.get(id(e)) or by_value.get(e) for e in analyzed.shot.events]


def _result(plan: Plan) -> Mapping[str, Any]:
    out: dict[str, Any] = {"what": plan.what, "records": [record_json(r) for r in plan.records]}
    if plan.pending is not None:
        out["pending"] = {"index": plan.pending.shot.index, "review": plan.pending.reason}
    return out
