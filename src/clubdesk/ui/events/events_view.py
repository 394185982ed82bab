"""Events: the list of competitions and the event editor (ruleset, format, entry type, rounds and match
lengths (T8a), fees per entrant or person (BC4), early price (T2b), side events (T2e), refund policy (T2d),
capacity, registration close, start time and arrival deadline (G15)), and the event's rule readings
(issue 29: B6, B8, T12b, G3's floor) with a switch to the preset's readings that shows first which tables
and places would change.

Keyboard: Ctrl+N new event, Ctrl+Shift+N new event from the selected one (issue 21: a weekly night, next
week's date), Ctrl+S save (the event, or its night settings on that tab); each refusal is shown next to its
field. The Night settings tab (``ui.event_settings``) sets what ``night-config`` sets. The list can put this
week's night first, marked.

Unsaved edits are never lost: moving to another event or a new one asks first (save, discard or stay).
Once the draw is made (a running event) the fields the services refuse to change are read-only, with the
reason shown above them; the title says whether the form holds unsaved changes.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from PySide6.QtCore import QDate, QDateTime, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clubdesk import labels as L
from clubdesk.games import RULESETS
from clubdesk.i18n import LANGUAGE_NAMES, _
from clubdesk.models.event import ENTRY_TYPES, FORMATS
from clubdesk.services import events as ev_service
from clubdesk.services import readings as rd_service
from clubdesk.services.base import ServiceError
from clubdesk.standings.money import minor_to_major_str
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.fit import DropColumns, fit_combos, fit_scroll
from clubdesk.ui.widgets.forms import FieldWithError, ask_save_discard, may_leave
from clubdesk.ui.widgets.money import money, parse_money
from clubdesk.ui.widgets.rows import ROW_ROLE, Column, RowsModel, set_message
from clubdesk.ui.widgets.tables import row_table


class _OptionalDate(QWidget):
    """A date, or none (checkbox off)."""

    def __init__(self, with_time: bool = False) -> None:
        super().__init__()
        self.on = QCheckBox()
        self.edit: QDateEdit | QDateTimeEdit
        if with_time:
            self.edit = QDateTimeEdit(QDateTime.currentDateTime())
            self.edit.setDisplayFormat("yyyy-MM-dd HH:mm")
        else:
            self.edit = QDateEdit(QDate.currentDate())
            self.edit.setDisplayFormat("yyyy-MM-dd")
        self.edit.setCalendarPopup(True)
        self.edit.setEnabled(False)
        self.on.toggled.connect(self.edit.setEnabled)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.on)
        row.addWidget(self.edit, 1)

    def value(self) -> object:
        if not self.on.isChecked():
            return None
        if isinstance(self.edit, QDateTimeEdit) and not isinstance(self.edit, QDateEdit):
            moment: datetime = self.edit.dateTime().toPython()  # type: ignore[assignment]
            return moment.replace(second=0, microsecond=0)
        return self.edit.date().toPython()

    def set_value(self, value: date | datetime | None) -> None:
        self.on.setChecked(value is not None)
        if value is None:
            return
        if isinstance(value, datetime):
            self.edit.setDateTime(QDateTime(value))
        else:
            self.edit.setDate(QDate(value))


class EventEditor(QWidget):
    def __init__(self, section: EventsSection) -> None:
        super().__init__()
        self.section = section
        self.event_id: int | None = None
        self.currency_locked = False
        self.name = QLineEdit()
        self.name.setObjectName("eventName")
        self.ruleset = QComboBox()
        for key in RULESETS:
            self.ruleset.addItem(L.ruleset_label(key), key)
        self.format = QComboBox()
        for key in FORMATS:
            self.format.addItem(L.format_label(key), key)
        self.entry_type = QComboBox()
        for key in ENTRY_TYPES:
            self.entry_type.addItem(L.entry_type_label(key), key)
        self.rounds = QSpinBox()
        self.rounds.setRange(0, ev_service.MAX_ROUNDS)
        self.rounds.setSpecialValueText(_("as the format says"))
        self.match_lengths = QLineEdit()
        self.match_lengths.setPlaceholderText(_("tavla: 5 or 5,5,7,9 (one per round)"))
        self.target = QSpinBox()
        self.target.setRange(0, 10000)
        self.target.setSpecialValueText(_("the ruleset's"))
        self.capacity = QSpinBox()
        self.capacity.setRange(0, ev_service.MAX_CAPACITY)
        self.capacity.setSpecialValueText(_("no limit"))
        self.currency = QLineEdit("EUR")
        self.currency.setMaximumWidth(80)
        self.fee = QLineEdit("0")
        self.fee.setObjectName("eventFee")
        self.early_fee = QLineEdit("")
        self.early_fee.setPlaceholderText(_("none"))
        self.early_until = _OptionalDate()
        self.fee_per = QComboBox()
        self.fee_per.addItem(_("per entrant"), "entrant")
        self.fee_per.addItem(_("per person"), "person")
        self.parent_event = QComboBox()
        self.side_fee_rule = QComboBox()
        self.side_fee_rule.addItem(_("full fee"), "full")
        self.side_fee_rule.addItem(_("free for main-event entrants"), "free")
        self.side_fee_rule.addItem(_("discount for main-event entrants"), "discount")
        self.side_discount = QSpinBox()
        self.side_discount.setRange(0, 100)
        self.side_discount.setSuffix(" %")
        self.refund_before = QSpinBox()
        self.refund_before.setRange(0, 100)
        self.refund_before.setSuffix(" %")
        self.refund_after = QSpinBox()
        self.refund_after.setRange(0, 100)
        self.refund_after.setSuffix(" %")
        self.closes = _OptionalDate(with_time=True)
        self.start = _OptionalDate(with_time=True)
        self.arrival = QSpinBox()
        self.arrival.setRange(0, 240)
        self.arrival.setSuffix(_(" min before the start"))
        self.starts_on = _OptionalDate()
        self.ends_on = _OptionalDate()
        self.venue = QLineEdit()
        self.report_language = QComboBox()
        self.report_language.setObjectName("reportLanguage")
        self.report_language.addItem(_("the club's language"), "")
        for code, lang_name in LANGUAGE_NAMES.items():
            self.report_language.addItem(lang_name, code)
        self.season = QLineEdit()
        self.coefficient_class = QLineEdit()

        self.fields: dict[str, FieldWithError] = {}
        form = QFormLayout()

        def add(key: str, label: str, widget: QWidget) -> None:
            wrapped = FieldWithError(widget)
            self.fields[key] = wrapped
            form.addRow(label, wrapped)

        add("name", _("&Name"), self.name)
        add("ruleset", _("Ruleset"), self.ruleset)
        add("overrides", _("Format"), self.format)
        self.fields["format"] = self.fields["overrides"]
        add("entry_type", _("Entry"), self.entry_type)
        add("rounds", _("Rounds"), self.rounds)
        add("match_lengths", _("Match length per round"), self.match_lengths)
        add("target", _("Target"), self.target)
        add("capacity", _("Capacity"), self.capacity)
        add("currency", _("Currency"), self.currency)
        add("fee", _("&Fee"), self.fee)
        add("fee_per", _("Fee is"), self.fee_per)
        add("early_fee", _("Early price"), self.early_fee)
        add("early_until", _("…for payments made by"), self.early_until)
        add("parent_event_id", _("Side event of"), self.parent_event)
        add("side_fee_rule", _("Side-event fee"), self.side_fee_rule)
        add("side_discount_percent", _("Discount"), self.side_discount)
        add("refund_percent_before_close", _("Refund before the close"), self.refund_before)
        add("refund_percent_after_close", _("Refund after the close"), self.refund_after)
        add("registration_closes_at", _("Registration closes"), self.closes)
        add("start_at", _("Start"), self.start)
        add("arrival_deadline_minutes", _("Arrival deadline"), self.arrival)
        add("starts_on", _("First day"), self.starts_on)
        add("ends_on", _("Last day"), self.ends_on)
        add("venue", _("Venue"), self.venue)
        add("season", _("Season"), self.season)
        add("coefficient_class", _("Coefficient class"), self.coefficient_class)
        # issue 29: the rule readings the event uses (its preset's, or the old ones kept on upgrade)
        self.readings = QLabel("")
        self.readings.setObjectName("eventReadings")
        self.readings.setWordWrap(True)
        self.readings_button = QPushButton(_("Switch to the preset's &readings…"))
        self.readings_button.setObjectName("switchReadings")
        self.readings_button.clicked.connect(self._switch_readings)
        readings_box = QWidget()
        readings_layout = QVBoxLayout(readings_box)
        readings_layout.setContentsMargins(0, 0, 0, 0)
        readings_layout.addWidget(self.readings)
        readings_layout.addWidget(self.readings_button)
        form.addRow(_("Rule readings"), readings_box)
        add("report_language", _("Reports in"), self.report_language)

        self.save_button = QPushButton(_("&Save"))
        self.save_button.setObjectName("saveEvent")
        self.save_button.clicked.connect(self.save)
        self.open_desk = QPushButton(_("Open the &desk"))
        self.open_desk.clicked.connect(self._open_desk)
        self.status_combo = QComboBox()
        for st in ("draft", "open", "closed", "drawn", "running", "finished"):
            self.status_combo.addItem(L.event_status_label(st), st)
        self.status_button = QPushButton(_("Set status"))
        self.status_button.clicked.connect(self._set_status)
        self.message = QLabel("")
        self.message.setObjectName("eventMessage")
        self.message.setWordWrap(True)
        self.title = QLabel(_("New event"))
        self.title.setObjectName("eventTitle")
        self.title.setStyleSheet("font-size: 14pt; font-weight: 600;")
        self.title.setWordWrap(True)
        self.locked_reason = QLabel()
        self.locked_reason.setObjectName("lockedReason")
        self.locked_reason.setWordWrap(True)
        self.locked_reason.setStyleSheet("font-weight: 600;")
        self.locked_reason.setVisible(False)
        self._clean: tuple[object, ...] = ()
        self._info: ev_service.EventInfo | None = None

        form_box = QWidget()
        form_box.setLayout(form)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(form_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.open_desk)
        buttons.addStretch(1)
        buttons.addWidget(self.status_combo)
        buttons.addWidget(self.status_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.locked_reason)
        layout.addWidget(scroll, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        fit_combos(self)
        fit_scroll(scroll)
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
            if isinstance(w, _OptionalDate):
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
        """Each reading as the event uses it, with the preset's when they differ (issue 29)."""
        lines: list[str] = []
        changes: dict[str, object] = {}
        if info is not None:
            db = self.section.state.db
            for r in rd_service.event_readings(db, info.id):
                text = f"{r.label} ({r.rule}): {rd_service.value_label(r.value)}"
                if not r.is_preset:
                    text += " · " + _("preset: {value}").format(value=rd_service.value_label(r.preset_value))
                lines.append(text)
            changes = rd_service.new_readings(db, info.id)
        self.readings.setText("\n".join(lines) if lines else _("The preset's readings."))
        self.readings_button.setEnabled(bool(changes))

    def readings_preview(self) -> rd_service.ReadingsPreview | None:
        """What switching to the preset's readings would change (nothing is written)."""
        if self.event_id is None:
            return None
        db = self.section.state.db
        changes = rd_service.new_readings(db, self.event_id)
        return rd_service.preview_readings(db, self.event_id, changes) if changes else None

    def apply_readings(self) -> bool:
        """Save the switch to the preset's readings (audited), then show the event again."""
        if self.event_id is None:
            return False
        state = self.section.state
        try:
            changes = rd_service.new_readings(state.db, self.event_id)
            rd_service.apply_readings(state.db, state.actor, self.event_id, changes)
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
        # the switch reloads the form: unsaved edits are asked about first (issue 20)
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
        window = self.window()
        show = getattr(window, "show_section", None)
        if callable(show):
            show("desk")


class CopyEventDialog(QDialog):
    """Issue 21: "New event from…": the date (next week, same weekday) and the name of the copy."""

    def __init__(self, info: ev_service.EventInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("copyEventDialog")
        self.setWindowTitle(_("New event from {name}").format(name=info.name))
        self.day = QDateEdit(QDate(ev_service.next_week(info.starts_on)))
        self.day.setObjectName("copyDate")
        self.day.setDisplayFormat("yyyy-MM-dd")
        self.day.setCalendarPopup(True)
        self.name = QLineEdit(info.name)
        self.name.setObjectName("copyName")
        note = QLabel(
            _(
                "The copy takes the event's settings, night settings, prize plan and ruleset; not its "
                "entrants, payments or results."
            )
        )
        note.setWordWrap(True)
        form = QFormLayout()
        form.addRow(_("&Date"), self.day)
        form.addRow(_("&Name"), self.name)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def values(self) -> tuple[date, str]:
        picked: date = self.day.date().toPython()  # type: ignore[assignment]
        return picked, self.name.text()


def this_week(day: date | None, today: date | None = None) -> bool:
    """Whether ``day`` falls in the current week (Monday to Sunday)."""
    if day is None:
        return False
    today = today or date.today()
    monday = today - timedelta(days=today.weekday())
    return monday <= day < monday + timedelta(days=7)


def _event_day(e: ev_service.EventInfo) -> date | None:
    return e.starts_on or (e.start_at.date() if e.start_at else None)


class EventsSection(QWidget):
    """The Events section of the main window."""

    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self._week: set[int] = set()  # this week's events (issue 21)
        self.model = RowsModel(
            [
                Column(_("No."), lambda e: e.id, True),
                Column(_("Name"), self._name_text),
                Column(_("Ruleset"), lambda e: L.ruleset_label(e.ruleset)),
                Column(_("Format"), lambda e: L.format_label(e.format)),
                Column(_("Status"), lambda e: L.event_status_label(e.status)),
                Column(_("Places"), lambda e: f"{e.registered}/{e.capacity or '∞'}", True),
                Column(_("Waiting"), lambda e: e.waitlisted or "", True),
                Column(_("Fee"), lambda e: money(e.fee, e.currency), True),
                Column(_("Start"), lambda e: f"{e.start_at:%Y-%m-%d %H:%M}" if e.start_at else ""),
            ]
        )
        self.table = row_table(self.model, "eventsTable")
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        # narrow screen: waiting list, start, fee, places, ruleset go first (the editor shows them)
        DropColumns(self.table, 1, [6, 8, 7, 5, 2, 0])
        self.table.selectionModel().selectionChanged.connect(self._selected)
        self.new_button = QPushButton(_("Ne&w event"))
        self.new_button.setObjectName("newEvent")
        self.new_button.clicked.connect(self.new_event)
        # issue 21: a weekly night is last week's event again, with the next date
        self.copy_button = QPushButton(_("New event fro&m…"))
        self.copy_button.setObjectName("copyEvent")
        self.copy_button.setToolTip(
            _("Ctrl+Shift+N: the selected event's settings and prize plan, next week")
        )
        self.copy_button.clicked.connect(self.copy_selected)
        self.week_first = QCheckBox(_("This wee&k's night first"))
        self.week_first.setObjectName("weekFirst")
        self.week_first.setChecked(True)
        self.week_first.toggled.connect(lambda _on: self.refresh(select=self.editor.event_id))
        # issue 21 item 8: an empty list says what to do first
        self.empty = QLabel(
            _(
                "No events yet. Press Ctrl+N (New event) and fill in the form on the right; next week, "
                "New event from… (Ctrl+Shift+N) copies it with its settings."
            )
        )
        self.empty.setObjectName("eventsEmpty")
        self.empty.setWordWrap(True)
        self.editor = EventEditor(self)
        from clubdesk.ui.events.event_settings import EventSettings

        self.settings = EventSettings(state)
        self.settings.saved = self.editor.reload_info  # type: ignore[method-assign]  # season, class
        self.tabs = QTabWidget()
        self.tabs.setObjectName("eventTabs")
        self.tabs.addTab(self.editor, _("Event"))
        self.tabs.addTab(self.settings, _("Night settings"))
        left = QWidget()
        left_layout = QVBoxLayout(left)
        title = QLabel(_("Events"))
        title.setStyleSheet("font-size: 16pt; font-weight: 600;")
        left_layout.addWidget(title)
        left_layout.addWidget(self.empty)
        left_layout.addWidget(self.table, 1)
        # the list's filter on a line of its own, above the buttons: on one line with them the list was too
        # wide for a 1366-pixel screen in Spanish (a horizontal scroll bar hid the form's right edge)
        left_layout.addWidget(self.week_first)
        row = QHBoxLayout()
        row.addWidget(self.new_button)
        row.addWidget(self.copy_button)
        row.addStretch(1)
        left_layout.addLayout(row)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([760, 540])
        self.table.setWordWrap(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.addWidget(splitter)
        for keys, slot in (
            ("Ctrl+N", self.new_event),
            ("Ctrl+Shift+N", self.copy_selected),
            ("Ctrl+S", self.save_current),
        ):
            sc = QShortcut(QKeySequence(keys), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(slot)
        state.dataChanged.connect(self._data_changed)
        self.refresh()

    def _name_text(self, e: ev_service.EventInfo) -> str:
        text = ("↳ " if e.parent_event_id else "") + e.name
        if e.id in self._week:
            text = "★ " + text + "  · " + _("this week")
        return text

    def refresh(self, select: int | None = None) -> None:
        events = ev_service.list_events(self.state.db)
        # newest main events first, each followed by its side events
        events.sort(key=lambda e: (-(e.parent_event_id or e.id), e.parent_event_id is not None, e.id))
        self._week = {e.id for e in events if this_week(_event_day(e))}
        if self.week_first.isChecked() and self._week:
            # issue 21: this week's night (and its side events) at the top, marked
            tops = {e.parent_event_id or e.id for e in events if e.id in self._week}
            events.sort(key=lambda e: (e.parent_event_id or e.id) not in tops)
        self.table.blockSignals(True)
        self.model.set_rows(events)
        self.table.blockSignals(False)
        self.empty.setVisible(not events)
        self.copy_button.setEnabled(bool(events))
        if select is not None:
            for i, e in enumerate(events):
                if e.id == select:
                    self.table.selectRow(i)

    def _selected(self, *args: object) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return
        info: ev_service.EventInfo = self.model.data(rows[0], ROW_ROLE)
        if info.id != self.editor.event_id or info.id != self.settings.event_id:
            if not self.editor.confirm_discard() or not self.settings.confirm_discard():
                self._reselect(self.editor.event_id)  # stay on the event being edited
                return
            if info.id != self.editor.event_id:
                self.editor.load(info.data(), info)
            self.settings.load(info.id)

    def _reselect(self, event_id: int | None) -> None:
        self.table.selectionModel().blockSignals(True)
        self.table.clearSelection()
        for i, e in enumerate(self.model.rows):
            if e.id == event_id:
                self.table.selectRow(i)
        self.table.selectionModel().blockSignals(False)
        self.table.viewport().update()

    def new_event(self) -> None:
        if not self.editor.confirm_discard() or not self.settings.confirm_discard():
            return
        self._reselect(None)
        self.editor.clear()
        self.settings.load(None)
        self.tabs.setCurrentWidget(self.editor)
        self.editor.name.setFocus()

    def save_current(self) -> bool:
        """Ctrl+S: the tab in front is saved."""
        if self.tabs.currentWidget() is self.settings:
            return self.settings.save()
        return self.editor.save()

    # ------------------------------------------------------------------ issue 21: weekly nights
    def selected_event(self) -> ev_service.EventInfo | None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            info: ev_service.EventInfo = self.model.data(rows[0], ROW_ROLE)
            return info
        return None

    def ask_copy(self, info: ev_service.EventInfo) -> tuple[date, str] | None:
        """The date and name of the copy, or None (a method, so tests can answer it)."""
        dialog = CopyEventDialog(info, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.values()

    def copy_selected(self) -> int | None:
        """New event from the selected one (the form asks first about unsaved edits)."""
        info = self.selected_event()
        if info is None:
            set_message(self.editor.message, _("Choose the event to copy in the list first."), False)
            return None
        if not self.editor.confirm_discard() or not self.settings.confirm_discard():
            return None
        answer = self.ask_copy(info)
        if answer is None:
            return None
        day, name = answer
        try:
            new = ev_service.copy_event(self.state.db, self.state.actor, info.id, starts_on=day, name=name)
        except ServiceError as exc:
            set_message(self.editor.message, exc.message, False)
            return None
        self.refresh(select=new.id)
        self.editor.load(new.data(), new)
        self.settings.load(new.id)
        set_message(
            self.editor.message,
            _(
                "Event {id} created from {name}, on {day}: settings and prize plan copied, no entrants."
            ).format(id=new.id, name=info.name, day=day.isoformat()),
            True,
        )
        self.state.dataChanged.emit("events")
        return new.id

    def _data_changed(self, area: str) -> None:
        if area in ("desk", "rounds"):  # registrations, statuses: the list and the editor stay current
            self.refresh(select=self.editor.event_id)
            self.editor.reload_info()
            if self.settings.event_id is not None and not self.settings.dirty():
                self.settings.load(self.settings.event_id)  # a published round locks settings
