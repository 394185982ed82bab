"""FIBS ratings for tavla (rule T12c), as defined in REFERENCES.md "FIBS rating".

* D = |r1 - r2|, n = match length; P_upset = 1 / (10^(D*sqrt(n)/2000) + 1).
* P = P_upset when the higher-rated player wins, 1 - P_upset when the lower-rated player wins.
* The winner gains 4*K_w*sqrt(n)*P, the loser loses 4*K_l*sqrt(n)*P, each with his own K.
* New players start at 1500.
* K (the boost for new players): ClubDesk's default counts matches, as seed 003 does ("the first
  30 matches are provisional"): K = max(1, 5 - 4*m/30), m = matches finished before this one.
  The FIBS experience rule, K = max(1, 5 - experience/100) with experience = the sum of the
  lengths of the finished matches, is an option (:attr:`KRule.EXPERIENCE`).

Ratings are floats (CONTRACTS.md §3); a member's rating is recomputed from his results in date
order, and :func:`rate_matches` over the whole list gives exactly the same floats as applying
:meth:`RatingBook.apply` one match at a time (same operations in the same order), so a correction
is handled by recomputing everything.

Reading (ours): a forfeit (T9a) is not a played match; it changes no rating and adds no experience.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from enum import Enum

from clubdesk.i18n import _

INITIAL_RATING = 1500.0  # rule T12c: new players start at 1500
PROVISIONAL_MATCHES = 30  # rule T12c: the first 30 matches are provisional
MAX_BOOST = 5.0


class RatingError(ValueError):
    """A match that cannot be rated; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message


class KRule(Enum):
    """How the newcomer boost K is computed (a ruleset option)."""

    MATCHES = "matches"  # default, tavla preset: K = max(1, 5 - 4*m/30)
    EXPERIENCE = "experience"  # FIBS itself: K = max(1, 5 - experience/100)
    NONE = "none"  # K = 1 always


def upset_probability(rating_a: float, rating_b: float, match_length: int) -> float:
    """P_upset = 1 / (10^(D*sqrt(n)/2000) + 1): the chance that the lower-rated player wins (rule T12c)."""
    if match_length < 1:
        raise RatingError("bad-match-length", _("A match length is at least 1 point."))
    d = abs(rating_a - rating_b)
    exponent = d * math.sqrt(match_length) / 2000.0
    return 1.0 / (math.pow(10.0, exponent) + 1.0)


def fibs_update(
    winner_rating: float,
    loser_rating: float,
    match_length: int,
    winner_k: float = 1.0,
    loser_k: float = 1.0,
) -> tuple[float, float]:
    """The two new ratings after ``winner`` beat ``loser`` in a match to ``match_length`` (rule T12c)."""
    p_upset = upset_probability(winner_rating, loser_rating, match_length)
    # rule T12c: P = P_upset if the higher-rated player wins, 1 - P_upset if the lower-rated one does.
    # With equal ratings P_upset = 0.5 and both readings agree.
    p = p_upset if winner_rating >= loser_rating else 1.0 - p_upset
    step = 4.0 * math.sqrt(match_length) * p
    return winner_rating + winner_k * step, loser_rating - loser_k * step


def k_factor(
    matches_before: int,
    experience_before: int = 0,
    rule: KRule = KRule.MATCHES,
    provisional_matches: int = PROVISIONAL_MATCHES,
) -> float:
    """The newcomer boost K for a player with this record before the match (rule T12c).

    ``KRule.MATCHES``: max(1, 5 - 4*m/P) with P = ``provisional_matches`` (30): 5 for a newcomer, 1 from the
    P-th finished match on. ``KRule.EXPERIENCE``: max(1, 5 - experience/100).
    """
    if rule is KRule.NONE:
        return 1.0
    if rule is KRule.EXPERIENCE:
        return max(1.0, MAX_BOOST - experience_before / 100.0)
    if provisional_matches <= 0:
        return 1.0
    return max(1.0, MAX_BOOST - (MAX_BOOST - 1.0) * matches_before / provisional_matches)


@dataclass(frozen=True)
class RatedMatch:
    """One finished tavla match between two members. Matches of the same day are rated in the order of
    play: round, then table, then ``sequence`` (rule T12c)."""

    match_id: str
    played_on: date
    winner: str
    loser: str
    match_length: int
    sequence: int = 0
    forfeit: bool = False
    round_no: int = 0
    table_no: int = 0


@dataclass(frozen=True)
class RatingState:
    """A member's rating and record (matches and experience count only rated matches)."""

    rating: float = INITIAL_RATING
    matches: int = 0
    experience: int = 0

    @property
    def provisional(self) -> bool:
        """True during the first 30 matches (rule T12c)."""
        return self.matches < PROVISIONAL_MATCHES


@dataclass(frozen=True)
class RatingChange:
    """One line of a member's rating history."""

    match_id: str
    played_on: date
    member: str
    opponent: str
    won: bool
    match_length: int
    k: float
    before: float
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


MatchOrder = tuple[date, int, int, int, str]


def match_order_key(m: RatedMatch) -> MatchOrder:
    """Rule T12c, the order of play: day, round, table, then ``sequence`` and the match id (a stable
    total order whatever the order the results were entered in)."""
    return (m.played_on, m.round_no, m.table_no, m.sequence, m.match_id)


def play_day(
    postponed_to: date | None,
    round_day: date | None,
    starts_on: date | None,
    ends_on: date | None,
    fallback: date,
) -> date:
    """The day a match was played (rule T12c orders ratings by it), never the day it was entered.

    A postponed match (G20) was played on its new day. Otherwise the round's own day (its match start,
    else its table call; ``fallback``, the day of confirmation, when it has neither) kept within the
    event's days: an event with a first day and no last day is one day long, so a night whose results are
    entered weeks later still counts on its own day."""
    if postponed_to is not None:
        return postponed_to
    day = round_day or fallback
    if starts_on is not None:
        day = max(day, starts_on)
    last = ends_on or starts_on
    if last is not None:
        day = min(day, last)
    return day


class RatingBook:
    """Ratings of all members, updated one match at a time in date order."""

    def __init__(
        self,
        initial: Mapping[str, RatingState] | None = None,
        *,
        rule: KRule = KRule.MATCHES,
        provisional_matches: int = PROVISIONAL_MATCHES,
    ) -> None:
        self.rule = rule
        self.provisional_matches = provisional_matches
        self._states: dict[str, RatingState] = dict(initial or {})
        self.changes: list[RatingChange] = []
        self._last: MatchOrder | None = None

    def state(self, member: str) -> RatingState:
        return self._states.get(member, RatingState())

    @property
    def states(self) -> dict[str, RatingState]:
        return dict(self._states)

    def rating(self, member: str) -> float:
        return self.state(member).rating

    def apply(self, match: RatedMatch) -> tuple[RatingChange, RatingChange] | None:
        """Rate one match; matches must come in date order (an earlier one needs a full recompute)."""
        if match.winner == match.loser:
            raise RatingError("same-player", _("A player cannot play himself."))
        if match.match_length < 1:
            raise RatingError("bad-match-length", _("A match length is at least 1 point."))
        key = match_order_key(match)
        if self._last is not None and key < self._last:
            raise RatingError(
                "out-of-order",
                _("Match {id} is older than a match already rated; recompute the ratings.").format(
                    id=match.match_id
                ),
            )
        self._last = key
        if match.forfeit:  # reading: a forfeit (T9a) is not played and not rated
            return None
        w, lo = self.state(match.winner), self.state(match.loser)
        kw = k_factor(w.matches, w.experience, self.rule, self.provisional_matches)
        kl = k_factor(lo.matches, lo.experience, self.rule, self.provisional_matches)
        new_w, new_l = fibs_update(w.rating, lo.rating, match.match_length, kw, kl)
        n = match.match_length
        self._states[match.winner] = RatingState(new_w, w.matches + 1, w.experience + n)
        self._states[match.loser] = RatingState(new_l, lo.matches + 1, lo.experience + n)
        cw = RatingChange(
            match.match_id, match.played_on, match.winner, match.loser, True, n, kw, w.rating, new_w
        )
        cl = RatingChange(
            match.match_id, match.played_on, match.loser, match.winner, False, n, kl, lo.rating, new_l
        )
        self.changes.extend((cw, cl))
        return cw, cl

    def history(self, member: str) -> list[RatingChange]:
        """The member's rating changes in date order."""
        return [c for c in self.changes if c.member == member]


def rate_matches(
    matches: Iterable[RatedMatch],
    initial: Mapping[str, RatingState] | None = None,
    *,
    rule: KRule = KRule.MATCHES,
    provisional_matches: int = PROVISIONAL_MATCHES,
) -> RatingBook:
    """Full recompute: every match rated in date order from the starting states (1500 for everybody new).

    After a corrected or late-entered result, call this again on the whole list: it equals what the
    incremental updates would have given had the results been entered in order.
    """
    ordered = sorted(matches, key=match_order_key)
    ids = [m.match_id for m in ordered]
    if len(set(ids)) != len(ids):
        raise RatingError("duplicate-match", _("The same match id appears twice."))
    book = RatingBook(initial, rule=rule, provisional_matches=provisional_matches)
    for m in ordered:
        book.apply(m)
    return book


def rating_history(
    member: str,
    matches: Iterable[RatedMatch],
    initial: Mapping[str, RatingState] | None = None,
    *,
    rule: KRule = KRule.MATCHES,
) -> list[RatingChange]:
    """A member's rating history from all results (his opponents' ratings depend on everybody's matches)."""
    return rate_matches(matches, initial, rule=rule).history(member)
