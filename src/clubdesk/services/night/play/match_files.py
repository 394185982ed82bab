"""Backgammon match files (Jellyfish ``.mat``, as gnubg and FIBS clients write them): read one
into a :class:`~clubdesk.games.tavla_mat.MatRecord` for a preview, or save its games as a tavla table's sheet
entries (rule T7: the engine recomputes the score from them, as for a sheet typed by hand)."""

from __future__ import annotations

from pathlib import Path

from clubdesk.games.tavla_mat import MatError, MatRecord, mat_problem, parse_mat
from clubdesk.i18n import _, ngettext
from clubdesk.services.kernel import Actor, ServiceError
from clubdesk.services.night.data import reads
from clubdesk.services.night.play import results, table_result
from clubdesk.storage import Database

#: a match record is a small text file; anything bigger is not one
MAX_BYTES = 2_000_000


def read_match_file(path: Path, *, crawford: bool = True) -> MatRecord:
    """Read and check a match file. Refusal (``ServiceError``): unreadable, or not a match record (the
    message names the line and the reason; with several bad lines, ``details`` lists each with its number
    and ``params["lines"]`` the numbers)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ServiceError(
            "unreadable-file", _("Cannot read {f}: {e}").format(f=path, e=exc.strerror or exc)
        ) from exc
    if len(data) > MAX_BYTES or b"\0" in data:
        raise ServiceError("not-a-match-file", _("{f} is not a match record.").format(f=path))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    try:
        return parse_mat(text, crawford=crawford)
    except MatError as exc:
        if len(exc.problems) == 1:
            raise ServiceError("not-a-match-file", _("{f}: {e}").format(f=path, e=exc)) from exc
        lines = [mat_problem(line, reason) for line, reason in exc.problems]
        message = ngettext(
            "{f} is not a match record: {n} bad line; nothing was saved.",
            "{f} is not a match record: {n} bad lines; nothing was saved.",
            len(lines),
        ).format(f=path, n=len(lines))
        raise ServiceError(
            "not-a-match-file", message, lines, lines=[line for line, _r in exc.problems]
        ) from exc


def swapped(entries: tuple[dict[str, object], ...]) -> list[dict[str, object]]:
    """The same games with the sides exchanged (the file's right-hand player is the home side)."""
    out = []
    for e in entries:
        e2 = dict(e)
        if "winner" in e2:
            e2["winner"] = 1 - int(str(e2["winner"]))
        out.append(e2)
    return out


def import_match_file(
    db: Database,
    actor: Actor,
    event_id: int,
    round_no: int,
    table_no: int,
    path: Path,
    *,
    swap_sides: bool = False,
    reason: str | None = None,
    override: str | None = None,
    expected_version: int | None = None,
) -> table_result.TableResult:
    """Save a match file's games as the table's sheet (replacing it). The file's left-hand player is the
    home side (0) unless ``swap_sides``. Refused, nothing written: not a tavla event, a match length other
    than the table's (T8a), a record that does not begin at 0-0, what the sheet itself refuses, or a table
    changed since ``expected_version`` (the version the caller saw)."""
    with db.session() as s:
        ev = reads.get_event(s, event_id)
        family, _params = reads.params_of(ev)
        if family != "tavla":
            raise ServiceError(
                "not-tavla",
                _("Match files are backgammon records: event {e} is not tavla.").format(e=event_id),
            )
        _rnd, m = reads.find_table(s, ev, round_no, table_no)
        params = table_result.match_params(ev, m)
        length = int(params.get("match_length", 0))
        crawford = bool(params.get("crawford", True))
    rec = read_match_file(path, crawford=crawford)
    if rec.match_length != length:
        raise ServiceError(
            "wrong-length",
            _("{f} is a {n}-point match; table {t} plays {m} points.").format(
                f=path, n=rec.match_length, t=table_no, m=length
            ),
        )
    if rec.begins_mid_match:
        a, b = rec.start_scores[0]
        raise ServiceError(
            "mid-match-record",
            _("{f} begins at {a}-{b}, not 0-0: enter the earlier games by hand.").format(f=path, a=a, b=b),
        )
    entries = swapped(rec.entries) if swap_sides else [dict(e) for e in rec.entries]
    return results.replace_entries(
        db,
        actor,
        event_id,
        round_no,
        table_no,
        {1: entries},
        reason=reason,
        override=override,
        expected_version=expected_version,
    )
