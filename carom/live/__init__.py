"""Live mode: a camera over the table calls the match in real time, and nothing is lost.

The match journal (this package): the SQLite match store, the live session every
sink is fed from (write-ahead journal, resume after a crash), a person's calls and the
exports. The camera side is :mod:`carom.live.loop`.
"""

from carom.live._account import (
    ACCOUNT_ENGLISH,
    JOIN_ENGLISH,
    LAG_FAULT_ENGLISH,
    Account,
    correction_account,
    lag_account,
    undid_timeout,
)
from carom.live._calls import (
    HELP,
    CallParseError,
    DecisionKind,
    FoulCall,
    HelpRequest,
    KeyboardInput,
    PersonCall,
    ReviewDecision,
    TimeoutCall,
    UndoCall,
    parse_line,
)
from carom.live._codec import source_identity
from carom.live._export import (
    CSV_COLUMNS,
    corrections_in_effect,
    csv_columns,
    csv_text,
    judged_setup,
    result_row,
    shot_log,
    trajectories,
    write_csv,
)
from carom.live._hold import held_by, holds_path
from carom.live._repair import MatchSalvage, RepairReport, repair
from carom.live._session import (
    LiveSession,
    LiveSetup,
    PendingReview,
    ReviewPending,
    SessionUpdate,
)
from carom.live._steps import Caller, Decided, PlayStep
from carom.live._store import JournalEntry, LiveError, MatchRow, MatchStore, StoreHealth

__all__ = [
    "ACCOUNT_ENGLISH",
    "CSV_COLUMNS",
    "HELP",
    "JOIN_ENGLISH",
    "LAG_FAULT_ENGLISH",
    "Account",
    "CallParseError",
    "Caller",
    "Decided",
    "DecisionKind",
    "FoulCall",
    "HelpRequest",
    "JournalEntry",
    "KeyboardInput",
    "LiveError",
    "LiveSession",
    "LiveSetup",
    "MatchRow",
    "MatchSalvage",
    "MatchStore",
    "PendingReview",
    "PersonCall",
    "PlayStep",
    "RepairReport",
    "ReviewDecision",
    "ReviewPending",
    "SessionUpdate",
    "StoreHealth",
    "TimeoutCall",
    "UndoCall",
    "correction_account",
    "corrections_in_effect",
    "csv_columns",
    "csv_text",
    "held_by",
    "holds_path",
    "judged_setup",
    "lag_account",
    "parse_line",
    "repair",
    "result_row",
    "shot_log",
    "source_identity",
    "trajectories",
    "undid_timeout",
    "write_csv",
]
