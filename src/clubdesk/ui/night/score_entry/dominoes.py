"""Hand-by-hand entry for gaple (seeds 000, 001) and Spanish federation dominoes (seed 002).

Keyboard: the outcome (type its first letter: O out, B block, R redeal, P penalty, S six doubles, A annulled
or abandon), Tab, the seat (type its number 1-4), Tab, the pips left in each hand (the seat that went out is
skipped), the special flags, Enter. The outcome, seat and side start unchosen (nothing is saved before they
are chosen); a redeal, an annulled hand or an abandon needs a second Enter. Every hand is explained and
checked live by the rules engine; an impossible entry (e.g. 70 pips in one hand) is refused inline with the
engine's message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtGui import QIntValidator
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QLineEdit, QWidget

from clubdesk.games import EntryError
from clubdesk.games.gaple_entries import MAX_HAND_PIPS
from clubdesk.i18n import _
from clubdesk.text import side_label, signed
from clubdesk.ui.night.score_entry.base import SheetEntryForm
from clubdesk.ui.night.score_entry.entries import Entry, InputProblem, add_no_choice, chosen
from clubdesk.ui.night.score_entry.keys import KeyCombo
from clubdesk.ui.shell.theme import themed


def _int_field(name: str, top: int = 999) -> QLineEdit:
    field = QLineEdit()
    field.setObjectName(name)
    field.setValidator(QIntValidator(0, top))
    field.setMaximumWidth(56)
    field.setPlaceholderText("0")
    return field


def _read_int(field: QLineEdit, what: str) -> int:
    text = field.text().strip()
    if not text:
        return 0
    try:
        return int(text)
    except ValueError:
        raise InputProblem(_("{what}: type a whole number").format(what=what), field) from None


class _DominoFamilyForm(SheetEntryForm):
    """Seat, four pip fields, penalty side and points: what gaple and domino-es share."""

    OUTCOMES: tuple[tuple[str, str], ...] = ()
    OUT_TYPE = "out"

    def _seat_label(self, seat: int) -> str:
        """The player's name, or "Seat 1 (A · Budi / Agus)": the seat and its side's letter and name."""
        side = side_label("AB"[seat % 2], self.side_names[seat % 2])
        if self.seat_names:
            return f"{seat + 1} — {self.seat_names[seat]} ({side})"
        return _("{n} — seat {n} ({side})").format(n=seat + 1, side=side)

    def _seat_combo(self, name: str, nobody: bool = False) -> QComboBox:
        combo = KeyCombo()
        combo.setObjectName(name)
        if nobody:
            combo.addItem(_("0 — nobody"), None)
        for seat in range(4):
            combo.addItem(self._seat_label(seat), seat)
        if not nobody:
            add_no_choice(combo, _("type the seat 1–4"))
        return combo

    def _side_combo(self, name: str) -> QComboBox:
        combo = KeyCombo()
        combo.setObjectName(name)
        for side in (0, 1):
            combo.addItem(f"{side + 1} — {self.side_names[side]}", side)
        add_no_choice(combo, _("type the side 1 or 2"))
        return combo

    def seat_words(self) -> tuple[str, str]:
        """The seat row's label and what its refusal asks for: who the seat is for this outcome (the
        player who went out, blocked or holds six doubles), never a bare "Seat"."""
        k = self.kind()
        if k == self.OUT_TYPE:
            return _("&Went out"), _("who went out")
        if k == "block":
            return _("&Blocked by"), _("who blocked the game")
        if k == "six_doubles":
            return _("Six doubles &held by"), _("who holds the six doubles")
        return _("&Seat"), _("the seat")

    def seat_no(self) -> int:
        return int(chosen(self.seat, self.seat_words()[1]))

    def side_no(self) -> int:
        return int(chosen(self.side, _("the side")))

    def build_common(self) -> None:
        self.outcome = KeyCombo()
        self.outcome.setObjectName("outcome")
        for code, label in self.OUTCOMES:
            self.outcome.addItem(label, code)
        add_no_choice(self.outcome, _("choose: type a letter"))
        self.seat = self._seat_combo("seat")
        self.pips = [_int_field(f"pips{i}") for i in range(4)]
        pips_row = QWidget()
        row = QHBoxLayout(pips_row)
        row.setContentsMargins(0, 0, 0, 0)
        for i, f in enumerate(self.pips):
            f.setToolTip(self._seat_label(i))
            row.addWidget(f)
        row.addStretch(1)
        self.pips_row = pips_row
        self.side = self._side_combo("side")
        self.points = _int_field("points", 9999)
        self.inputs.addRow(_("&Outcome"), self.outcome)
        self.inputs.addRow(_("&Seat"), self.seat)
        self.inputs.addRow(_("&Pips left, seats 1–4"), pips_row)
        self.inputs.addRow(_("Si&de"), self.side)
        self.inputs.addRow(_("Poi&nts"), self.points)
        self.outcome.currentIndexChanged.connect(self._outcome_changed)
        self.seat.currentIndexChanged.connect(self._seat_changed)
        self.watch(self.outcome, self.seat, *self.pips, self.side, self.points)

    def kind(self) -> str:
        data = self.outcome.currentData()
        return "" if data is None else str(data)

    def check_outcome(self) -> str:
        """The chosen outcome; an InputProblem (pending) while none is chosen."""
        return str(chosen(self.outcome, _("the outcome (type its first letter)")))

    def _visible(self) -> dict[QWidget, bool]:
        k = self.kind()
        return {
            self.seat: k in (self.OUT_TYPE, "block", "six_doubles"),
            self.pips_row: k in (self.OUT_TYPE, "block"),
            self.side: k in ("penalty", "abandon"),
            self.points: k == "penalty",
        }

    def _outcome_changed(self, *_args: object) -> None:
        # Qt lays the form out again for every label and field it shows: the rows change with the form's
        # layout off, which then lays them out once
        box, shown = self.box, False
        box.setEnabled(False)
        try:
            for widget, visible in self._visible().items():
                if self.inputs.isRowVisible(widget) != visible:
                    self.inputs.setRowVisible(widget, visible)
                    shown = shown or visible
        finally:
            box.setEnabled(True)
        if shown:
            box.activate()
        label = self.inputs.labelForField(self.seat)
        if isinstance(label, QLabel):
            label.setText(self.seat_words()[0])
        self._seat_changed()

    def _seat_changed(self, *_args: object) -> None:
        out_seat = self.seat.currentData() if self.kind() == self.OUT_TYPE else None
        for i, f in enumerate(self.pips):
            going_out = i == out_seat
            f.setEnabled(not going_out)
            if going_out:
                f.setText("0")

    def mark_error(self, exc: EntryError | None) -> None:
        """A red frame on the pip fields an impossible count came from (the engine names seats from 0)."""
        bad_code = exc is not None and exc.code.startswith("pips")
        for f in self.pips:
            text = f.text().strip()
            over = bad_code and text.isdigit() and int(text) > MAX_HAND_PIPS
            sheet = themed("border: 2px solid #b00020;" if over else "")
            if f.styleSheet() != sheet:  # every keystroke asks: Qt restyles the field on each call
                f.setStyleSheet(sheet)

    def read_pips(self) -> list[int]:
        return [_read_int(f, _("pips of seat {n}").format(n=i + 1)) for i, f in enumerate(self.pips)]

    def first_input(self) -> QWidget:
        return self.outcome

    def clear_common(self) -> None:
        # every hand starts from no choice: the next hand is never saved from what the last one left
        self.outcome.setCurrentIndex(0)
        self.seat.setCurrentIndex(0)
        self.side.setCurrentIndex(0)
        for f in (*self.pips, self.points):
            f.clear()
        self._seat_changed()

    def load_common(self, entry: Mapping[str, Any]) -> None:
        self.outcome.setCurrentIndex(max(0, self.outcome.findData(entry.get("type"))))
        if isinstance(entry.get("seat"), int):
            self.seat.setCurrentIndex(self.seat.findData(entry["seat"]))
        pips = entry.get("pips")
        for i, f in enumerate(self.pips):
            f.setText(str(pips[i]) if isinstance(pips, list | tuple) and i < len(pips) else "")
        side = entry.get("side")
        if isinstance(side, int):
            self.side.setCurrentIndex(self.side.findData(side))
        self.points.setText(str(entry.get("points", "")) if entry.get("type") == "penalty" else "")
        self._seat_changed()

    def summary_text(self) -> str:
        games = self.result.get("games", [])
        won = self.result.get("games_won", [0, 0])
        a, b = self.side_names
        if self.result.get("winner") is not None:
            return _("Match won by {side}, games {x}–{y}").format(
                side=self.side_names[int(self.result["winner"])], x=won[0], y=won[1]
            )
        totals = games[-1]["totals"] if games and games[-1].get("winner") is None else [0, 0]
        gno = len(games) if games and games[-1].get("winner") is None else len(games) + 1
        return _("Games {x}–{y} · game {g}: {a} {ta} – {tb} {b}").format(
            x=won[0], y=won[1], g=gno, a=a, ta=signed(totals[0]), tb=signed(totals[1]), b=b
        )


class GapleEntryForm(_DominoFamilyForm):
    family = "gaple"
    OUT_TYPE = "out"
    CONFIRM_KINDS = frozenset({"redeal"})

    @property
    def OUTCOMES(self) -> tuple[tuple[str, str], ...]:  # type: ignore[override]  # noqa: N802
        return (
            ("out", _("Out: a player went out")),
            ("block", _("Block: duel of pips (gaple)")),
            ("redeal", _("Redeal")),
            ("penalty", _("Penalty points")),
            ("six_doubles", _("Six doubles dealt")),
        )

    def build_inputs(self) -> None:
        self.title.setText(_("Gaple: hand by hand"))
        self.build_common()
        self.last_tile = KeyCombo()
        self.last_tile.setObjectName("lastTile")
        for value, label in ((None, _("0 — another tile")), ("0-0", "1 — 0-0"), ("6-6", "2 — 6-6")):
            self.last_tile.addItem(label, value)
        self.two_ends = QCheckBox(_("went out on &two ends (GS1)"))
        self.two_ends.setObjectName("twoEnds")
        self.dead00 = self._seat_combo("dead00", nobody=True)
        self.dead66 = self._seat_combo("dead66", nobody=True)
        self.inputs.addRow(_("&Last tile"), self.last_tile)
        self.inputs.addRow("", self.two_ends)
        self.inputs.addRow(_("Dead 0-0 &held by"), self.dead00)
        self.inputs.addRow(_("Dead 6-6 h&eld by"), self.dead66)
        self.watch(self.last_tile, self.two_ends, self.dead00, self.dead66)
        self._outcome_changed()

    def _block_fines(self) -> bool:
        """Rule B6 (fine_in_block): a blocked hand's caught 0-0 / 6-6 is fined: name its holder."""
        p = self.rules.params
        return bool(getattr(p, "caught_double", "") == "fine" and getattr(p, "fine_in_block", False))

    def _visible(self) -> dict[QWidget, bool]:
        out = self.kind() == "out"
        dead = out or (self.kind() == "block" and self._block_fines())
        return {
            **super()._visible(),
            self.last_tile: out,
            self.two_ends: out,
            self.dead00: dead,
            self.dead66: dead,
        }

    def read_entry(self) -> Entry:
        k = self.check_outcome()
        if k == "out":
            return {
                "type": "out",
                "seat": self.seat_no(),
                "pips": self.read_pips(),
                "last_tile": self.last_tile.currentData(),
                "two_ends": self.two_ends.isChecked(),
                "dead": {"0-0": self.dead00.currentData(), "6-6": self.dead66.currentData()},
            }
        if k == "block":
            entry: Entry = {"type": "block", "seat": self.seat_no(), "pips": self.read_pips()}
            d00, d66 = self.dead00.currentData(), self.dead66.currentData()
            if self._block_fines() and (d00 is not None or d66 is not None):
                entry["dead"] = {"0-0": d00, "6-6": d66}  # rule B6: fined in a blocked hand too
            return entry
        if k == "redeal":
            return {"type": "redeal"}
        if k == "six_doubles":
            return {"type": "six_doubles", "seat": self.seat_no()}
        return {
            "type": "penalty",
            "side": self.side_no(),
            "points": _read_int(self.points, _("penalty points")),
        }

    def load_entry(self, entry: Mapping[str, Any]) -> None:
        self.load_common(entry)
        self.last_tile.setCurrentIndex(max(0, self.last_tile.findData(entry.get("last_tile"))))
        self.two_ends.setChecked(bool(entry.get("two_ends")))
        dead = entry.get("dead") or {}
        self.dead00.setCurrentIndex(max(0, self.dead00.findData(dead.get("0-0"))))
        self.dead66.setCurrentIndex(max(0, self.dead66.findData(dead.get("6-6"))))

    def clear_inputs(self) -> None:
        self.clear_common()
        self.last_tile.setCurrentIndex(0)
        self.two_ends.setChecked(False)
        self.dead00.setCurrentIndex(0)
        self.dead66.setCurrentIndex(0)

    def next_hint(self) -> str:
        nxt = self.result.get("next")
        if not nxt:
            return _("The match is over.")
        parts = [_("Next: game {g}").format(g=int(nxt["game"]) + 1)]
        if nxt.get("warmup"):
            parts.append(_("warm-up hand, scores nothing (G6, G7)"))
        if nxt.get("opening_tile"):
            parts.append(_("opening tile {tile}").format(tile=nxt["opening_tile"]))
        if nxt.get("leader") is not None:
            parts.append(
                _("leader: {who} ({rule})").format(
                    who=self._seat_label(int(nxt["leader"])), rule=nxt.get("leader_rule") or ""
                )
            )
        if nxt.get("seat_change"):
            parts.append(self.seat_change_notice())
        if nxt.get("barred_leads"):
            # rule B3: a hint before every hand's lead, not only the first
            parts.append(
                _("not led with {tiles}; else the partner leads (B3)").format(
                    tiles=" / ".join(nxt["barred_leads"])
                )
            )
        return "; ".join(parts)

    def seat_change_notice(self) -> str:
        """Rule G19: opponents change seats after every game won. Reading: the pair that lost the game
        swaps its two seats (as E7b); the seat numbers on the sheet stay with the players, so the sheet
        and the leader suggestion (G9) are unchanged, and the notice says who now sits where."""
        games = [g for g in self.result.get("games", []) if g.get("winner") is not None]
        if not games or not self.seat_names:
            return _("opponents change seats (G19)")
        loser = 1 - int(games[-1]["winner"])
        a, b = self.seat_names[loser], self.seat_names[loser + 2]
        return _("SEAT CHANGE (G19): {a} and {b} ({side}) swap seats before the next hand").format(
            a=a, b=b, side=self.side_names[loser]
        )

    def _refresh(self) -> None:
        super()._refresh()
        nxt = self.result.get("next") or {}
        sheet = themed(
            "color: #92400e; font-weight: 700; background: #fff4d6; padding: 3px;"
            if nxt.get("seat_change")
            else "color: #1e3a8a;"
        )
        if self.hint.styleSheet() != sheet:  # restyled only when a seat change comes or goes
            self.hint.setStyleSheet(sheet)


class DominoEntryForm(_DominoFamilyForm):
    family = "domino"
    OUT_TYPE = "domino"
    CONFIRM_KINDS = frozenset({"annulled", "abandon"})

    @property
    def OUTCOMES(self) -> tuple[tuple[str, str], ...]:  # type: ignore[override]  # noqa: N802
        return (
            ("domino", _("Out: a player went out (domino)")),
            ("block", _("Block: closed hand (cierre)")),
            ("annulled", _("Annulled hand (E15, E16)")),
            ("penalty", _("Penalty points")),
            ("abandon", _("Abandon (E20)")),
        )

    def build_inputs(self) -> None:
        self.title.setText(_("Dominoes: hand by hand"))
        self.build_common()
        self.lead_lost = QCheckBox(_("the offender's side led: &lead lost"))
        self.lead_lost.setObjectName("leadLost")
        self.inputs.addRow("", self.lead_lost)
        self.watch(self.lead_lost)
        self._outcome_changed()

    def _visible(self) -> dict[QWidget, bool]:
        k = self.kind()
        return {**super()._visible(), self.seat: k == "domino", self.lead_lost: k == "annulled"}

    def read_entry(self) -> Entry:
        k = self.check_outcome()
        if k == "domino":
            return {"type": "domino", "seat": self.seat_no(), "pips": self.read_pips()}
        if k == "block":
            return {"type": "block", "pips": self.read_pips()}
        if k == "annulled":
            return {"type": "annulled", "lead_lost": self.lead_lost.isChecked()}
        if k == "abandon":
            return {"type": "abandon", "side": self.side_no()}
        return {
            "type": "penalty",
            "side": self.side_no(),
            "points": _read_int(self.points, _("penalty points")),
        }

    def load_entry(self, entry: Mapping[str, Any]) -> None:
        self.load_common(entry)
        self.lead_lost.setChecked(bool(entry.get("lead_lost")))

    def clear_inputs(self) -> None:
        self.clear_common()
        self.lead_lost.setChecked(False)

    def next_hint(self) -> str:
        if self.result.get("finished"):
            return _("The match is over.")
        leader = self.result.get("next_leader")
        if isinstance(leader, int):
            return _("Next hand led by {who} (E7.3)").format(who=self._seat_label(leader))
        return ""
