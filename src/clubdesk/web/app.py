"""The ASGI app of the hall's network: the table pages by token and the hall pages.

Plain HTML forms; a post is answered with the table page itself, its message on it (no redirect and second
request per hand: a hand p95 <= 100 ms; a reload or a retry of the post stores nothing twice, by the post id).
A little JavaScript shows the table's own address after a post and polls ``/t/<token>/live``, reloading
the page when the table changed (the desk, or the other side's phone). Every form carries a CSRF field (double
submit, :class:`clubdesk.web.security.Csrf`), a page-made post id (a retry stores once) and the table's
version the page showed; bodies over 16 KiB get 413, a Host naming another host 400
(:class:`clubdesk.web.security.OwnHosts`). An unknown token is a plain 404 that reveals nothing.
"""

from __future__ import annotations

import functools
import uuid
from typing import Any

from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from clubdesk import i18n
from clubdesk.i18n import _
from clubdesk.services import phones
from clubdesk.services.kernel import ServiceError
from clubdesk.storage import Database, DatabaseError
from clubdesk.web import hall
from clubdesk.web.render import STATIC, html_response, in_thread, render_html, request_language
from clubdesk.web.security import CSRF_COOKIE, LANG_COOKIE, MAX_BODY, BodyLimit, Csrf, OwnHosts
from clubdesk.web.side_cookie import SIDE_COOKIE, PhoneSide, SideCookies

CUBES = (1, 2, 4, 8, 16, 32, 64)
MARK_CSRF = "@@clubdesk-csrf@@"  # where a cached table page takes each request's own values
MARK_POST = "@@clubdesk-post@@"
MARK_FLASH = "@@clubdesk-flash@@"


def not_found() -> Response:
    return PlainTextResponse("Not Found", status_code=404)


def _int(form: Any, name: str, what: str, default: int | None = None) -> int:
    raw = str(form.get(name, "") or "").strip()
    if raw == "" and default is not None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ServiceError(
            "bad-number", _("{what}: type a whole number").format(what=what), field=name
        ) from None
    if not -100000 <= value <= 100000:
        raise ServiceError("bad-number", _("{what}: type a whole number").format(what=what), field=name)
    return value


def _version(form: Any) -> int | None:
    """The table's version the posting page showed; None when the post has none (the post is then
    refused as a stale page's is, in the post's transaction)."""
    raw = str(form.get("version", "") or "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None


def typed_code(form: Any) -> str:
    """A side's code as typed: the score sheet prints it in two groups ("641 756"), so spaces are not
    part of it."""
    return "".join(str(form.get("code", "") or "").split())


def _seat_or_none(form: Any, name: str) -> int | None:
    raw = str(form.get(name, "") or "").strip()
    if raw in ("", "none"):
        return None
    if raw not in ("0", "1", "2", "3"):
        raise ServiceError("bad-seat", _("Choose a seat."), field=name)
    return int(raw)


def seat_words(page: phones.TablePage | None) -> list[str]:
    """Each seat as the form shows it: the player's name, else "Seat n (side)" (refusals name players)."""
    if page is not None and page.seats:
        return [str(x) for x in page.seats]
    sides = page.sides if page is not None else ("1", "2")
    return [_("Seat {n} ({side})").format(n=i + 1, side=sides[i % 2]) for i in range(4)]


def tavla_cube(form: Any) -> tuple[int, bool]:
    """The cube field as players say it (T7c): "1" no double, "N" doubled to N (taken and played), "dropN"
    a double to N refused; the entry's ``cube`` is the value the game is lost at: a refused double to N
    loses at N / 2 (the natural entry of a refused first double, to 2, scores 1)."""
    raw = str(form.get("cube", "1") or "1").strip()
    dropped = raw.startswith("drop")
    digits = raw[4:] if dropped else raw
    value = int(digits) if digits.isdigit() and len(digits) <= 2 else 0
    if value not in CUBES or (dropped and value < 2):
        raise ServiceError("bad-entry", _("The cube shows 1, 2, 4, 8, 16, 32 or 64."), field="cube")
    return (value // 2, True) if dropped else (value, False)


def entry_from_form(family: str, form: Any, page: phones.TablePage | None = None) -> dict[str, Any]:
    """The entry of CONTRACTS.md §1 that the phone's form describes (the engine judges whether it is
    possible; this reads the fields, and names the players in what it refuses, with the field at
    fault)."""
    kind = str(form.get("type", "") or "")
    if family == "tavla":  # rules T7a-T7c: one game, its winner, single/gammon/backgammon, the cube
        winner = str(form.get("winner", ""))
        if winner not in ("0", "1"):
            raise ServiceError("bad-entry", _("Choose who won the game."), field="winner")
        how = str(form.get("kind", "single"))
        if how not in ("single", "gammon", "backgammon"):
            raise ServiceError("bad-entry", _("Choose single, gammon or backgammon."), field="kind")
        cube, dropped = tavla_cube(form)
        if dropped and how != "single":  # rule T7a: a refused double ends the game at once, no gammon
            raise ServiceError(
                "bad-entry",
                _("A refused double ends the game at once: it is won single, not gammon or backgammon."),
                field="kind",
            )
        return {"type": "game", "winner": int(winner), "kind": how, "cube": cube, "dropped": dropped}
    if kind == "redeal":
        return {"type": "redeal"}
    if kind == "annulled":
        return {"type": "annulled", "lead_lost": form.get("lead_lost") == "1"}
    who = seat_words(page)
    pips = [_int(form, f"pips{i}", _("pips of {who}").format(who=who[i]), 0) for i in range(4)]
    if kind in ("out", "domino", "block"):
        seat = _seat_or_none(form, "seat")
        if seat is None and not (family == "domino" and kind == "block"):
            raise ServiceError("bad-seat", _("Choose who went out or blocked."), field="seat")
    else:
        raise ServiceError("bad-entry", _("Choose what happened in the hand."), field="type")
    if kind in ("out", "domino") and seat is not None and pips[seat] != 0:  # G9, E18: out holds nothing
        raise ServiceError(
            "pips-with-player-out",
            _("{who} went out, so {who} has 0 pips left, not {pips}.").format(who=who[seat], pips=pips[seat]),
            field=f"pips{seat}",
        )
    if family == "domino":
        return (
            {"type": "domino", "seat": seat, "pips": pips}
            if kind == "domino"
            else {"type": "block", "pips": pips}
        )
    dead = {"0-0": _seat_or_none(form, "dead00"), "6-6": _seat_or_none(form, "dead66")}
    if kind == "block":
        return {"type": "block", "seat": seat, "pips": pips, "dead": dead}
    last = str(form.get("last_tile", "") or "")
    return {
        "type": "out",
        "seat": seat,
        "pips": pips,
        "last_tile": last if last in ("0-0", "6-6") else None,
        "two_ends": form.get("two_ends") == "1",
        "dead": dead,
    }


def named_reason(text: str, page: phones.TablePage | None) -> str:
    """A refusal as the form shows the table: the engine's "seat n" become the players' names."""
    if page is None or not page.seats:
        return text
    for i in range(3, -1, -1):
        text = text.replace(_("seat {seat}").format(seat=i + 1), page.seats[i])
    return text


def fault_field(exc: ServiceError, form: Any) -> str:
    """The form field a refused hand's reason is about ("" none): named by the form's own check, or
    read from a game rule's refusal (G9, G10, T7a, T7b) and the values posted."""
    field = str(exc.params.get("field", "") or "")
    if field or "index" not in exc.params:
        return field
    posted = {k: str(v) for k, v in form.items()}
    if exc.code == "pips-out-of-range":  # seven tiles hold at most 69 pips (the engine's MAX_HAND_PIPS)
        big = [i for i in range(4) if posted.get(f"pips{i}", "0").isdigit() and int(posted[f"pips{i}"]) > 69]
        return f"pips{big[0]}" if big else ""
    if exc.code in ("dead-double-out-player", "dead-double-played"):
        out, last = posted.get("seat"), posted.get("last_tile")
        for key, tile in (("dead00", "0-0"), ("dead66", "6-6")):
            if posted.get(key, "none") != "none" and (posted[key] == out or tile == last):
                return key
        return ""
    return {
        "dead-66-pips": "dead66",
        "two-ends-double": "last_tile",
        "drop-with-gammon": "kind",
        "crawford-cube": "cube",
    }.get(exc.code, "")


def refusal_text(exc: ServiceError) -> str:
    """A refusal as the phone says it: a rule's reason without the sheet's "Entry n" (the form shows it)."""
    reason = exc.params.get("reason")
    if "index" in exc.params and reason:
        return _("Not saved: {reason}").format(reason=reason)
    return exc.message


_ROWS: dict[tuple[str, str, phones.HandRow], str] = {}  # a hand's line as shown: rendered once, not per page


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def hands_html(p: phones.TablePage, lang: str) -> str:
    """The hands (games) so far: the longest part of a table page, the same on both sides' pages. A
    stored hand's line never changes, so each is rendered once and the page after a hand adds one line
    (a 60-game tavla match re-rendered whole on every hand cost ~3 ms)."""
    if not p.rows:
        return ""
    with i18n.language_context(lang):
        title = _("Games") if p.family == "tavla" else _("Hands")
        out = ['<section class="hands">', f"<h2>{escape(title)}</h2>", '<ol id="hands">']
        previous: phones.HandRow | None = None
        for r in p.rows:
            if p.family != "tavla" and (previous is None or r.game != previous.game):
                out.append(f'<li class="gamehead">{escape(_("Game {n}").format(n=r.game))}</li>')
            key = (lang, p.family, r)
            line = _ROWS.get(key)
            if line is None:
                if len(_ROWS) > 50_000:
                    _ROWS.clear()
                line = _ROWS[key] = (
                    f'<li><span class="what">{escape(r.text)}</span> '
                    f'<span class="pts">{_signed(r.points[0])} / {_signed(r.points[1])}</span> '
                    f'<span class="tot">{r.totals[0]} – {r.totals[1]}</span></li>'
                )
            out.append(line)
            previous = r
        out.append("</ol>\n</section>")
    return "\n".join(out)


class TableApp:
    """The table routes, bound to one database and one CSRF secret."""

    def __init__(self, db: Database, csrf: Csrf) -> None:
        self.db = db
        self.csrf = csrf
        self.sides = SideCookies(csrf.secret)

    # ---------------------------------------------------------------- helpers
    def _phone(self, request: Request, token: str) -> PhoneSide:
        """The phone's side at this table from its signed cookie (a forged one is no side at all)."""
        return self.sides.load(token, request.cookies.get(SIDE_COOKIE))

    def _keep(self, resp: Response, token: str, phone: PhoneSide) -> None:
        resp.set_cookie(
            SIDE_COOKIE, self.sides.dump(token, phone), path=f"/t/{token}", httponly=True, samesite="strict"
        )

    # ---------------------------------------------------------------- pages
    async def table(self, request: Request) -> Response:
        token = request.path_params["token"]
        lang = request_language(request)
        cached = await self._current(token, lang)
        if cached is None:
            return not_found()
        phone = self._phone(request, token)
        side, code = request.query_params.get("side", ""), request.query_params.get("code", "")
        if side in ("0", "1") and code:  # a side's box QR on the score sheet: its side and its code
            k = int(side)
            ref = await in_thread(phones.posted_table, self.db, token)
            if ref is not None and await in_thread(phones.side_code_ok, self.db, ref, k, code):
                resp: Response = RedirectResponse(f"/t/{token}", status_code=303)  # the code leaves the URL
                self._keep(resp, token, phone.showing(k).with_code(k, code.strip()))
                return resp
            with i18n.language_context(lang):
                flash = {"kind": "err", "text": _("That code does not open this side: scan it again.")}
            return self._page(request, token, lang, cached, phone, flash)
        return self._page(request, token, lang, cached, phone, None)

    async def _current(self, token: str, lang: str) -> phones.CachedPage | None:
        """The table's page as it is now in ``lang``, None for a token that opens nothing."""
        with i18n.language_context(lang):
            if not self.db.is_server:  # a club file: one small read on the event loop
                known, cached = phones.peek(self.db, token)
                if not known or cached is not None:
                    return cached
            return await in_thread(phones.cached_page, self.db, token)  # a thread to build the page

    def _page(
        self,
        request: Request,
        token: str,
        lang: str,
        cached: phones.CachedPage,
        phone: PhoneSide,
        flash: dict[str, str] | None,
        *,
        handover: int | None = None,
        typed: dict[str, str] | None = None,
        fault: str = "",
        keep: PhoneSide | None = None,
    ) -> Response:
        """The table page (for a GET, and as the answer to a post: the post's message on the page, no
        second request for it; a reload of it or a retry stores nothing twice, by the post id).
        ``handover``: the side the phone is being handed to (the step that asks that side's code);
        ``typed``: a refused hand's values, shown again in its form with ``fault`` marked; ``keep``:
        the phone's side to store in its cookie."""
        nonce = request.cookies.get(CSRF_COOKIE) or Csrf.new_nonce()
        phone = keep if keep is not None else phone  # the page shows the phone as it is after the post
        side = phone.side
        # the page of an unchanged table is rendered once per side and flash kind, with markers where
        # this request's CSRF field, post id and message go (no render per request: a hand p95 <= 100 ms)
        shape = (side, bool(phone.code), handover, None if flash is None else flash["kind"])
        html = None if typed else cached.html.get(shape)
        if html is None:
            hands = cached.html.get("hands")
            if hands is None:  # the hands so far: side-independent, the longest part of the page
                hands = cached.html["hands"] = hands_html(cached.page, lang)
            html = render_html(
                "table.html",
                lang,
                p=cached.page,
                hands_html=Markup(hands),  # noqa: S704 - rendered by the autoescaping environment
                side=side,
                has_code=bool(phone.code),
                handover=handover,
                typed=typed or {},
                fault=fault,
                csrf=MARK_CSRF,
                post_id=MARK_POST,
                flash=None if flash is None else {"kind": flash["kind"], "text": MARK_FLASH},
                cubes=CUBES,
                path=f"/t/{token}",
                page_url=f"/t/{token}",
            )
            if not typed:
                cached.html[shape] = html
        html = html.replace(MARK_CSRF, str(escape(self.csrf.field_for(nonce, token))))
        html = html.replace(MARK_POST, uuid.uuid4().hex)
        if flash is not None:
            html = html.replace(MARK_FLASH, str(escape(flash["text"])))
        resp = html_response(html)
        resp.set_cookie(CSRF_COOKIE, nonce, path="/", httponly=True, samesite="strict")
        if keep is not None:
            self._keep(resp, token, keep)
        if request.query_params.get("lang") in i18n.LANGUAGES:
            resp.set_cookie(LANG_COOKIE, lang, path="/", max_age=365 * 86400, samesite="lax")
        return resp

    async def live(self, request: Request) -> Response:
        """The table's key (version, state, referee call): the page reloads when it changes."""
        token = request.path_params["token"]
        if self.db.is_server:
            key = await in_thread(phones.live_key, self.db, token)
        else:  # a club file: one small read, on the event loop (each phone asks twice a second)
            key = phones.live_key(self.db, token)
        if key is None:
            return not_found()
        return JSONResponse({"key": key}, headers={"Cache-Control": "no-store"})

    async def _choose_side(
        self, request: Request, token: str, lang: str, form: Any, ref: phones.TableRef
    ) -> Response:
        """The phone shows a side. A phone that entered or approved for the other side is handed over
        (Bridgemate's one shared terminal): the step names the side it goes to and takes that side's
        code; without the right code the phone stays as it was (G13, E6, T8c)."""
        cached = await self._current(token, lang)
        if cached is None:
            return not_found()
        phone = self._phone(request, token)
        side = str(form.get("side", ""))
        if side not in ("0", "1"):
            return self._page(request, token, lang, cached, phone, None)
        k = int(side)
        if not phone.needs_handover(k):
            return self._page(request, token, lang, cached, phone, None, keep=phone.showing(k))
        code = typed_code(form)
        if "code" not in form:  # "Change": the hand-over step
            return self._page(request, token, lang, cached, phone, None, handover=k)
        if await in_thread(phones.side_code_ok, self.db, ref, k, code):
            return self._page(
                request, token, lang, cached, phone, None, keep=phone.showing(k).with_code(k, code)
            )
        name = cached.page.sides[k]
        with i18n.language_context(lang):
            text = _("That is not {name}'s code: it is printed in {name}'s box on the score sheet.")
        flash = {"kind": "err", "text": text.format(name=name)}
        return self._page(request, token, lang, cached, phone, flash, handover=k)

    async def post(self, request: Request) -> Response:
        token = request.path_params["token"]
        action = request.path_params["action"]
        if action not in ("entry", "undo", "confirm", "referee", "side"):
            return not_found()
        ref = await in_thread(phones.posted_table, self.db, token)
        if ref is None:
            return not_found()
        try:
            form = await request.form(max_files=0, max_fields=50, max_part_size=MAX_BODY)
        except Exception:  # a malformed body is no request at all
            return PlainTextResponse("Bad Request", status_code=400)
        if not self.csrf.valid(request.cookies.get(CSRF_COOKIE), token, str(form.get("csrf", "") or "")):
            return PlainTextResponse("Forbidden", status_code=403)
        lang = request_language(request)
        if action == "side":
            return await self._choose_side(request, token, lang, form, ref)
        address = request.client.host if request.client else "?"
        version = _version(form)
        client_id = str(form.get("post_id", "") or "")
        phone = self._phone(request, token)
        side_now = -1 if phone.side is None else phone.side
        code_typed = typed_code(form)
        code = code_typed or phone.code
        handed = phone.side is not None and phone.handed_over(phone.side)

        def act() -> phones.PostOutcome:
            with i18n.language_context(lang):
                if action == "entry":  # the table's rules are checked in the hand's transaction
                    entry = entry_from_form(phones.family_of(self.db, ref), form, shown)
                    return phones.post_entry(
                        self.db,
                        ref,
                        entry,
                        client_id=client_id,
                        version=version,
                        side=side_now,
                        address=address,
                        game_no=_int(form, "game", _("game"), 1),
                        code=code,
                        handed_over=handed,
                    )
                if action == "undo":
                    return phones.undo(self.db, ref, client_id=client_id, version=version, address=address)
                if action == "confirm":
                    return phones.confirm(
                        self.db,
                        ref,
                        client_id=client_id,
                        version=version,
                        side=side_now,
                        address=address,
                        code=code,
                        handed_over=handed,
                    )
                return phones.call_referee(
                    self.db, ref, client_id=client_id, version=version, address=address
                )

        before = await self._current(token, lang)
        shown = before.page if before is not None else None  # the page the post was made on

        def work() -> tuple[dict[str, str], str, phones.CachedPage | None]:
            """The change and the page after it, in one worker thread (the page is the one the change
            primed: one small read)."""
            fault = ""
            try:
                flash = {"kind": "ok", "text": act().message}
            except (ServiceError, DatabaseError) as exc:
                with i18n.language_context(lang):
                    text = refusal_text(exc) if isinstance(exc, ServiceError) else str(exc)
                    flash = {"kind": "err", "text": named_reason(text, shown)}
                fault = fault_field(exc, form) if isinstance(exc, ServiceError) else ""
            with i18n.language_context(lang):
                return flash, fault, phones.cached_page(self.db, token)

        flash, fault, cached = await in_thread(work)
        if cached is None:  # the round was unpublished meanwhile: its token opens nothing
            return not_found()
        keep = None
        if flash["kind"] == "ok" and phone.side is not None and action in ("entry", "confirm"):
            keep = phone.acted_for(phone.side)  # this phone acted for its side: the other needs a hand-over
            if action == "confirm" and code_typed:
                keep = keep.with_code(phone.side, code_typed)
        typed = None
        if flash["kind"] == "err" and action == "entry":  # nothing typed is lost: the form comes back
            typed = {k: str(v) for k, v in form.items() if k not in ("csrf", "post_id", "version")}
        return self._page(request, token, lang, cached, phone, flash, typed=typed, fault=fault, keep=keep)

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/t/{token}", self.table, methods=["GET"]),
            Route("/t/{token}/live", self.live, methods=["GET"]),
            Route("/t/{token}/{action}", self.post, methods=["POST"]),
        ]


def create_app(db: Database, *, csrf_secret: bytes | None = None) -> Starlette:
    """The whole web face on ``db``: the table pages, the hall pages (``clubdesk.web.hall``) and the static
    files shipped in the package (nothing fetched from outside)."""
    tables = TableApp(db, Csrf(csrf_secret))
    app = Starlette(
        routes=[
            *tables.routes(),
            *hall.routes(),  # the hall pages find the database as request.app.state.db
            Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
        ],
    )
    app.state.db = db
    app.state.csrf = tables.csrf
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(OwnHosts, hosts=functools.partial(phones.own_hosts, db))  # outermost: checked first
    return app
