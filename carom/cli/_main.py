"""The ``carom`` command line: the parser of every command, and the one error line.

Exit status, one per kind of failure (docs/exit-status.md; every failure is one line
on stderr, ``carom: ...``, never a traceback):

=====  ==================================================================================
0      done
1      internal error: a bug; one line, the traceback only in the log (``--log-file``)
2      bad input: a command line, shot log, calibration, match file or database that
       cannot be used as it is (the line names it and the way out)
3      ``carom calibrate`` wrote a *doubtful* calibration (look at the overlay)
4      the calibration *failed* (``calibrate``, and ``analyze``, ``live``, ``serve``
       fitting one): the line gives the commands to mark the corners instead
5      unreadable media: a video, image or camera that cannot be opened or read to its end
       (``carom batch``: one or more of its videos failed; the index names each)
6      device: a scoreboard link failed or the board never confirmed the final state
130    interrupted (Ctrl-C)
=====  ==================================================================================

``--version`` prints the version; ``-v`` / ``-q`` make the log on stderr more or less
talkative and ``--log-file FILE`` keeps a full log (with tracebacks of internal errors)
for an unattended club PC.
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import NoReturn

from carom.console import SAID, capture_warnings, set_quiet
from referee import CaromError

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_DEVICE",
    "EXIT_DOUBTFUL",
    "EXIT_FAILED",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_MEDIA",
    "main",
    "status_of",
]

EXIT_INTERNAL = 1
EXIT_BAD_INPUT = 2
EXIT_DOUBTFUL = 3
EXIT_FAILED = 4
EXIT_MEDIA = 5
EXIT_DEVICE = 6
EXIT_INTERRUPTED = 130

_log = logging.getLogger("carom")

Adder = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


def _commands() -> list[Adder]:
    """Each command's ``add_parser``, in the order ``carom --help`` lists them."""
    from carom.cli import (
        _analyze,
        _batch,
        _calibrate,
        _emulator,
        _export,
        _live,
        _score,
        _serve,
        _stats,
        _synth,
    )

    return [
        _score.add_parser,
        _synth.add_parser,
        _calibrate.add_parser,
        _analyze.add_parser,
        _batch.add_parser,
        _stats.add_parser,
        _emulator.add_parser,
        _live.add_parser,
        _export.add_parsers,
        _serve.add_parser,
    ]


def version() -> str:
    """The installed version of carom-referee (``unknown`` when not installed)."""
    try:
        return metadata.version("carom-referee")
    except metadata.PackageNotFoundError:
        return "unknown"


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose refusals are one line, as every other failure's.

    Not its usage block first: the line names the command, the argument and the way to
    the usage (``--help``). The commands' parsers are of this class too.
    """

    #: The words being parsed (set by :func:`_parsed`), for :meth:`error`'s hint.
    argv: Sequence[str] = ()

    def error(self, message: str) -> NoReturn:
        hint = _players_took(message, self.argv)
        self.exit(2, f"{self.prog}: error: {message}{hint}; `{self.prog} --help` lists the "
                     "options\n")  # fmt: skip


def _players_took(message: str, argv: Sequence[str]) -> str:
    """Why the video seems missing when ``--players A B`` took it as a third name."""
    required = message.partition("the following arguments are required: ")[2]
    if not required.startswith(("video", "SOURCE")) or "--players" not in argv:
        return ""  # only a video (or a batch's source) can be taken for a name
    words = []
    for word in argv[argv.index("--players") + 1 :]:
        if word.startswith("-"):
            break
        words.append(word)
    files = [i for i, w in enumerate(words) if i and _is_file(w)]  # the videos given
    if files and files[0] >= 2:  # the names end where the first video is
        words = words[: files[0] + 1]
    if len(words) < 2 or "," in words[-1] or (len(words) == 2 and "," not in words[0]):
        return ""  # two names, or the last with a comma: none taken for the video
    video = shlex.quote(words[-1])
    if len(words) == 2:  # --players A,B VIDEO: A,B the names, VIDEO one too
        return (f" (if {video} is the video, --players took it as a name: give the video "
                "before --players)")  # fmt: skip
    names = shlex.quote(",".join(words[:-1]))
    return (f" (if {video} is the video, --players took it as a name: give the video "
            f"before --players, or the names with commas: --players {names})")  # fmt: skip


def _is_file(word: str) -> bool:
    try:
        return Path(word).is_file()
    except (OSError, ValueError):  # a word too long for a path, a NUL
        return False


def _parser() -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = _Parser(
        prog="carom", description="Automatic carom referee.",
        epilog="Exit status: 0 done, 1 internal error, 2 bad input, 3 doubtful calibration, "
        "4 calibration failed, 5 unreadable media, 6 device (scoreboard), 130 interrupted.",
    )  # fmt: skip
    parser.add_argument("--version", action="version", version=f"carom {version()}")
    talk = parser.add_mutually_exclusive_group()
    talk.add_argument("-v", "--verbose", action="count", default=0,
                      help="log more on stderr (-v info, -vv debug)")  # fmt: skip
    talk.add_argument("-q", "--quiet", action="store_true",
                      help="log only errors on stderr")  # fmt: skip
    parser.add_argument("--log-file", type=Path, metavar="FILE",
                        help="append a full log (debug level, tracebacks of internal "
                        "errors) to FILE")  # fmt: skip
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in _commands():
        add(sub)
    return parser


def _parsed(argv: list[str]) -> argparse.Namespace:
    """The parsed ``argv``; an unknown option is the command's usage error, not carom's.

    ``carom analyze --bogus`` was told by the top parser, which pointed at ``carom
    --help`` (that lists the commands, not analyze's options).
    """
    _Parser.argv = argv
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        before = argv[: argv.index(args.command)] if args.command in argv else []
        owner = parser if any(e in before for e in extra) else sub.choices[args.command]
        owner.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def _setup_logging(args: argparse.Namespace) -> None:
    """Log on stderr at warning (``-v`` info, ``-vv`` debug, ``-q`` error); ``--log-file`` at debug.

    Raises:
        CaromError: the log file cannot be opened (bad input, before any work).
    """
    for handler in list(_log.handlers):  # a second main() in one process (tests)
        _log.removeHandler(handler)
        handler.close()
    _log.propagate = False
    _log.setLevel(logging.DEBUG)
    level = logging.ERROR if args.quiet else (logging.WARNING, logging.INFO)[min(args.verbose, 1)]
    set_quiet(args.quiet)
    if args.verbose >= 2:
        level = logging.DEBUG
    if level > logging.DEBUG:  # FFmpeg's and OpenCV's own chatter only at -vv: our line says it
        os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # read at FFmpeg's first use
        os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    capture_warnings(args.verbose >= 1)  # numpy, PyAV ...: the log, on stderr only with -v
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setLevel(level)
    stderr.setFormatter(logging.Formatter("carom: %(message)s"))
    stderr.addFilter(lambda record: not getattr(record, SAID, False))  # printed already
    _log.addHandler(stderr)
    if args.log_file is not None:
        try:
            handler = logging.FileHandler(args.log_file, encoding="utf-8")
        except OSError as exc:
            raise CaromError(f"{args.log_file}: cannot open the log file ({exc.strerror}); "
                             "check the folder or leave out --log-file") from None  # fmt: skip
        handler.setLevel(logging.DEBUG)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        _log.addHandler(handler)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (the module docstring)."""
    given = sys.argv[1:] if argv is None else argv
    if (garbled := _not_utf8(given)) is not None:
        print(f"carom: '{garbled}' is not UTF-8 text (a name written in another encoding); "
              "rename the file or folder with UTF-8 letters, or give another name",
              file=sys.stderr)  # fmt: skip
        return EXIT_BAD_INPUT
    args = _parsed(_joined_values(given))
    try:
        _setup_logging(args)
        _log.debug("carom %s: %s", version(), " ".join(sys.argv if argv is None else argv))
        status = _run(args)
        sys.stdout.flush()  # a reader gone away (``| head``) is met here, not at exit
        return status
    except CaromError as exc:
        print(f"carom: {exc}", file=sys.stderr)
        _log.debug("failed: %s", exc, exc_info=True)
        return status_of(exc)
    except KeyboardInterrupt:
        print("carom: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _quiet_broken_pipe()
        return 0
    except Exception as exc:  # the last line of defence: one line, not a traceback
        _log.debug("internal error", exc_info=True)
        where = " (the traceback is in the log file)" if args.log_file else (
            "; rerun with --log-file FILE to keep the traceback")  # fmt: skip
        print(f"carom: internal error: {type(exc).__name__}: {exc}{where}; please report it",
              file=sys.stderr)  # fmt: skip
        return EXIT_INTERNAL
    finally:
        set_quiet(False)  # the command's own: not a later caller's in the same process


def _not_utf8(argv: Sequence[str]) -> str | None:
    r"""The first argument that is not UTF-8 (its bytes shown as ``\xe9``), else None.

    Python keeps such bytes of a file name as lone surrogates; OpenCV crashed on them
    (a segmentation fault), and writing the name to a file or a terminal failed.
    """
    from carom.files import not_utf8

    return next((shown for arg in argv if (shown := not_utf8(arg)) is not None), None)


#: Options whose value may begin with "-" (pixel lists): argparse took "-50,-50;..." for
#: an option and said "expected one argument"; joined as --corners=VALUE it is read
#: (and a negative pixel refused by name).
_DASH_VALUES = ("--corners", "--diamonds")
_NEGATIVE_STARTS = {f"-{c}" for c in "0123456789."}


def _joined_values(argv: Sequence[str]) -> list[str]:
    """``argv`` with ``--corners -50,...`` written as ``--corners=-50,...``."""
    out: list[str] = []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in _DASH_VALUES and args and args[0][:2] in _NEGATIVE_STARTS:
            arg = f"{arg}={args.pop(0)}"
        out.append(arg)
    return out


def _run(args: argparse.Namespace) -> int:
    """Dispatch to the command (each imported only when run)."""
    if args.command == "score":
        from carom.cli._score import run as run_score

        return run_score(args)
    if args.command == "calibrate":
        from carom.cli._calibrate import run as run_calibrate

        return run_calibrate(args)
    if args.command == "analyze":
        from carom.cli._analyze import run as run_analyze

        return run_analyze(args)
    if args.command in ("batch", "stats"):
        from carom.cli import _batch, _stats

        return (_batch.run if args.command == "batch" else _stats.run)(args)
    if args.command == "live":
        from carom.cli._live import run as run_live

        return run_live(args)
    if args.command in ("matches", "export"):
        from carom.cli._export import run_export, run_matches

        return run_matches(args) if args.command == "matches" else run_export(args)
    if args.command == "serve":
        from carom.cli._serve import run as run_serve

        return run_serve(args)
    if args.command == "scoreboard-emulator":
        from carom.cli._emulator import run_emulator

        return run_emulator(args)
    if args.command == "synth":
        from carom.cli._synth import run as run_synth

        return run_synth(args)
    return EXIT_BAD_INPUT  # pragma: no cover - argparse rejects unknown commands


def _quiet_broken_pipe() -> None:
    """The reader of stdout went away (``carom ... | head``): end quietly, no traceback.

    Python would complain again when it flushes stdout at exit; point stdout at
    ``/dev/null`` first (the documented recipe of the ``signal`` module's notes).
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def status_of(exc: CaromError) -> int:
    """The exit status of an error by its kind (the module docstring)."""
    # Only a command that used a package has loaded it: no import for the others.
    kinds = (
        ("calibration", "CalibrationFailed", EXIT_FAILED),
        ("vision", "VideoError", EXIT_MEDIA),
        ("hardware", "CameraError", EXIT_MEDIA),
        ("hardware", "ScoreboardError", EXIT_DEVICE),
    )
    for module_name, class_name, status in kinds:
        module = sys.modules.get(module_name)
        kind = getattr(module, class_name, None) if module is not None else None
        if isinstance(kind, type) and isinstance(exc, kind):
            return status
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
