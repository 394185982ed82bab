"""The register's CSV import and export.

- CSV import is all-or-nothing: :func:`preview_import` lists what would be added and every bad line with its
  line number and reason; :func:`import_members` writes only when there is no bad line.

Encodings read by the import: UTF-8 with or without BOM first. A file that is not valid UTF-8 is read as a
Windows code page. Windows-1254 (Turkish) and Windows-1252 (Western) differ only in six letters: bytes
D0 DD DE F0 FD FE are Ğ İ Ş ğ ı ş in 1254 and Ð Ý Þ ð ý þ in 1252 (and 8E/9E, Ž/ž, exist in 1252 only).
So: if any of those six bytes occurs, the file is Windows-1254 (in a register of Turkish, Spanish and
Indonesian names the Turkish letters are far likelier than Icelandic ones); otherwise Windows-1252, which
then reads every letter exactly as 1254 would, and also Ž/ž. Bytes that neither code page defines, NUL bytes
(UTF-16 or binary files) and files mixing valid UTF-8 with invalid bytes are refused as unreadable.

The export is UTF-8 with a BOM (Excel then shows the accents right), comma-separated by default; cells
starting with = + - @ get a leading apostrophe so Excel shows them as text instead of running a formula,
and the import removes that apostrophe again.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from sqlalchemy import select

from clubdesk.i18n import LANGUAGES, N_, _, locale_dir, ngettext, translation_in
from clubdesk.models.club import Club
from clubdesk.models.member import Member
from clubdesk.services.kernel import Actor, ServiceError, audit, require
from clubdesk.services.members.edit import apply, next_number, refuse_taken
from clubdesk.services.members.records import DEFAULT_RATING, MemberData, clean, field_errors
from clubdesk.services.members.search import list_members
from clubdesk.storage import Database, DatabaseError, write_atomically
from clubdesk.text import excel_safe, fold

# CSV columns, in export order. Header names are compared folded; a few spellings are accepted.
COLUMNS: tuple[str, ...] = (
    "number",
    "name",
    "club",
    "city",
    "gender",
    "birth_year",
    "rating",
    "rating_experience",
    "phone",
    "email",
    "notes",
    "active",
    "licence",  # rule E15: the federation licence number (an optional column on import)
)
_ALIASES = {
    "e-mail": "email",
    "mail": "email",
    "birth year": "birth_year",
    "birthyear": "birth_year",
    "rating experience": "rating_experience",
    "member number": "number",
    "member_number": "number",
    "license": "licence",
    "licence number": "licence",
    "licence_number": "licence",
    "license number": "licence",
}

# The export's header in the language in force (English: the column keys above); the import reads English,
# Indonesian, Spanish and Turkish headers alike.
COLUMN_TITLES: dict[str, str] = {
    # TRANSLATORS: a column of the members CSV export; short, one word or words_with_underscores is fine
    "number": N_("number"),
    "name": N_("name"),
    "club": N_("club"),
    "city": N_("city"),
    "gender": N_("gender"),
    "birth_year": N_("birth_year"),
    "rating": N_("rating"),
    "rating_experience": N_("rating_experience"),
    "phone": N_("phone"),
    "email": N_("email"),
    "notes": N_("notes"),
    "active": N_("active"),
    "licence": N_("licence"),  # rule E15
}


def _local_headers() -> dict[str, str]:

    return dict(_headers_in(str(locale_dir())))


@lru_cache(maxsize=4)
def _headers_in(folder: str) -> tuple[tuple[str, str], ...]:
    """Every language's header of every column, folded: {"numara": "number", "nombre": "name", ...}."""

    out: dict[str, str] = {}
    for lang in LANGUAGES:
        for key, title in COLUMN_TITLES.items():
            folded = fold(translation_in(lang, title))
            out.setdefault(folded, key)
            out.setdefault(folded.replace(" ", "_"), key)
    return tuple(out.items())


@dataclass(frozen=True)
class BadLine:
    line: int  # 1-based line of the file (the header is line 1)
    reason: str

    def __str__(self) -> str:
        return _("line {line}: {reason}").format(line=self.line, reason=self.reason)


@dataclass(frozen=True)
class ImportPreview:
    """What an import would do: the members it adds, the clubs it creates, every bad line."""

    encoding: str
    additions: tuple[MemberData, ...]
    new_clubs: tuple[str, ...]
    bad_lines: tuple[BadLine, ...]

    @property
    def ok(self) -> bool:
        return not self.bad_lines and bool(self.additions)


# --------------------------------------------------------------------------- CSV import

_TURKISH_ONLY = frozenset(b"\xd0\xdd\xde\xf0\xfd\xfe")


def decode_csv(raw: bytes) -> tuple[str, str, list[BadLine]]:
    """(text, encoding, problems). See the module doc for how Windows-1254 and 1252 are told apart."""
    if raw.startswith(b"\xef\xbb\xbf"):
        encoding = "utf-8-sig"
    else:
        encoding = "utf-8"
    if b"\x00" in raw:
        return (
            "",
            "",
            [
                BadLine(
                    1,
                    _(
                        "unreadable encoding: the file is not text (UTF-16 or a spreadsheet?); "
                        "save it as CSV UTF-8"
                    ),
                )
            ],
        )
    try:
        return raw.decode(encoding), encoding, []
    except UnicodeDecodeError:
        pass
    lines = raw.split(b"\n")
    # Valid non-ASCII UTF-8 on some lines and invalid bytes on others: a damaged or mixed file.
    good_utf8 = False
    bad: list[int] = []
    for i, line in enumerate(lines, start=1):
        try:
            line.decode("utf-8")
            if any(b >= 0x80 for b in line):
                good_utf8 = True
        except UnicodeDecodeError:
            bad.append(i)
    if good_utf8:
        reason = _("unreadable encoding: not valid UTF-8, while the rest of the file is UTF-8")
        return "", "", [BadLine(i, reason) for i in bad]
    encoding = "cp1254" if any(b in _TURKISH_ONLY for b in raw) else "cp1252"
    problems: list[BadLine] = []
    for i, line in enumerate(lines, start=1):
        try:
            line.decode(encoding)
        except UnicodeDecodeError:
            problems.append(
                BadLine(i, _("unreadable encoding: not UTF-8, Windows-1254 or Windows-1252 text"))
            )
    if problems:
        return "", "", problems
    return raw.decode(encoding), encoding, []


def _delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _unescape(cell: str) -> str:
    cell = cell.strip()
    if len(cell) > 1 and cell[0] == "'" and cell[1] in "=+-@":
        return cell[1:]
    return cell


@lru_cache(maxsize=4)
def _yes_no(folder: str) -> tuple[frozenset[str], frozenset[str]]:
    """The export's own "yes" and "no" in every language, folded (per catalog folder)."""

    return (
        frozenset(fold(translation_in(lang, "yes")) for lang in LANGUAGES),
        frozenset(fold(translation_in(lang, "no")) for lang in LANGUAGES),
    )


def _parse_bool(text: str) -> bool | None:

    t = fold(text)
    if t in ("", "1", "yes", "y", "true", "evet", "ya", "si", "x", "active"):
        return True
    if t in ("0", "no", "n", "false", "hayir", "tidak", "inactive"):
        return False
    yes, no = _yes_no(str(locale_dir()))  # the export's own yes / no in any language
    if t in yes:
        return True
    if t in no:
        return False
    return None


def parse_csv(raw: bytes) -> tuple[str, list[tuple[int, MemberData]], list[BadLine]]:
    """Read a register CSV: (encoding, [(line, data)], bad lines). Checks each line on its own and the
    numbers within the file; duplicates against the database are checked by :func:`preview_import`."""
    text, encoding, problems = decode_csv(raw)
    if problems:
        return encoding, [], problems
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    first_line = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first_line))
    rows: list[tuple[int, list[str]]] = []
    last = 0
    try:
        for row in reader:
            start = last + 1
            last = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            rows.append((start, row))
    except csv.Error as exc:  # e.g. a field longer than 131,072 characters
        return encoding, [], [BadLine(last + 1, _("the line cannot be read: {reason}").format(reason=exc))]
    if not rows:
        return encoding, [], [BadLine(1, _("the file is empty: it needs a header line and members"))]
    header_line, header = rows[0]
    columns: list[str] = []
    local = _local_headers()
    for cell in header:
        key = fold(cell.strip().lstrip("\ufeff"))
        key = _ALIASES.get(key, key.replace(" ", "_"))
        if key not in COLUMNS:
            key = local.get(fold(cell.strip().lstrip("\ufeff")), key)  # a header in id, es or tr
        if key not in COLUMNS:
            problems.append(BadLine(header_line, _("unknown column “{column}”").format(column=cell.strip())))
        elif key in columns:
            problems.append(
                BadLine(header_line, _("the column “{column}” appears twice").format(column=cell.strip()))
            )
        columns.append(key)
    if "name" not in columns:
        problems.append(BadLine(header_line, _("the header has no “name” column")))
    if problems:
        return encoding, [], problems
    out: list[tuple[int, MemberData]] = []
    seen_numbers: dict[str, int] = {}
    for line, row in rows[1:]:
        if len(row) > len(columns) and any(c.strip() for c in row[len(columns) :]):
            problems.append(BadLine(line, _("more values than columns ({n} columns)").format(n=len(columns))))
            continue
        values = {col: _unescape(row[i]) if i < len(row) else "" for i, col in enumerate(columns)}
        reasons: list[str] = []
        data, conversion = _row_to_data(values)
        reasons += conversion
        if data is not None:
            errors = field_errors(data, examples=False)
            reasons += list(errors.values())
            if data.number:
                if data.number in seen_numbers:
                    reasons.append(
                        _("member number {number} appears twice in the file (also line {other})").format(
                            number=data.number, other=seen_numbers[data.number]
                        )
                    )
                else:
                    seen_numbers[data.number] = line
        for reason in reasons:
            problems.append(BadLine(line, _lower_first(reason)))
        if not reasons and data is not None:
            out.append((line, data))
    if len(rows) == 1:
        problems.append(BadLine(header_line, _("the file has a header but no members")))
    return encoding, out, problems


def _lower_first(text: str) -> str:
    text = text.rstrip(".")
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def _row_to_data(v: dict[str, str]) -> tuple[MemberData | None, list[str]]:
    reasons: list[str] = []
    birth_year: int | None = None
    rating: float | None = None
    experience = 0
    if v.get("birth_year"):
        try:
            birth_year = int(v["birth_year"])
        except ValueError:
            reasons.append(_("the birth year is not a number: {value}").format(value=v["birth_year"]))
    if v.get("rating"):
        try:
            rating = float(v["rating"].replace(",", "."))
        except ValueError:
            reasons.append(_("the rating is not a number: {value}").format(value=v["rating"]))
    if v.get("rating_experience"):
        try:
            experience = int(v["rating_experience"])
        except ValueError:
            reasons.append(
                _("the rating experience is not a whole number: {value}").format(value=v["rating_experience"])
            )
    active = _parse_bool(v.get("active", ""))
    if active is None:
        reasons.append(_("active must be yes or no: {value}").format(value=v["active"]))
    data = clean(
        MemberData(
            name=v.get("name", ""),
            number=v.get("number", ""),
            club=v.get("club", ""),
            city=v.get("city", ""),
            gender=v.get("gender", ""),
            birth_year=birth_year,
            rating=rating,
            rating_experience=experience,
            phone=v.get("phone", ""),
            email=v.get("email", ""),
            notes=v.get("notes", ""),
            active=bool(active) if active is not None else True,
            licence=v.get("licence", ""),
        )
    )
    return data, reasons


def preview_import(db: Database, source: Path | bytes) -> ImportPreview:
    """What importing ``source`` would add, and every bad line (nothing is written)."""
    raw = source if isinstance(source, bytes) else _read(source)
    encoding, rows, problems = parse_csv(raw)
    additions: list[MemberData] = []
    new_clubs: list[str] = []
    with db.session() as s:
        existing = {str(r[0]): str(r[1]) for r in s.execute(select(Member.number, Member.name))}
        club_names = {fold(n) for n in s.scalars(select(Club.name))}
        taken = set(existing)
        for line, data in rows:
            if data.number and data.number in existing:
                problems.append(
                    BadLine(
                        line,
                        _("member number {number} is already in the register ({name})").format(
                            number=data.number, name=existing[data.number]
                        ),
                    )
                )
                continue
            if data.club and fold(data.club) not in club_names:
                club_names.add(fold(data.club))
                new_clubs.append(data.club)
            additions.append(data)
        # members without a number get the next free numbers, in file order
        numbered: list[MemberData] = []
        for data in additions:
            if not data.number:
                data = replace(data, number=next_number(s, taken))
            taken.add(data.number)
            numbered.append(data)
    problems.sort(key=lambda b: b.line)
    return ImportPreview(encoding, tuple(numbered), tuple(new_clubs), tuple(problems))


def _read(path: Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise ServiceError(
            "file-unreadable",
            _("Cannot read {file}: {reason}").format(file=path, reason=exc.strerror or exc),
        ) from exc


def import_members(
    db: Database, actor: Actor, source: Path | bytes, *, dry_run: bool = False
) -> ImportPreview:
    """Import a register CSV, all or nothing. Any bad line: ServiceError listing every bad line, nothing
    written. ``dry_run``: check everything, write nothing."""
    require(actor, "members.import", db)  # permission table
    preview = preview_import(db, source)
    if preview.bad_lines:
        raise ServiceError(
            "import-refused",
            ngettext(
                "The file was not imported: {n} bad line; nothing was written.",
                "The file was not imported: {n} bad lines; nothing was written.",
                len({b.line for b in preview.bad_lines}),
            ).format(n=len({b.line for b in preview.bad_lines})),
            [str(b) for b in preview.bad_lines],
        )
    if not preview.additions:
        raise ServiceError("import-empty", _("The file has no members to import."))
    if dry_run:
        return preview
    with db.session() as s:
        for data in preview.additions:
            refuse_taken(s, data.number)
            m = Member(number=data.number, rating=DEFAULT_RATING, rating_experience=0)
            s.add(m)
            apply(s, actor, m, data)
        s.flush()
        audit(
            s,
            actor,
            "member.import",
            "member",
            None,
            after={
                "count": len(preview.additions),
                "numbers": [d.number for d in preview.additions],
                "new_clubs": list(preview.new_clubs),
                "encoding": preview.encoding,
            },
        )
    return preview


# --------------------------------------------------------------------------- CSV export


def export_csv(db: Database, actor: Actor, path: Path, *, delimiter: str = ",") -> int:
    """The organiser's export: every member not merged away, all columns (phone and e-mail included, T14:
    this file is for the organiser only). UTF-8 with BOM so Excel shows the accents right. Audited."""
    require(actor, "members.export", db)  # permission table
    if db.read_only:  # T14: this export is recorded in the audit log, which a read-only file cannot take
        raise ServiceError(
            "read-only",
            _(
                "{path} is read-only: an export of the members' contact data is recorded in its audit log, "
                "so it cannot be made from it. Copy the file to a writable folder first."
            ).format(path=db.location),
        )
    members = list_members(db, include_inactive=True)
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow([_(COLUMN_TITLES[c]) for c in COLUMNS])  # the header in the language in force
    for m in members:
        rating = f"{m.rating:g}"
        writer.writerow(
            [
                excel_safe(x)
                for x in (
                    m.number,
                    m.name,
                    m.club,
                    m.city,
                    m.gender,
                    "" if m.birth_year is None else str(m.birth_year),
                    rating,
                    str(m.rating_experience),
                    m.phone,
                    m.email,
                    m.notes,
                    _("yes") if m.active else _("no"),
                    m.licence,
                )
            ]
        )
    content = buffer.getvalue().encode("utf-8-sig")
    try:  # whole or not at all: a full disk leaves neither a half file nor a temporary one
        write_atomically(Path(path), lambda tmp: tmp.write_bytes(content), suffix=".csv")
    except DatabaseError as exc:
        raise ServiceError("file-unwritable", str(exc)) from exc
    with db.session() as s:
        audit(s, actor, "member.export", "member", None, after={"count": len(members), "file": str(path)})
    return len(members)
