"""The phones' rules for one post to a table, as a value the hand use cases check inside their
own transaction (:mod:`clubdesk.services.night.play.hands`): the post id stored with its change, the token,
the page's read-only reasons, the encounter's game (E7b), the kinds of entry a phone makes, and how far the
table got on the phones (its state)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.competition import formats
from clubdesk.games import EntryError, load_ruleset
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.event import Entrant, Event
from clubdesk.models.result import Match
from clubdesk.models.round import Round
from clubdesk.models.table_entry import TablePost, TableState, TableToken
from clubdesk.services.kernel import ServiceError
from clubdesk.services.night.data import reads
from clubdesk.services.night.data.tokens import side_code_valid
from clubdesk.services.night.play.table_result import changed_elsewhere, check_version, match_params


@dataclass(frozen=True)
class PhoneGuard:
    """The phones' rules for one post, checked inside the post's own transaction.

    ``post_id``: the id the page made (stored with the change; a post repeated after a lost answer gets
    the stored answer and stores nothing). ``token``: the table's token, still open. ``side``: the side
    entering (0 home, 1 rival); its hand that ends the match is its approval. ``sides``: the sides' names
    as the page showed them a moment ago (None: read here). ``answer``: the answer stored with the post,
    translated by the phone; ``{n}`` is the hand's number in its game. ``finished_answer``: the answer
    when the hand ends the match; ``{other}`` is the side that confirms next. ``code``: the approval code
    of ``side`` the phone holds or had typed (rules G13, E6, T8c: a phone approves for a side only with
    that side's code from the score sheet). ``handed_over``: this phone entered or approved for the other
    side before (one phone handed from side to side, approving with the code typed after the hand-over).
    """

    post_id: str
    token: str
    action: str = "entry"
    side: int = 0
    sides: tuple[str, str] | None = None
    answer: str = ""
    finished_answer: str = ""
    code: str = ""
    handed_over: bool = False


# how a side approved a result: on its own phone, on the other side's phone with its code, at the desk
APPROVED_OWN_PHONE = "phone"
APPROVED_WITH_CODE = "phone-code"
APPROVED_AT_DESK = "desk"


def phone_approval(s: Session, guard: PhoneGuard, side: int, name: str) -> str:
    """How the phone approves for ``side`` (G13, E6, T8c): its own phone, or the other side's phone after
    the hand-over with this side's code. Refused without the side's valid code (named in the reason)."""
    if not guard.code.strip():
        raise ServiceError(
            "side-code-required",
            _("To approve as {name}, type {name}'s code from its box on the score sheet.").format(name=name),
            side=side,
        )
    if not side_code_valid(s, guard.token, side, guard.code):
        raise ServiceError(
            "side-code-wrong",
            _("That is not {name}'s code: it is printed in {name}'s box on the score sheet.").format(
                name=name
            ),
            side=side,
        )
    return APPROVED_WITH_CODE if guard.handed_over else APPROVED_OWN_PHONE


def holds_side_code(s: Session, guard: PhoneGuard, side: int) -> bool:
    """The phone holds ``side``'s valid approval code (a finishing hand approves for its side only then)."""
    return bool(guard.code.strip()) and side_code_valid(s, guard.token, side, guard.code)


# the kinds of entry a phone's form makes, per game family (the engine judges the rest)
PHONE_KINDS = {
    "gaple": frozenset({"out", "block", "redeal"}),
    "domino": frozenset({"domino", "block", "annulled"}),
    "tavla": frozenset({"game"}),
}


def check_phone_entry(family: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The shape a phone's hand must have before the engine judges it."""
    if entry.get("type") not in PHONE_KINDS[family]:
        raise ServiceError("bad-entry", _("Choose what happened in the hand."))
    return entry


def read_only_reason(ev: Event, rnd: Round, m: Match) -> str:
    """Why a table's page takes no entries ("" when it does): a bye, a past or locked round (T10), a
    disputed, confirmed or postponed result, a result the desk entered, an unpublished round."""
    if m.side_b is None:
        return _("Table {t} is a bye: it has no result to enter.").format(t=m.table_no)
    if m.locked or rnd.number < (ev.current_round or rnd.number) or rnd.status == "closed":
        return _("Round {r} is over: this page only shows its result (rule T10).").format(r=rnd.number)
    if m.status == "disputed":
        return _("The referee decides this table's result.")
    if m.status == "confirmed":
        return _("The result is confirmed.")
    if m.status == "postponed":
        return _("This match is postponed.")
    if m.kind != "played":
        return _("The desk entered this table's result.")
    if rnd.status == "proposed":
        return _("Round {r} is not published yet.").format(r=rnd.number)
    return ""


def game_in_play(s: Session, ev: Event, m: Match, games: dict[int, list[dict[str, Any]]]) -> int:
    """The game of a team encounter that hands go to now (rule E7b: one after another); 1 for one match
    sheet. A sheet the engine refuses stays in its first game."""
    if load_ruleset(ev.ruleset).family != "domino":
        return 1
    encounter = reads.night(s, ev).encounter_games
    if encounter <= 0:
        return 1
    try:
        oc = formats.outcome_from_entries(ev.ruleset, match_params(ev, m), games, encounter_games=encounter)
    except (ServiceError, EntryError):
        return 1
    current = 1
    for g, sheet in zip(sorted(games), oc.sheets, strict=False):
        current = g if not sheet["finished"] else min(g + 1, encounter)
    return current


def side_names(s: Session, m: Match) -> tuple[str, str]:
    """The two sides' names (this table's entrants only, not the whole event's)."""
    a = s.get(Entrant, m.side_a)
    b = s.get(Entrant, m.side_b) if m.side_b is not None else None
    return (a.name if a is not None else "?", b.name if b is not None else ("?" if m.side_b else "—"))


def set_table_state(s: Session, m: Match, state: str, side: int | None, name: str) -> TableState:
    """How far the table got on the phones: ``started``, ``awaiting`` (``side`` finished the match and
    approved as ``name``) or ``confirmed`` (by ``name``); a hand in play writes no row once started."""
    ts = s.get(TableState, m.id)
    if ts is None:
        ts = TableState(match_id=m.id, state="started", finished_by="", confirmed_by="")
        s.add(ts)
    elif state == "started" and (ts.state, ts.finished_side, ts.finished_by, ts.confirmed_by) == (
        "started",
        None,
        "",
        "",
    ):
        return ts
    ts.state = state
    ts.updated_at = utcnow()
    if state == "awaiting":
        ts.finished_side, ts.finished_by, ts.confirmed_by = side, name, ""
    elif state == "confirmed":
        ts.confirmed_by = name
    else:
        ts.finished_side, ts.finished_by, ts.confirmed_by = None, "", ""
    return ts  # held by the caller: the session keeps only weak references to unchanged rows


def remember_post(s: Session, guard: PhoneGuard, answer: str, action: str = "") -> None:
    """The post id stored with its change, and the answer a repeated post gets; ``action``: what the post
    is stored as, when not the guard's (a side's approval and how it was given)."""
    kind = action or guard.action
    s.add(TablePost(client_id=guard.post_id, token=guard.token, action=kind, outcome=answer))


def approval_post(side: int, how: str) -> str:
    """What a phone's approval post is stored as (its side and how it was given), read back by
    :func:`clubdesk.services.night.play.approvals.approval_ways`."""
    return f"approve{side}-{how}"


def stored_answer(s: Session, post_id: str) -> str | None:
    """The answer of a post id stored already (a retry on a flaky Wi-Fi), or None."""
    outcome = s.scalar(select(TablePost.outcome).where(TablePost.client_id == post_id))
    if outcome is None:
        return None
    return outcome or _("This was saved already.")


def check_page(
    s: Session, guard: PhoneGuard, ev: Event, rnd: Round, m: Match, seen_version: int | None
) -> None:
    """The page's rules under the post's own write lock: its token still opens the table, the table
    still takes entries, and the post says which version of the table its page showed."""
    check_token(s, guard)
    read_only = read_only_reason(ev, rnd, m)
    if read_only:
        raise ServiceError("read-only", read_only)
    check_version_sent(m, seen_version)


def check_token(s: Session, guard: PhoneGuard) -> None:
    """The post's token still opens its table (a round unpublished meanwhile drops it)."""
    if s.scalar(select(TableToken.id).where(TableToken.token == guard.token)) is None:
        raise ServiceError("no-table", _("This table is not open."))


def check_version_sent(m: Match, seen_version: int | None) -> None:
    """Every page sends the table's version it showed with each post; a post without one is refused as a
    post from a stale page is (with the same words), since it would skip that check and be stored again
    on a table that changed meanwhile."""
    if seen_version is None:
        raise changed_elsewhere(m)


def check_referee_call(s: Session, guard: PhoneGuard, m: Match, seen_version: int | None) -> None:
    """A table's call for the referee, under the post's own write lock: its token still opens the table,
    the result is not confirmed (nothing is left to decide at the table) and the post comes from the
    table's current page."""
    check_token(s, guard)
    if m.status == "confirmed":
        raise ServiceError("read-only", _("The result is confirmed."))
    check_version_sent(m, seen_version)
    check_version(m, seen_version)
