"""Bump's turns in words, and their notation rebuilt from their events (pictures and announcements).

:func:`describe_events` words a turn's chain of bumps, captures, choices and the guard call through the
``say`` it is handed (each clause whole, so a translation orders it); :func:`turn_notation` rebuilds a
stored turn's notation from its events. The seats' colour names are here too: the words name the winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .interface import Event, Say, plain

SEAT_COLOURS = ("Blue", "Orange")


def turn_notation(events: Sequence[Event]) -> str:
    """The notation of a turn rebuilt from its events (pictures of stored turns use it)."""
    for e in events:
        if e.kind == "pass":
            return "pass"
        if e.kind == "reinforce":
            return f"R,{e.cell}-{dict(e.data)['facing']}"
    shifts = [e for e in events if e.kind == "shift"]
    turns = [e for e in events if e.kind == "rotate"]
    if not shifts and not turns:
        return ""
    src = shifts[0].src if shifts else turns[0].cell
    assert src is not None  # shift events name their source, rotate events their cell
    text = src + (f",{shifts[-1].dst}" if shifts else "")
    if turns:
        text += f"-{dict(turns[0].data)['to']}"
    return text + "".join(f" ({dict(e.data)['chosen']})" for e in events if e.kind == "choice")


def _capture_words(reason: str, toward: object, say: Say) -> str:
    if reason == "wall":
        return say("captured against the wall")
    if reason == "piece":
        return say("captured against a piece")
    if reason == "centre":
        return say("captured on centre {centre}", centre=toward)
    return say("captured in stasis")


def _bump_words(lead: str, bumper: str | None, bump: Event, capture: str | None, say: Say) -> str:
    """One bump of the chain, whole: who bumps (``lead``: "which", "first", "then" or "named"), what, where."""
    src, dst = bump.src, bump.dst
    if capture is None:
        if lead == "which":
            return say("which bumps {src} to {dst}", src=src, dst=dst)
        if lead == "first":
            return say("bumps {src} to {dst}", src=src, dst=dst)
        if lead == "then":
            return say("then {bumper} bumps {src} to {dst}", bumper=bumper, src=src, dst=dst)
        return say("{bumper} bumps {src} to {dst}", bumper=bumper, src=src, dst=dst)
    reason = _capture_words(capture, dict(bump.data).get("toward"), say)
    if lead == "which":
        return say("which bumps {src} ({reason})", src=src, reason=reason)
    if lead == "first":
        return say("bumps {src} ({reason})", src=src, reason=reason)
    if lead == "then":
        return say("then {bumper} bumps {src} ({reason})", bumper=bumper, src=src, reason=reason)
    return say("{bumper} bumps {src} ({reason})", bumper=bumper, src=src, reason=reason)


def _alternatives(options: Sequence[object], say: Say) -> str:
    """``04 or 05``: the joining word in the reader's language."""
    joined = str(options[0]) if options else ""
    for option in options[1:]:
        joined = say("{before} or {after}", before=joined, after=option)
    return joined


def describe_events(events: Sequence[Event], say: Say = plain) -> str:
    """Words for a turn's events: the chain of bumps, captures, choices and the guard call.

    "bumps 06 to 07, which bumps 17 (captured against the wall), then 021 bumps 03 to 513
    (chosen: 513, rather than 04). Guard your center!" — the subject is the moved piece unless
    another bumper is named; "no bumps" for a move that bumped nothing, however many steps it took. Each
    clause is worded whole through ``say`` (its order is the language's).
    """
    mover = None
    for e in events:
        if e.kind == "shift":
            mover = e.dst
        elif e.kind == "rotate":
            mover = e.cell
    words: list[str] = []
    previous_dst: str | None = None
    pending_choice: dict[str, Any] | None = None
    items = [e for e in events if e.kind in ("bump", "capture", "choice")]
    index = 0
    while index < len(items):
        e = items[index]
        index += 1
        if e.kind == "choice":
            data = dict(e.data)
            others = [o for o in data["options"] if o != data["chosen"]]
            pending_choice = {"chosen": data["chosen"], "others": _alternatives(others, say)}
            continue
        if e.kind != "bump":
            continue
        capture = None
        if index < len(items) and items[index].kind == "capture":
            capture = dict(items[index].data)["reason"]
            index += 1
        if words and e.cell == previous_dst:
            lead = "which"
        elif e.cell == mover and not words:
            lead = "first"
        else:
            lead = "then" if words else "named"
        clause = _bump_words(lead, e.cell, e, capture, say)
        if pending_choice is not None:
            clause = say("{bump} (chosen: {chosen}, rather than {others})", bump=clause, **pending_choice)
        words.append(clause)
        pending_choice = None
        previous_dst = e.dst
    text = ", ".join(words)
    if not words and any(e.kind in ("shift", "rotate") for e in events):
        # a move that bumped nothing says so: the caption, the alt text and the announcement say the same words
        text = say("no bumps")
    if any(e.kind == "reinforce" for e in events):
        text = say("brings on a reserve piece, {chain}", chain=text) if text else say("brings on a reserve piece")
    if any(e.kind == "guard" for e in events):
        text = say("{chain}. Guard your center!", chain=text) if text else say("Guard your center!")
    ends = [e for e in events if e.kind == "end" and dict(e.data).get("reason") == "centre"]
    if ends:
        winner = ends[0].seat
        assert winner is not None  # a win on the centre names its seat
        colour = say(SEAT_COLOURS[winner - 1])  # the colour's name in the reader's language
        won = say("{colour} stands on {space} and wins.", colour=colour, space=ends[0].cell)
        text = say("{chain}. {won}", chain=text, won=won) if text else won  # its own sentence after the move's
    return text
