"""The scoreboard codec: CRC, frames, the stream decoder, snapshots, events, text line."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware._errors import ProtocolError, ScoreboardError
from hardware.scoreboard._codec_text import text_line
from hardware.scoreboard._crc import crc16_ccitt
from hardware.scoreboard._protocol import (
    ETX,
    MAX_PAYLOAD_CHARS,
    STX,
    Frame,
    FrameDecoder,
    FrameKind,
    Identity,
    Reject,
    encode_frame,
    parse_seq_payload,
    seq_payload,
)
from hardware.scoreboard._snapshot import (
    EventKind,
    EventMessage,
    Snapshot,
    board_text,
    snapshot_from_state,
)
from referee import Ball, CaromError, Discipline, Match, MatchConfig, Score
from tests.referee.factories import config, drive

WIRE_TEXT = st.text(
    alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters="*"),
    max_size=MAX_PAYLOAD_CHARS,
)
FRAMES = st.builds(
    Frame,
    addr=st.integers(0, 255),
    seq=st.integers(0, 255),
    kind=st.sampled_from(FrameKind),
    payload=WIRE_TEXT,
)
COUNT = st.integers(0, 99_999)
PAIR = st.tuples(COUNT, COUNT)
SNAPSHOTS = st.builds(
    Snapshot,
    discipline=st.sampled_from([str(d) for d in Discipline]) | st.text(max_size=20),
    players=st.tuples(st.text(max_size=30), st.text(max_size=30)),
    scores=st.tuples(st.integers(-99_999, 99_999), st.integers(-99_999, 99_999)),
    innings=PAIR,
    run=COUNT,
    high_runs=PAIR,
    active=st.integers(0, 1),
    shot_clock_s=st.none() | st.integers(0, 999),
    timeouts=st.tuples(st.integers(0, 99), st.integers(0, 99)),
    equalizing=st.booleans(),
    review=st.booleans(),
    over=st.booleans(),
)
EVENTS = st.builds(
    EventMessage, kind=st.sampled_from(EventKind), player=st.integers(0, 1), text=st.text()
)


def snap(**changes: object) -> Snapshot:
    base = Snapshot(
        discipline="three-cushion",
        players=("A", "B"),
        scores=(12, 9),
        innings=(14, 14),
        run=3,
        high_runs=(5, 4),
        active=0,
        shot_clock_s=None,
        timeouts=(1, 0),
        equalizing=False,
        review=False,
        over=False,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


# --- CRC -------------------------------------------------------------------------


def test_crc_matches_the_standard_check_value() -> None:
    assert crc16_ccitt(b"123456789") == 0x29B1
    assert crc16_ccitt(b"") == 0xFFFF


@given(st.binary(max_size=64), st.binary(max_size=64))
def test_crc_can_run_over_pieces(a: bytes, b: bytes) -> None:
    assert crc16_ccitt(b, crc16_ccitt(a)) == crc16_ccitt(a + b)


def test_errors_hang_under_the_project_root() -> None:
    assert issubclass(ProtocolError, ScoreboardError)
    assert issubclass(ScoreboardError, CaromError)


# --- frames ----------------------------------------------------------------------


def test_frame_layout_is_the_documented_one() -> None:
    wire = encode_frame(Frame(0x01, 0x2A, FrameKind.HEARTBEAT))
    body = b"012AH"
    assert wire == b"\x02" + body + b"*%04X\x03" % crc16_ccitt(body)


@given(FRAMES)
def test_encode_then_decode_is_the_identity(frame: Frame) -> None:
    decoder = FrameDecoder()
    assert decoder.feed(encode_frame(frame)) == [frame]
    assert (decoder.frames, decoder.crc_errors, decoder.junk_bytes) == (1, 0, 0)


@pytest.mark.parametrize(
    "bad",
    [
        {"addr": 256},
        {"addr": -1},
        {"seq": 256},
        {"payload": "a*b"},
        {"payload": "\x03"},
        {"payload": "é"},
        {"payload": "x" * (MAX_PAYLOAD_CHARS + 1)},
    ],
)
def test_a_bad_frame_never_reaches_the_wire(bad: dict[str, object]) -> None:
    fields: dict[str, object] = {"addr": 0, "seq": 0, "kind": FrameKind.EVENT, "payload": ""}
    with pytest.raises(ProtocolError):
        Frame(**{**fields, **bad})  # type: ignore[arg-type]


@given(st.lists(st.binary(max_size=80), max_size=12))
def test_any_byte_stream_never_raises(chunks: list[bytes]) -> None:
    decoder = FrameDecoder()
    frames = [f for chunk in chunks for f in decoder.feed(chunk)]
    assert decoder.frames == len(frames)
    assert decoder.junk_bytes <= sum(map(len, chunks))


@given(st.binary(max_size=300), FRAMES)
def test_a_frame_after_any_junk_is_found(junk: bytes, frame: Frame) -> None:
    decoder = FrameDecoder()
    assert decoder.feed(junk + encode_frame(frame))[-1:] == [frame]


def test_junk_before_a_frame_is_counted_and_dropped() -> None:
    frame = Frame(3, 7, FrameKind.EVENT, "point|0|")
    decoder = FrameDecoder()
    assert decoder.feed(b"\x00garbage\xff\r\n" + encode_frame(frame)) == [frame]
    assert decoder.junk_bytes == len(b"\x00garbage\xff\r\n")


def test_a_torn_frame_is_dropped_when_a_new_one_starts() -> None:
    first, second = Frame(1, 1, FrameKind.SNAPSHOT, "x"), Frame(1, 2, FrameKind.ACK, "01")
    torn = encode_frame(first)[:6]
    decoder = FrameDecoder()
    assert decoder.feed(torn + encode_frame(second)) == [second]
    assert decoder.junk_bytes == len(torn)


def test_a_frame_split_at_every_position_decodes_once() -> None:
    frames = [Frame(0, 255, FrameKind.SNAPSHOT, snap().to_payload()), Frame(0xFF, 0, FrameKind.NAK)]
    wire = b"".join(map(encode_frame, frames))
    for cut in range(len(wire) + 1):
        decoder = FrameDecoder()
        assert decoder.feed(wire[:cut]) + decoder.feed(wire[cut:]) == frames, cut
    decoder = FrameDecoder()
    assert [f for byte in wire for f in decoder.feed(bytes([byte]))] == frames


def test_back_to_back_frames_all_decode() -> None:
    frames = [Frame(i % 4, i, FrameKind.EVENT, f"miss|{i % 2}|") for i in range(50)]
    decoder = FrameDecoder()
    assert decoder.feed(b"".join(map(encode_frame, frames))) == frames
    assert decoder.frames == 50


def test_every_corrupted_byte_is_a_crc_error_and_the_next_frame_survives() -> None:
    frame = Frame(0x05, 0x42, FrameKind.EVENT, "foul|1|push")
    good, wire = Frame(0x05, 0x43, FrameKind.HEARTBEAT), encode_frame(frame)
    for pos in range(1, len(wire) - 1):  # every byte between STX and ETX
        damaged = bytearray(wire)
        damaged[pos] ^= 0x01
        decoder = FrameDecoder()
        assert decoder.feed(bytes(damaged) + encode_frame(good)) == [good], pos
        assert (decoder.crc_errors, decoder.frames, decoder.bad_frames) == (1, 1, 0), pos


def test_a_crc_reject_keeps_addr_and_seq_for_the_nak() -> None:
    wire = bytearray(encode_frame(Frame(0x05, 0x42, FrameKind.EVENT, "point|0|")))
    wire[8] = ord("X")  # inside the payload
    decoder = FrameDecoder()
    assert decoder.feed(bytes(wire)) == []
    assert decoder.drain_rejects() == [Reject(0x05, 0x42)]
    assert decoder.drain_rejects() == []


def test_an_intact_frame_of_unknown_kind_is_a_bad_frame() -> None:
    body = b"0001Zhello"
    decoder = FrameDecoder()
    assert decoder.feed(b"\x02" + body + b"*%04X\x03" % crc16_ccitt(body)) == []
    assert (decoder.bad_frames, decoder.crc_errors) == (1, 0)


def test_an_endless_body_is_junk_and_the_decoder_recovers() -> None:
    frame = Frame(0, 1, FrameKind.HEARTBEAT)
    decoder = FrameDecoder()
    assert decoder.feed(bytes([STX]) + b"A" * 5000 + bytes([ETX]) + encode_frame(frame)) == [frame]
    assert decoder.junk_bytes == 5002


def test_ack_payload_and_identity_round_trip() -> None:
    assert seq_payload(0x2A) == "2A"
    assert [parse_seq_payload(seq_payload(s)) for s in range(256)] == list(range(256))
    for bad in ("", "2a", "123", "G0", "é1"):
        with pytest.raises(ProtocolError):
            parse_seq_payload(bad)
    who = Identity("carom-emu", "1.0", 3)
    assert who.to_payload() == "carom-emu|1.0|3"
    assert Identity.from_payload(who.to_payload()) == who
    with pytest.raises(ProtocolError):
        Identity.from_payload("model|1.0")


# --- snapshots and events --------------------------------------------------------


@given(SNAPSHOTS)
def test_snapshot_round_trips_through_payload_and_frame(snapshot: Snapshot) -> None:
    assert Snapshot.from_payload(snapshot.to_payload()) == snapshot
    frame = Frame(0, 0, FrameKind.SNAPSHOT, snapshot.to_payload())
    (decoded,) = FrameDecoder().feed(encode_frame(frame))
    assert Snapshot.from_payload(decoded.payload) == snapshot


@given(EVENTS)
def test_event_round_trips(event: EventMessage) -> None:
    assert EventMessage.from_payload(event.to_payload()) == event
    encode_frame(Frame(1, 1, FrameKind.EVENT, event.to_payload()))


def test_snapshot_payload_has_the_documented_field_order() -> None:
    text = snap(shot_clock_s=40, equalizing=True).to_payload()
    assert text == "three-cushion|A|B|12|9|14|14|3|5|4|0|40|1|0|1|0|0"
    assert snap().to_payload().split("|")[11] == ""  # no shot clock


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Zoë", "Zoe"),
        ("Çağlar", "Caglar"),
        ("Jürgen Weiß", "Jurgen Weiss"),
        ("Søren Łukasz", "Soren Lukasz"),
        ("Dương", "Duong"),
        ("李", "?"),
        ("a|b*c", "a?b?c"),
        ("  padded  ", "padded"),
        ("Frédéric Caudron-Lefebvre", "Frederic Caudron"),
    ],
)
def test_non_ascii_names_are_transliterated(raw: str, shown: str) -> None:
    assert board_text(raw) == shown
    assert snap(players=(raw, "B")).players == (shown, "B")
    assert board_text(shown) == shown


@given(st.text())
def test_board_text_is_printable_ascii_and_idempotent(text: str) -> None:
    shown = board_text(text)
    assert all(" " <= ch <= "~" and ch not in "|*" for ch in shown)
    assert board_text(shown) == shown


@pytest.mark.parametrize(
    "changes",
    [
        {"active": 2},
        {"run": -1},
        {"scores": (1, 2, 3)},
        {"innings": (100_000, 0)},
        {"shot_clock_s": 1000},
        {"timeouts": (True, 0)},
    ],
)
def test_a_snapshot_out_of_range_is_refused(changes: dict[str, object]) -> None:
    with pytest.raises(ProtocolError):
        snap(**changes)


@pytest.mark.parametrize(
    "payload",
    [
        "three-cushion|A|B|12|9|14|14|3|5|4|0||1|0|0|0",  # 16 fields
        "three-cushion|A|B|x|9|14|14|3|5|4|0||1|0|0|0|0",
        "three-cushion|A|B|+1|9|14|14|3|5|4|0||1|0|0|0|0",
        "three-cushion|A|B|12|9|14|14|3|5|4|0||1|0|0|0|2",
        "three-cushion|A|B|12|9|14|14|3|5|4|2||1|0|0|0|0",
        "three-cushion|A-very-long-player-name|B|12|9|14|14|3|5|4|0||1|0|0|0|0",
    ],
)
def test_a_bad_snapshot_payload_raises(payload: str) -> None:
    with pytest.raises(ProtocolError):
        Snapshot.from_payload(payload)


def test_snapshot_payload_ignores_fields_a_newer_sender_appends() -> None:
    assert Snapshot.from_payload(snap().to_payload() + "|42|x") == snap()


@pytest.mark.parametrize("payload", ["", "boom|0|", "point|2|", "point|0", "point|0|ü"])
def test_a_bad_event_payload_raises(payload: str) -> None:
    with pytest.raises(ProtocolError):
        EventMessage.from_payload(payload)


# --- from the referee's match state ----------------------------------------------


def test_snapshot_follows_a_real_match() -> None:
    match = Match(config(target=3))
    assert snapshot_from_state(match.state) == snap(
        scores=(0, 0), innings=(0, 0), run=0, high_runs=(0, 0), timeouts=(0, 0)
    )
    drive(match, "pp")
    s = snapshot_from_state(match.state, shot_clock_s=35, review=True)
    assert (s.scores, s.innings, s.run, s.active, s.high_runs) == ((2, 0), (1, 0), 2, 0, (2, 0))
    assert (s.shot_clock_s, s.review, s.equalizing, s.over) == (35, True, False, False)
    drive(match, "m")  # A's inning ends: B to the table
    s = snapshot_from_state(match.state)
    assert (s.scores, s.innings, s.run, s.active) == ((2, 0), (1, 0), 0, 1)
    drive(match, "ppm")
    s = snapshot_from_state(match.state)
    assert (s.scores, s.innings, s.run, s.active, s.high_runs) == ((2, 2), (1, 1), 0, 0, (2, 2))


def test_snapshot_shows_the_equalizing_inning_and_the_end() -> None:
    match = Match(config(target=3))
    drive(match, "ppp")  # the breaker reaches the target: B gets the equalizing inning
    s = snapshot_from_state(match.state)
    assert (s.scores, s.innings, s.active, s.equalizing, s.over) == ((3, 0), (1, 0), 1, True, False)
    drive(match, "pm")
    s = snapshot_from_state(match.state)
    assert (s.scores, s.innings, s.high_runs) == ((3, 1), (1, 1), (3, 1))
    assert (s.equalizing, s.over) == (False, True)
    assert text_line(s).endswith(b"  END\r\n")


def test_snapshot_shows_the_7_pin_count_down() -> None:
    match = Match(config(Discipline.PIN_CAROM_7, target=300, start_count=300))
    state = replace(
        match.state,
        scores={"A": Score(points=12, penalties=2, innings=3), "B": Score(points=30, innings=3)},
    )
    s = snapshot_from_state(state)
    assert (s.discipline, s.scores, s.innings) == ("pin-carom-7", (290, 270), (3, 3))


def test_snapshot_names_come_through_board_text() -> None:
    cfg = MatchConfig(
        discipline=Discipline.THREE_CUSHION,
        players=("Zoë", "Łukasz"),
        cue_balls={"Zoë": Ball.WHITE, "Łukasz": Ball.YELLOW},
        target={"Zoë": 3, "Łukasz": 3},
        first_player="Zoë",
    )
    assert snapshot_from_state(Match(cfg).state).players == ("Zoe", "Lukasz")


# --- the one-line text dialect ---------------------------------------------------


def test_text_line_is_the_documented_one() -> None:
    assert text_line(snap()) == b">A 12 : 9 B  R3  I14\r\n"
    line = text_line(snap(active=1, shot_clock_s=12, equalizing=True, review=True, over=True))
    assert line == b"A 12 : 9 >B  R3  I14  T12  EQ  REV  END\r\n"
    assert text_line(snap(players=("Dick Jaspers", "B"))).startswith(b">Dick Jas 12")


@given(SNAPSHOTS)
def test_text_line_is_one_ascii_line(snapshot: Snapshot) -> None:
    line = text_line(snapshot)
    assert line.endswith(b"\r\n") and line.count(b"\n") == 1
    assert all(0x20 <= b <= 0x7E for b in line[:-2])


# --- the protocol document stays true --------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoreboard-protocol.md"


def test_every_frame_in_the_document_decodes() -> None:
    text = DOC.read_text(encoding="utf-8")
    found = re.findall(r"<STX>([0-9A-F]{4}[A-Z][^<`]*)<ETX>", text)
    wire = b"".join(b"\x02" + body.encode("ascii") + b"\x03" for body in found)
    decoder = FrameDecoder()
    frames = decoder.feed(wire)
    assert len(found) == 8 and len(frames) == 8
    assert (decoder.crc_errors, decoder.bad_frames) == (0, 0)
    snapshot = next(f for f in frames if f.kind is FrameKind.SNAPSHOT)
    assert Snapshot.from_payload(snapshot.payload).players == ("Zoe", "Jaspers")
    heartbeat = encode_frame(Frame(0x01, 0x2A, FrameKind.HEARTBEAT))
    assert heartbeat.hex(" ").upper() in text


def test_the_longest_snapshot_fits_in_a_frame() -> None:
    big = snap(
        discipline="x" * 16,
        players=("y" * 16, "z" * 16),
        scores=(-99_999, -99_999),
        innings=(99_999, 99_999),
        run=99_999,
        high_runs=(99_999, 99_999),
        shot_clock_s=999,
        timeouts=(99, 99),
    )
    assert len(encode_frame(Frame(0, 0, FrameKind.SNAPSHOT, big.to_payload()))) == 124
