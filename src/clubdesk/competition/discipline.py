"""Discipline rules as plain values: the incident catalog, penalty kinds, the E19 counter, the appeal window.

Pure helpers (no database, no Qt) used by :mod:`clubdesk.services.discipline`, the CLI and the screens:

* the **incident catalog** of each ruleset family, read from ``resources/incidents.toml`` (rules G2, E8–E17,
  E19, E20, T1, T3b, T11), plus the kinds a club adds (passed in by the service from the database);
* the **penalty kinds** (rules G3, B7, E15, E16, E20, G15, T3b, T9c, T9d) and what each one does to a
  score sheet: the engine entry it becomes (CONTRACTS.md §1), so that sheets and standings follow, or the
  match-level action (walkover, disqualification) the service carries out;
* the **E19 counter**: "dropped tiles, 3rd time by this pair in this game";
* the **appeal window** (rules T10, G16): 15 minutes after the match's end by default, a parameter; the
  referee may override a late appeal.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from clubdesk.competition.errors import CompetitionError
from clubdesk.games.errors import RulesetError
from clubdesk.games.ruleset import load_ruleset
from clubdesk.i18n import N_, _, current_language
from clubdesk.text import fold

FAMILIES: tuple[str, ...] = ("gaple", "domino", "tavla")

# The decisions and penalties a referee can record. Keys are stored in the database.
PENALTY_KINDS: tuple[str, ...] = (
    "none",
    "warning",  # rules G3, T9d
    "annul-hand",  # rules E15, E16 (loss of the lead when the offender's side led)
    "replay-from-breach",  # rules E15, E16
    "fine",  # rule B7: may go below 0 where the ruleset allows
    "deduction",  # rule G3: points deducted by the committee
    "game-loss",  # rule T9d
    "match-loss",  # rule T9d
    "forfeit",  # rules G15, T3b: walkover
    "disqualification",  # rule T9c: out of ranking, prizes and season points
    "replay",  # rule E20: the suspended hand is played again
    "validate",  # rule E20: the score at suspension stands
    "resume",  # rule E20: play resumes where it stopped
    "award-leader",  # rule E20: the pair ahead wins the game
)
# Decisions that only describe what happened at the table (rule E19: the opponents decide).
INCIDENT_ONLY_DECISIONS: tuple[str, ...] = ("reshuffle", "continue")

PENALTY_LABELS: dict[str, str] = {
    "none": N_("No penalty"),
    "warning": N_("Warning"),
    "annul-hand": N_("Annul the hand"),
    "replay-from-breach": N_("Replay from the breach"),
    "fine": N_("Fine in points"),
    "deduction": N_("Point deduction"),
    "game-loss": N_("Game loss"),
    "match-loss": N_("Match loss"),
    "forfeit": N_("Forfeit (walkover)"),
    "disqualification": N_("Disqualification"),
    "replay": N_("Replay the hand"),
    "validate": N_("Validate the score at suspension"),
    "resume": N_("Resume play"),
    "award-leader": N_("Award the game to the pair ahead"),
    "reshuffle": N_("Reshuffle"),
    "continue": N_("Continue"),
}

# Which penalty kinds make sense for which family of games.
FAMILY_PENALTIES: dict[str, frozenset[str]] = {
    "gaple": frozenset(
        {
            "none",
            "warning",
            "annul-hand",
            "replay-from-breach",
            "fine",
            "deduction",
            "match-loss",
            "forfeit",
            "disqualification",
        }
    ),
    "domino": frozenset(PENALTY_KINDS),
    "tavla": frozenset({"none", "warning", "game-loss", "match-loss", "forfeit", "disqualification"}),
}
POINT_KINDS: frozenset[str] = frozenset({"fine", "deduction"})

DEFAULT_APPEAL_MINUTES = 15  # rule T10


class DisciplineRuleError(CompetitionError):
    """A decision the rules do not allow; ``code`` is stable, ``message`` translated."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)


# --------------------------------------------------------------------------------------- incident catalog


@dataclass(frozen=True)
class IncidentKind:
    key: str
    label: str  # English; translate with :meth:`title`
    rules: tuple[str, ...] = ()
    decisions: tuple[str, ...] = ("none", "warning")
    counter: bool = False  # rule E19: repeats by the same pair in the same game are counted
    counter_limit: int = 0
    player: bool = False  # rule E15: the act names the offender and his licence number
    club: bool = False  # added by the club (stored in the database)

    def title(self) -> str:
        rules = ", ".join(self.rules)
        label = _(self.label)
        return f"{label} ({rules})" if rules else label


def incidents_file() -> Path:
    return Path(__file__).resolve().parent.parent / "resources" / "incidents.toml"


def _kind_from(raw: Mapping[str, Any], where: str) -> IncidentKind:
    key = raw.get("key")
    label = raw.get("label")
    if not isinstance(key, str) or not key or not isinstance(label, str) or not label:
        raise ValueError(f"{where}: every incident kind needs a key and a label")
    decisions = tuple(str(d) for d in raw.get("decisions", ("none", "warning")))
    for d in decisions:
        if d not in PENALTY_KINDS and d not in INCIDENT_ONLY_DECISIONS:
            raise ValueError(f"{where}: {key}: unknown decision {d!r}")
    return IncidentKind(
        key=key,
        label=label,
        rules=tuple(str(r) for r in raw.get("rules", ())),
        decisions=decisions,
        counter=bool(raw.get("counter", False)),
        counter_limit=int(raw.get("counter_limit", 0)),
        player=bool(raw.get("player", False)),
    )


@functools.cache
def _builtin() -> dict[str, tuple[IncidentKind, ...]]:
    with incidents_file().open("rb") as fh:
        data = tomllib.load(fh)
    out: dict[str, tuple[IncidentKind, ...]] = {}
    for family, items in data.items():
        out[family] = tuple(_kind_from(item, f"incidents.toml [{family}]") for item in items)
    return out


def family_of(ruleset: str) -> str:
    """The family (gaple / domino / tavla) of a ruleset id."""

    try:
        return load_ruleset(ruleset).family
    except RulesetError:
        for family in FAMILIES:
            if ruleset.startswith(family):
                return family
        raise


def incident_kinds(family: str, club_kinds: Iterable[IncidentKind] = ()) -> tuple[IncidentKind, ...]:
    """Every kind a referee can pick for a game of ``family``: the family's, the common ones, then the
    club's own (rules G2, E8–E17, E19, E20, T1, T3b, T11)."""
    builtin = _builtin()
    kinds = list(builtin.get(family, ())) + list(builtin.get("common", ()))
    seen = {k.key for k in kinds}
    for k in club_kinds:
        if k.key not in seen:
            kinds.append(k)
            seen.add(k.key)
    return tuple(kinds)


def find_kind(family: str, key: str, club_kinds: Iterable[IncidentKind] = ()) -> IncidentKind:
    for kind in incident_kinds(family, club_kinds):
        if kind.key == key:
            return kind
    known = ", ".join(k.key for k in incident_kinds(family, club_kinds))
    raise DisciplineRuleError(
        "unknown-incident-kind",
        _("Unknown incident kind {kind!r}; this game knows: {known}.").format(kind=key, known=known),
    )


def check_incident_decision(kind: IncidentKind, decision: str) -> None:
    """An incident's decision must be one this kind allows (or no decision yet)."""
    if decision and decision not in kind.decisions:
        raise DisciplineRuleError(
            "decision-not-allowed",
            _("{decision!r} is not a decision for {kind}; choose one of: {options}.").format(
                decision=decision, kind=kind.title(), options=", ".join(kind.decisions)
            ),
        )


def club_kind_key(label: str) -> str:
    """A stable key for a club-added kind: ``club-`` and the label's letters and digits."""

    slug = "-".join("".join(ch if ch.isalnum() else " " for ch in fold(label)).split())
    return f"club-{slug}"[:60]


# ------------------------------------------------------------------------------------------ E19 counter


@dataclass(frozen=True)
class CountedIncident:
    """What the counter needs of an earlier incident at the same table."""

    kind: str
    side: int | None
    game_no: int


def occurrence(previous: Iterable[CountedIncident], kind: str, side: int | None, game_no: int) -> int:
    """Rule E19: which time this is (1, 2, 3…) that this pair had this kind of incident in this game."""
    if side is None:
        return 0
    return 1 + sum(1 for p in previous if p.kind == kind and p.side == side and p.game_no == game_no)


# How each language writes "the n-th (time)": Indonesian "ke-3", Spanish "3.ª" (vez), Turkish "3." (kez).
_ORDINALS = {"id": "ke-{n}", "es": "{n}.ª", "tr": "{n}."}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th… in English; ke-3, 3.ª, 3. in the other languages (rule E19's counter)."""

    pattern = _ORDINALS.get(current_language())
    if pattern is not None:
        return pattern.format(n=n)
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def counter_text(kind: IncidentKind, n: int) -> str:
    """Rule E19: "Dropped tiles, 3rd time by this pair in this game" (empty when not counted).

    Reading: every drop is recorded; the act shows the number from the second one in a game (2nd, 3rd…)."""
    if not kind.counter or n < 2:
        return ""
    text = _("{kind}, {ordinal} time by this pair in this game").format(
        kind=_(kind.label), ordinal=ordinal(n)
    )
    if kind.counter_limit and n > kind.counter_limit:
        text += _(" (more than {limit} times)").format(limit=kind.counter_limit)
    return text


# ------------------------------------------------------------------------------- decision → engine entry


@dataclass(frozen=True)
class PenaltyEffect:
    """What a penalty does: an engine entry added to the table's sheet (CONTRACTS.md §1), and/or an action
    on the whole match or entrant that the service carries out."""

    entry: dict[str, object] | None = None
    action: str | None = None  # "forfeit" (walkover), "disqualify", "validate"
    changes_score: bool = False


def check_penalty(family: str, kind: str, points: int | None) -> None:
    if kind not in PENALTY_KINDS:
        raise DisciplineRuleError(
            "unknown-penalty-kind",
            _("Unknown penalty kind {kind!r}; choose one of: {options}.").format(
                kind=kind, options=", ".join(PENALTY_KINDS)
            ),
        )
    if kind not in FAMILY_PENALTIES.get(family, frozenset()):
        raise DisciplineRuleError(
            "penalty-not-for-game",
            _("A {kind} does not exist in this game; choose one of: {options}.").format(
                kind=_(PENALTY_LABELS[kind]),
                options=", ".join(k for k in PENALTY_KINDS if k in FAMILY_PENALTIES.get(family, ())),
            ),
        )
    if kind in POINT_KINDS and (points is None or points <= 0):
        raise DisciplineRuleError(
            "points-required", _("A fine or a point deduction needs a number of points above 0.")
        )
    if kind not in POINT_KINDS and points:
        raise DisciplineRuleError(
            "points-not-used", _("Points are given only with a fine or a point deduction.")
        )


def penalty_effect(
    family: str,
    kind: str,
    side: int,
    *,
    points: int | None = None,
    offender_led: bool = False,
    totals: Sequence[int] | None = None,
    cube: int = 1,
) -> PenaltyEffect:
    """The engine entry (or match action) for a penalty on ``side`` (0 or 1) at a table of ``family``.

    ``offender_led``: the offender's side led the hand (rules E15, E16: an annulled hand then loses the lead).
    ``totals``: the game's running totals, needed to find the pair ahead (rule E20, award-leader).
    ``cube``: the cube's current value (rule T9d: a game loss is one single game at that value).
    """
    check_penalty(family, kind, points)
    if side not in (0, 1):
        raise DisciplineRuleError("unknown-side", _("A side is 0 (the first named) or 1."))
    other = 1 - side
    if kind in ("none", "warning", "replay-from-breach", "resume"):
        # rules G3, T9d (warning), E15/E16 (back to the breach), E20 (resume): the sheet is unchanged
        return PenaltyEffect()
    if kind in POINT_KINDS:
        # rules G3, B7: points taken from the side's running score (below 0 only where allow_negative)
        assert points is not None
        return PenaltyEffect({"type": "penalty", "side": side, "points": points}, changes_score=True)
    if kind == "annul-hand":
        if family == "domino":
            # rules E15, E16: the hand scores nothing; the lead is lost when the offender's side led it
            return PenaltyEffect({"type": "annulled", "lead_lost": bool(offender_led)}, changes_score=True)
        # gaple: a hand that scores nothing but stays on the sheet is a redeal (G11, G14)
        return PenaltyEffect({"type": "redeal"}, changes_score=True)
    if kind == "replay":
        # rule E20: the suspended hand is played again; the interrupted one scores nothing, the lead stays
        return PenaltyEffect({"type": "annulled", "lead_lost": False}, changes_score=True)
    if kind == "validate":
        # rule E20: the score at suspension stands as the result
        return PenaltyEffect(action="validate")
    if kind == "award-leader":
        # rule E20: the pair ahead wins; it is scored as the other pair abandoning (rivals reach the total)
        if totals is None or len(totals) != 2 or totals[0] == totals[1]:
            raise DisciplineRuleError(
                "no-pair-ahead", _("Neither pair is ahead, so the game cannot be awarded to the pair ahead.")
            )
        behind = 0 if totals[0] < totals[1] else 1
        return PenaltyEffect({"type": "abandon", "side": behind}, changes_score=True)
    if kind == "game-loss":
        if family == "tavla":
            # rule T9d (Reading): the opponent wins one single game at the cube's current value
            return PenaltyEffect({"type": "game_loss", "loser": side, "cube": cube}, changes_score=True)
        # domino: the offender's pair loses the game as by abandonment (E20: the rivals reach the total)
        return PenaltyEffect({"type": "abandon", "side": side}, changes_score=True)
    if kind == "match-loss":
        if family == "tavla":
            # rule T9d (Reading): a forfeit with reason penalty: winner to the match length, loser keeps his
            return PenaltyEffect(
                {"type": "forfeit", "winner": other, "reason": "penalty"}, changes_score=True
            )
        if family == "domino":
            return PenaltyEffect({"type": "abandon", "side": side}, changes_score=True)
        return PenaltyEffect(action="forfeit", changes_score=True)
    if kind == "forfeit":
        # rules G15, T3b: walkover, through the results service's forfeit
        return PenaltyEffect(action="forfeit", changes_score=True)
    # rule T9c: disqualification
    return PenaltyEffect(action="disqualify", changes_score=True)


def offender_led(leader_seat: int | None, side: int) -> bool:
    """Dominoes: side 0 = seats 0 and 2, side 1 = seats 1 and 3 (CONTRACTS.md §1)."""
    return leader_seat is not None and leader_seat % 2 == side


# ---------------------------------------------------------------------------------------- appeal window


@dataclass(frozen=True)
class AppealTiming:
    in_time: bool
    deadline: datetime | None  # None while the match has not ended
    late_minutes: int  # whole minutes past the deadline (0 when in time)


def appeal_deadline(match_end: datetime, minutes: int = DEFAULT_APPEAL_MINUTES) -> datetime:
    return match_end + timedelta(minutes=minutes)


def appeal_timing(
    filed_at: datetime, match_end: datetime | None, minutes: int = DEFAULT_APPEAL_MINUTES
) -> AppealTiming:
    """Rule T10: an appeal is in time up to ``minutes`` after the match's end (that minute included);
    while the match has not ended every appeal is in time."""
    if minutes < 0:
        raise DisciplineRuleError("bad-window", _("The appeal window cannot be negative."))
    if match_end is None:
        return AppealTiming(True, None, 0)
    deadline = appeal_deadline(match_end, minutes)
    if filed_at <= deadline:
        return AppealTiming(True, deadline, 0)
    late = filed_at - deadline
    return AppealTiming(
        False, deadline, int(late.total_seconds() // 60) + (1 if late.total_seconds() % 60 else 0)
    )


def appeal_refund(fee: int, upheld: bool) -> int:
    """Rule G16: the fee comes back when the appeal is upheld and is kept when it is rejected."""
    if fee < 0:
        raise DisciplineRuleError("bad-fee", _("An appeal fee cannot be negative."))
    return fee if upheld else 0


def parse_side(text: str) -> int:
    """A side as typed: 0/1 (CONTRACTS.md §1) or a/b (first named / second named)."""
    value = text.strip().lower()
    if value in ("0", "a"):
        return 0
    if value in ("1", "b"):
        return 1
    raise DisciplineRuleError(
        "unknown-side",
        _("Unknown side {side!r}: use 0 or a (first named), 1 or b (second).").format(side=text),
    )


# ------------------------------------------------------------------------------------ E16: at that moment
#: kinds claimed at that moment (rule E16, "en ese momento"); E15's false think may come later
CLAIMED_AT_THE_MOMENT = frozenset({"false-pass"})


def check_claim_moment(kind: str, hand: int | None, hands_on_sheet: int) -> None:
    """Rule E16: a false-pass claim only while its hand is being played: once that hand is on the sheet (the
    hand is over, so the next tile was played too) the claim is refused. ``hand`` None: the hand in play."""
    if kind not in CLAIMED_AT_THE_MOMENT or hand is None:
        return
    if hand <= hands_on_sheet:
        raise DisciplineRuleError(
            "claim-too-late",
            _(
                "A false pass is claimed at that moment (E16): hand {hand} is already over. A false think "
                "(E15) may still be claimed after the hand."
            ).format(hand=hand),
        )
