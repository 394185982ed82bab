"""The event editor's logic (its layout is :mod:`clubdesk.ui.events.editor_view`): ruleset, format, entry
type, rounds and match lengths (T8a), fees per entrant or person (BC4), early price (T2b), side events (T2e),
refund policy (T2d), capacity, registration close, start time and arrival deadline (G15), and the event's rule
readings (B6, B8, T12b, G3's floor).
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateTimeEdit,
    QLineEdit,
    QMessageBox,
    QSpinBox,
    QWidget,
)

from clubdesk.games import RULESETS
from clubdesk.i18n import _
from clubdesk.services import events as ev_service
from clubdesk.services import night
from clubdesk.services.kernel import ServiceError
from clubdesk.standings.money import minor_to_major_str
from clubdesk.ui.events.editor_view import EventEditorView
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.forms import ask_save_discard, may_leave
from clubdesk.ui.widgets.money import parse_money
from clubdesk.ui.widgets.optional_date import OptionalDate
from clubdesk.ui.widgets.rows import set_message


class EventsHost(Protocol):
    """What the editor needs from the Events section that shows it."""

    state: DeskState

    def refresh(self, select: int | None = None) -> None: ...


class EventEditor(EventEditorView):
    def __init__(self, section: EventsHost) -> None:
        super().__init__()
        self.section = section
        self.event_id: int | None = None
        self.currency_locked = False
        self._clean: tuple[object, ...] = ()
        self._info: ev_service.EventInfo | None = None
        self.readings_button.clicked.connect(self._switch_readings)
        self.save_button.clicked.connect(self.save)
        self.open_desk.clicked.connect(self._open_desk)
        self.status_button.clicked.connect(self._set_status)
        self.clear()
        for w in self._inputs():
            for name in ("textChanged", "currentIndexChanged", "valueChanged", "toggled", "dateTimeChanged"):
                sig = getattr(w, name, None)
                if sig is not None and hasattr(sig, "connect"):
                    sig.connect(self._follow)
                    break

    # ------------------------------------------------------------------ saved state
    def _inputs(self) -> list[QWidget]:
        out: list[QWidget] = []
        for f in self.fields.values():
            w = f.field
            if isinstance(w, OptionalDate):
                out += [w.on, w.edit]
            elif w not in out:
                out.append(w)
        return out

    def form_state(self) -> tuple[object, ...]:
        """What the form shows, field by field (compared with the state last loaded or saved)."""
        values: list[object] = []
        for w in self._inputs():
            if isinstance(w, QLineEdit):
                values.append(w.text())
            elif isinstance(w, QComboBox):
                values.append((w.currentIndex(), w.currentText()))
            elif isinstance(w, QCheckBox):
                values.append(w.isChecked())
            elif isinstance(w, QDateTimeEdit):  # QDateEdit too
                values.append(w.dateTime().toString("yyyy-MM-dd HH:mm"))
            elif isinstance(w, QSpinBox):
                values.append(w.value())
        return tuple(values)

    def dirty(self) -> bool:
        return self.form_state() != self._clean

    def _mark_clean(self) -> None:
        self._clean = self.form_state()
        self._follow()

    def _follow(self, *_args: object) -> None:
        """Title and Save follow the saved state."""
        info = self._info
        name = info.name if info is not None else _("New event")
        self.title.setText(_("{name} — unsaved changes").format(name=name) if self.dirty() else name)
        self.save_button.setEnabled(self.dirty() or info is None)

    def ask_discard(self) -> QMessageBox.StandardButton:
        """Save, Discard or Cancel for the unsaved edits (a method, so tests can answer it)."""
        return ask_save_discard(self, _("The event being edited has unsaved changes. Save them first?"))

    def confirm_discard(self) -> bool:
        """True when the form may be replaced: nothing unsaved, saved now, or discarded by choice."""
        return may_leave(self.dirty(), self.ask_discard, self.save)

    def _lock(self, info: ev_service.EventInfo | None) -> None:
        """Once the draw is made, what the services refuse to change is read-only, and the form says why."""
        drawn = info is not None and info.drawn
        finished = info is not None and info.status == "finished"
        locked = {
            self.ruleset,
            self.format,
            self.entry_type,
            self.fee,
            self.early_fee,
            self.fee_per,
            self.currency,
        }
        for f in self.fields.values():
            w = f.field
            read_only = finished or (drawn and w in locked)
            if isinstance(w, QLineEdit):
                w.setReadOnly(read_only)
                w.setEnabled(True)
            else:
                w.setEnabled(not read_only)
        if finished:
            reason = _("The event is finished: its fields can no longer change.")
        elif drawn:
            reason = _(
                "The draw is made ({status}): the ruleset, format, entry type, fees and currency can no "
                "longer change (they are read-only)."
            ).format(status=_(info.status) if info is not None else "")
        else:
            reason = ""
        self.locked_reason.setText(reason)
        self.locked_reason.setVisible(bool(reason))

    # ------------------------------------------------------------------

    def _load_parents(self, keep: int | None) -> None:
        self.parent_event.clear()
        self.parent_event.addItem(_("(main event)"), None)
        for e in ev_service.list_events(self.section.state.db):
            if e.parent_event_id is None and e.id != self.event_id:
                self.parent_event.addItem(f"{e.name} ({e.id})", e.id)
        self.parent_event.setCurrentIndex(max(0, self.parent_event.findData(keep)) if keep is not None else 0)

    def clear(self) -> None:
        self.event_id = None
        self.title.setText(_("New event"))
        self.load(ev_service.EventData(name="", ruleset=RULESETS[0], format="swiss"), None)
        self.status_combo.setEnabled(False)
        self.status_button.setEnabled(False)
        self.open_desk.setEnabled(False)
        self._mark_clean()

    def load(self, data: ev_service.EventData, info: ev_service.EventInfo | None) -> None:
        self.event_id = None if info is None else info.id
        for f in self.fields.values():
            f.set_error(None)
        self.name.setText(data.name)
        self.ruleset.setCurrentIndex(max(0, self.ruleset.findData(data.ruleset)))
        self.format.setCurrentIndex(max(0, self.format.findData(data.format)))
        self.entry_type.setCurrentIndex(max(0, self.entry_type.findData(data.entry_type)))
        self.rounds.setValue(data.rounds or 0)
        self.match_lengths.setText(",".join(str(n) for n in data.match_lengths))
        self.target.setValue(data.target or 0)
        self.capacity.setValue(data.capacity or 0)
        self.currency.setText(data.currency)
        self.fee.setText(minor_to_major_str(data.fee, data.currency))
        self.early_fee.setText(
            "" if data.early_fee is None else minor_to_major_str(data.early_fee, data.currency)
        )
        self.early_until.set_value(data.early_until)
        self.fee_per.setCurrentIndex(max(0, self.fee_per.findData(data.fee_per)))
        self._load_parents(data.parent_event_id)
        self.side_fee_rule.setCurrentIndex(max(0, self.side_fee_rule.findData(data.side_fee_rule)))
        self.side_discount.setValue(data.side_discount_percent)
        self.refund_before.setValue(data.refund_percent_before_close)
        self.refund_after.setValue(data.refund_percent_after_close)
        self.closes.set_value(data.registration_closes_at)
        self.start.set_value(data.start_at)
        self.arrival.setValue(data.arrival_deadline_minutes)
        self.starts_on.set_value(data.starts_on)
        self.ends_on.set_value(data.ends_on)
        self.venue.setText(data.venue)
        lang = ev_service.event_language(self.section.state.db, info.id) if info is not None else None
        self.report_language.setCurrentIndex(max(0, self.report_language.findData(lang or "")))
        self.season.setText(data.season)
        self.coefficient_class.setText(data.coefficient_class)
        self._overrides = dict(data.overrides)
        self._overrides.pop("target", None)
        self._info = info
        self._show_readings(info)
        if info is not None:
            self.title.setText(info.name)
            self.status_combo.setCurrentIndex(max(0, self.status_combo.findData(info.status)))
            self.status_combo.setEnabled(True)
            self.status_button.setEnabled(True)
            self.open_desk.setEnabled(True)
        self._lock(info)
        self.message.setText("")
        self._mark_clean()

    def data(self) -> ev_service.EventData:
        """The form as EventData; amounts parsed in the chosen currency (a bad amount raises ServiceError)."""
        currency = self.currency.text().strip().upper() or "EUR"

        def amount(key: str, text: str) -> int:
            return parse_money(text or "0", currency, field=key)

        try:
            lengths = tuple(int(x) for x in self.match_lengths.text().replace(" ", "").split(",") if x)
        except ValueError:
            raise ServiceError(
                "bad-lengths", _("Match lengths are whole numbers, e.g. 5,5,7."), field="match_lengths"
            ) from None
        early_text = self.early_fee.text().strip()
        return ev_service.EventData(
            name=self.name.text(),
            ruleset=str(self.ruleset.currentData()),
            format=str(self.format.currentData()),
            entry_type=str(self.entry_type.currentData()),
            overrides=dict(getattr(self, "_overrides", {})),
            rounds=self.rounds.value() or None,
            match_lengths=lengths,
            target=self.target.value() or None,
            starts_on=self.starts_on.value(),  # type: ignore[arg-type]
            ends_on=self.ends_on.value(),  # type: ignore[arg-type]
            venue=self.venue.text(),
            season=self.season.text(),
            coefficient_class=self.coefficient_class.text(),
            capacity=self.capacity.value() or None,
            currency=currency,
            fee=amount("fee", self.fee.text().strip()),
            early_fee=amount("early_fee", early_text) if early_text else None,
            early_until=self.early_until.value(),  # type: ignore[arg-type]
            fee_per=str(self.fee_per.currentData()),
            parent_event_id=self.parent_event.currentData(),
            side_fee_rule=str(self.side_fee_rule.currentData()),
            side_discount_percent=self.side_discount.value(),
            refund_percent_before_close=self.refund_before.value(),
            refund_percent_after_close=self.refund_after.value(),
            registration_closes_at=self.closes.value(),  # type: ignore[arg-type]
            start_at=self.start.value(),  # type: ignore[arg-type]
            arrival_deadline_minutes=self.arrival.value(),
        )

    def save(self) -> bool:
        for f in self.fields.values():
            f.set_error(None)
        state = self.section.state
        try:
            data = self.data()
            if self.event_id is None:
                info = ev_service.create_event(state.db, state.actor, data)
            else:
                info = ev_service.update_event(state.db, state.actor, self.event_id, data)
            lang = str(self.report_language.currentData() or "") or None
            if lang != ev_service.event_language(state.db, info.id):
                ev_service.set_event_language(state.db, state.actor, info.id, lang)
        except ServiceError as exc:
            errors = exc.params.get("errors") or {exc.params.get("field", "name"): exc.message}
            for key, text in errors.items():
                (self.fields.get(key) or self.fields["name"]).set_error(text)
            set_message(self.message, exc.message, False)
            return False
        self.event_id = info.id
        self.load(info.data(), info)  # title, status and buttons follow what is saved
        set_message(self.message, _("Saved: event {id}.").format(id=info.id), True)
        self.section.refresh(select=info.id)
        state.dataChanged.emit("events")
        return True

    def _set_status(self) -> None:
        if self.event_id is None:
            return
        state = self.section.state
        try:
            ev_service.set_status(state.db, state.actor, self.event_id, str(self.status_combo.currentData()))
        except ServiceError as exc:
            set_message(self.message, exc.message, False)
            return
        self.reload_info()
        set_message(self.message, _("Status changed."), True)
        self.section.refresh(select=self.event_id)
        state.dataChanged.emit("events")

    def reload_info(self) -> None:
        """The event as stored now (its status after the night moved on); unsaved edits are kept."""
        if self.event_id is None:
            return
        try:
            info = ev_service.get_event(self.section.state.db, self.event_id)
        except ServiceError:
            return
        if self.dirty():
            self._info = info
            self.status_combo.setCurrentIndex(max(0, self.status_combo.findData(info.status)))
            self._lock(info)
            self._follow()
        else:
            self.load(info.data(), info)

    def _show_readings(self, info: ev_service.EventInfo | None) -> None:
        """Each reading as the event uses it, with the preset's when they differ."""
        lines: list[str] = []
        changes: dict[str, object] = {}
        if info is not None:
            db = self.section.state.db
            for r in night.event_readings(db, info.id):
                text = f"{r.label} ({r.rule}): {night.value_label(r.value)}"
                if not r.is_preset:
                    text += " · " + _("preset: {value}").format(value=night.value_label(r.preset_value))
                lines.append(text)
            changes = night.new_readings(db, info.id)
        self.readings.setText("\n".join(lines) if lines else _("The preset's readings."))
        self.readings_button.setEnabled(bool(changes))

    def readings_preview(self) -> night.ReadingsPreview | None:
        """What switching to the preset's readings would change (nothing is written)."""
        if self.event_id is None:
            return None
        db = self.section.state.db
        changes = night.new_readings(db, self.event_id)
        return night.preview_readings(db, self.event_id, changes) if changes else None

    def apply_readings(self) -> bool:
        """Save the switch to the preset's readings (audited), then show the event again."""
        if self.event_id is None:
            return False
        state = self.section.state
        try:
            changes = night.new_readings(state.db, self.event_id)
            night.apply_readings(state.db, state.actor, self.event_id, changes)
        except ServiceError as exc:
            set_message(self.message, exc.message, False)
            return False
        info = ev_service.get_event(state.db, self.event_id)
        self.load(info.data(), info)  # the editor holds the new overrides: a later Save keeps them
        set_message(self.message, _("The event uses the preset's readings now."), True)
        self.section.refresh(select=self.event_id)
        state.dataChanged.emit("events")
        return True

    def _switch_readings(self) -> None:
        # the switch reloads the form: unsaved edits are asked about first
        if not self.confirm_discard():
            return
        try:
            preview = self.readings_preview()
        except ServiceError as exc:
            set_message(self.message, exc.message, False)
            return
        if preview is None:
            return
        answer = QMessageBox.question(
            self,
            _("Switch the rule readings"),
            _("Switching changes this:")
            + "\n\n"
            + "\n".join(preview.lines())
            + "\n\n"
            + _("Save the switch?"),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.apply_readings()

    def _open_desk(self) -> None:
        """The desk of THIS event: it becomes the window's event in use, which the desk shows."""
        if self.event_id is not None:
            self.section.state.use_event(self.event_id)
        window = self.window()
        show = getattr(window, "show_section", None)
        if callable(show):
            show("desk")
