"""The night settings of an event, a tab of the Events section beside the event editor: every
setting ``clubdesk-cli night-config`` writes, set from the window.

- the tie-break order (rule T12b), chosen from the codes the standings know, each with a short
  explanation; Enter or Insert adds the highlighted code, Delete removes one, Ctrl+Up / Ctrl+Down move it;
- how results are entered (hand by hand or the final score), the waiting time at the table (T3b, G15),
  the worth of a requested bye, lives (T4g), games per team encounter (E7b) or the match lengths (T8a),
  the open league's deadline (BC3), the club's appeal window (T10, G16);
- the season name, the event's class and the season scale: base points by place and a coefficient per
  class (T12d); the prize plan is shown in one line (it is set in Standings › Prizes).

Saved through ``services.night.configure`` (what ``night-config`` calls): a refusal is shown next to its
field and nothing is written. Once the event runs, what would change results already played is read-only
with the reason shown (the service refuses it too).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from clubdesk.competition import formats
from clubdesk.i18n import _
from clubdesk.services import discipline as discipline_service
from clubdesk.services import events as ev_service
from clubdesk.services import night as night_service
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.events.settings_text import prize_plan_summary, scale_text
from clubdesk.ui.events.tiebreak_picker import TiebreakPicker
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.fit import fit_combos, fit_scroll
from clubdesk.ui.widgets.forms import FieldWithError, ask_save_discard, may_leave
from clubdesk.ui.widgets.optional_date import OptionalDate
from clubdesk.ui.widgets.rows import set_message


class EventSettings(QWidget):
    """The night settings of one event (a tab of the Events section)."""

    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.event_id: int | None = None
        self.info: ev_service.EventInfo | None = None
        self._clean: tuple[object, ...] = ()
        self._appeal = 15

        self.tiebreaks = TiebreakPicker()
        self.tiebreaks.changed = self._follow  # type: ignore[method-assign]
        self.result_mode = QComboBox()
        self.result_mode.setObjectName("resultMode")
        self.result_mode.addItem(_("hand by hand (score sheet)"), "entries")
        self.result_mode.addItem(_("final score only"), "score")
        self.call_minutes = QSpinBox()
        self.call_minutes.setObjectName("callMinutes")
        self.call_minutes.setRange(*night_service.LIMITS["call_minutes"])
        self.call_minutes.setSuffix(_(" min"))
        self.requested_bye = QComboBox()
        self.requested_bye.setObjectName("requestedBye")
        self.requested_bye.addItem(_("nothing (zero-point bye)"), "zero-bye")
        self.requested_bye.addItem(_("a draw (half-point bye)"), "half-bye")
        self.requested_bye.addItem(_("a win (full-point bye)"), "full-bye")
        self.lives = QSpinBox()
        self.lives.setObjectName("lives")
        self.lives.setRange(*night_service.LIMITS["lives"])
        self.encounter_games = QSpinBox()
        self.encounter_games.setObjectName("encounterGames")
        self.encounter_games.setRange(*night_service.LIMITS["encounter_games"])
        self.encounter_games.setSpecialValueText(_("one game"))
        self.match_lengths = QLabel("")
        self.match_lengths.setObjectName("matchLengths")
        self.match_lengths.setWordWrap(True)
        self.deadline = OptionalDate(with_time=True)
        self.appeal = QSpinBox()
        self.appeal.setObjectName("appealMinutes")
        self.appeal.setRange(0, 24 * 60)
        self.appeal.setSuffix(_(" min after the match, for every event"))
        self.season = QLineEdit()
        self.season.setObjectName("seasonName")
        self.season.setPlaceholderText(_("e.g. 2026"))
        self.coefficient_class = QLineEdit()
        self.coefficient_class.setObjectName("coefficientClass")
        self.coefficient_class.setPlaceholderText(_("e.g. local"))
        self.base_points = QLineEdit()
        self.base_points.setObjectName("basePoints")
        self.base_points.setPlaceholderText(_("points by place, e.g. 100,70,50"))
        self.coefficients = QLineEdit()
        self.coefficients.setObjectName("coefficients")
        self.coefficients.setPlaceholderText(_("class=factor, e.g. local=1, regional=1.5"))
        self.best_of = QSpinBox()
        self.best_of.setObjectName("bestOf")
        self.best_of.setRange(0, 99)
        self.best_of.setSpecialValueText(_("every event counts"))
        self.best_of.setPrefix(_("best "))
        self.prizes = QLabel("")
        self.prizes.setObjectName("prizePlanSummary")
        self.prizes.setWordWrap(True)

        self.fields: dict[str, FieldWithError] = {}
        self.rows: dict[str, tuple[QLabel, FieldWithError]] = {}
        form = QFormLayout()
        form.setVerticalSpacing(4)

        def add(key: str, label: str, widget: QWidget, *, span: bool = False) -> None:
            wrapped = FieldWithError(widget)
            self.fields[key] = wrapped
            text = QLabel(label)
            text.setBuddy(widget)
            self.rows[key] = (text, wrapped)
            if span:  # the label above a field as wide as the form
                form.addRow(text)
                form.addRow(wrapped)
            else:
                form.addRow(text, wrapped)

        add("tiebreaks", _("&Tie-breaks"), self.tiebreaks, span=True)
        add("result_mode", _("&Results"), self.result_mode)
        add("call_minutes", _("&Waiting time"), self.call_minutes)
        add("requested_bye", _("A requested &bye is"), self.requested_bye)
        add("lives", _("&Lives"), self.lives)
        add("encounter_games", _("&Games per encounter"), self.encounter_games)
        add("match_lengths", _("Match length"), self.match_lengths)
        add("deadline", _("League deadline"), self.deadline)
        add("appeal", _("A&ppeal window"), self.appeal)
        add("season", _("Sea&son"), self.season)
        add("coefficient_class", _("&Class"), self.coefficient_class)
        scale = QWidget()
        scale_row = QHBoxLayout(scale)
        scale_row.setContentsMargins(0, 0, 0, 0)
        scale_row.addWidget(self.base_points, 3)
        scale_row.addWidget(self.best_of, 2)
        add("season_scale", _("Season &points"), scale)
        add("coefficients", _("C&oefficients"), self.coefficients)
        add("prize_plan", _("Prizes"), self.prizes)
        self.call_help = QLabel("")
        self.call_help.setObjectName("callHelp")
        self.call_help.setWordWrap(True)
        self.fields["call_minutes"].layout().addWidget(self.call_help)

        self.title = QLabel("")
        self.title.setObjectName("settingsTitle")
        self.title.setStyleSheet("font-weight: 600;")
        self.title.setWordWrap(True)
        self.locked_reason = QLabel("")
        self.locked_reason.setObjectName("settingsLockedReason")
        self.locked_reason.setWordWrap(True)
        self.locked_reason.setStyleSheet("font-weight: 600;")
        self.locked_reason.setVisible(False)
        self.save_button = QPushButton(_("&Save the settings"))
        self.save_button.setObjectName("saveNightSettings")
        self.save_button.clicked.connect(self.save)
        self.message = QLabel("")
        self.message.setObjectName("settingsMessage")
        self.message.setWordWrap(True)

        form_box = QWidget()
        box_layout = QVBoxLayout(form_box)
        box_layout.setContentsMargins(4, 4, 4, 4)
        box_layout.addLayout(form)
        box_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(form_box)
        page = QWidget()
        page_layout = QVBoxLayout(page)
        page_layout.setContentsMargins(0, 0, 0, 0)
        page_layout.addWidget(self.title)
        page_layout.addWidget(self.locked_reason)
        page_layout.addWidget(scroll, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.save_button)
        buttons.addStretch(1)
        page_layout.addLayout(buttons)
        page_layout.addWidget(self.message)
        # what to do first when no event is chosen
        self.empty = QLabel(
            _(
                "Choose an event in the list to set its night: tie-breaks, results, waiting time, lives, "
                "season points. A new event is saved first (Ctrl+S in the Event tab)."
            )
        )
        self.empty.setObjectName("settingsEmpty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)
        fit_combos(self)
        fit_scroll(scroll)
        for w in self._inputs():
            for name in ("textChanged", "currentIndexChanged", "valueChanged", "toggled", "dateTimeChanged"):
                sig = getattr(w, name, None)
                if sig is not None and hasattr(sig, "connect"):
                    sig.connect(self._follow)
                    break
        self.load(None)

    # ------------------------------------------------------------------ state
    def _inputs(self) -> list[QWidget]:
        return [
            self.result_mode,
            self.call_minutes,
            self.requested_bye,
            self.lives,
            self.encounter_games,
            self.deadline.on,
            self.deadline.edit,
            self.appeal,
            self.season,
            self.coefficient_class,
            self.base_points,
            self.best_of,
            self.coefficients,
        ]

    def form_state(self) -> tuple[object, ...]:
        values: list[object] = [self.tiebreaks.value()]
        for w in self._inputs():
            if isinstance(w, QLineEdit):
                values.append(w.text())
            elif isinstance(w, QComboBox):
                values.append(w.currentData())
            elif isinstance(w, QCheckBox):
                values.append(w.isChecked())
            elif isinstance(w, QSpinBox):
                values.append(w.value())
            else:
                values.append(str(self.deadline.value()))
        return tuple(values)

    def dirty(self) -> bool:
        return self.event_id is not None and self.form_state() != self._clean

    def _follow(self, *_args: object) -> None:
        if not hasattr(self, "save_button"):
            return
        name = self.info.name if self.info is not None else ""
        self.title.setText(
            _("Night settings of {name} — unsaved changes").format(name=name)
            if self.dirty()
            else _("Night settings of {name}").format(name=name)
        )
        self.save_button.setEnabled(self.dirty())

    def ask_discard(self) -> QMessageBox.StandardButton:
        return ask_save_discard(self, _("The night settings have unsaved changes. Save them first?"))

    def confirm_discard(self) -> bool:
        return may_leave(self.dirty(), self.ask_discard, self.save)

    # ------------------------------------------------------------------ load
    def load(self, event_id: int | None) -> None:
        """Show the stored settings of ``event_id`` (None: the empty state)."""
        for f in self.fields.values():
            f.set_error(None)
        self.message.setText("")
        self.event_id = None
        self.info = None
        if event_id is None:
            self.stack.setCurrentIndex(0)
            self._clean = self.form_state()
            return
        db = self.state.db
        try:
            info = ev_service.get_event(db, event_id)
            night = night_service.load_night_settings(db, event_id)
            locks = night_service.setting_locks(db, event_id)
        except ServiceError as exc:
            self.stack.setCurrentIndex(0)
            self.empty.setText(exc.message)
            return
        self.info = info
        family, params = formats.ruleset_params(info.ruleset, info.overrides)
        self.tiebreaks.set_codes(night.tiebreaks, formats.default_tiebreaks(info.ruleset, info.format))
        self.result_mode.setCurrentIndex(max(0, self.result_mode.findData(night.result_mode)))
        self.call_minutes.setValue(night.call_minutes)
        if params.get("forfeit_from", "call") == "start":
            self.call_help.setText(
                _("A side must be at the table this long before the start, or it loses by forfeit (G15).")
            )
        else:
            self.call_help.setText(_("A side absent this long after the table call can be forfeited (T3b)."))
        self.requested_bye.setCurrentIndex(max(0, self.requested_bye.findData(night.requested_bye)))
        self.lives.setValue(night.lives)
        self.encounter_games.setValue(night.encounter_games)
        if info.match_lengths:
            lengths = ", ".join(str(n) for n in info.match_lengths)
            self.match_lengths.setText(
                _("{lengths} points by round (set in the Event tab, rule T8a)").format(lengths=lengths)
            )
        else:
            self.match_lengths.setText(
                _("{n} points (the ruleset's; set per round in the Event tab, rule T8a)").format(
                    n=params.get("match_length", 5)
                )
            )
        self.deadline.set_value(night.deadline)
        self._appeal = discipline_service.appeal_window(db)
        self.appeal.setValue(self._appeal)
        self.season.setText(night.season)
        self.coefficient_class.setText(night.coefficient_class)
        points, coefficients, best_of = scale_text(night.season_scale)
        self.base_points.setText(points)
        self.coefficients.setText(coefficients)
        self.best_of.setValue(best_of)
        self.prizes.setText(prize_plan_summary(night.prize_plan, info.currency))
        # only what this event's format and game use is shown
        shown = {
            "requested_bye": info.format in night_service.BYE_FORMATS,
            "lives": info.format == "lives",
            "encounter_games": family == "domino" and info.entry_type == "team",
            "match_lengths": family == "tavla",
            "deadline": info.format == "open-round-robin",
        }
        for key, visible in shown.items():
            label, field = self.rows[key]
            label.setVisible(visible)
            field.setVisible(visible)
        self._lock(locks)
        self.event_id = event_id
        self.stack.setCurrentIndex(1)
        self._clean = self.form_state()
        self._follow()

    def _lock(self, locks: dict[str, str]) -> None:
        """What the service refuses to change is read-only, and the screen says why."""
        widgets: dict[str, list[QWidget]] = {
            "tiebreaks": [self.tiebreaks],
            "result_mode": [self.result_mode],
            "call_minutes": [self.call_minutes],
            "requested_bye": [self.requested_bye],
            "lives": [self.lives],
            "encounter_games": [self.encounter_games],
            "deadline": [self.deadline],
            "season": [self.season],
            "coefficient_class": [self.coefficient_class],
            "season_scale": [self.base_points, self.best_of, self.coefficients],
        }
        for key, ws in widgets.items():
            for w in ws:
                if isinstance(w, QLineEdit):
                    w.setReadOnly(key in locks)
                else:
                    w.setEnabled(key not in locks)
            tip = locks.get(key, "")
            self.fields[key].setToolTip(tip)
        reasons = list(dict.fromkeys(locks.values()))
        self.locked_reason.setText("\n".join(reasons))
        self.locked_reason.setVisible(bool(reasons))

    # ------------------------------------------------------------------ save
    def _scale(self) -> dict[str, Any] | None:
        """The season scale typed (None: no scale); a bad entry raises ServiceError with its field."""
        points_text = self.base_points.text().replace(" ", "")
        coeff_text = self.coefficients.text().strip()
        if not points_text and not coeff_text:
            return None
        try:
            points = [int(x) for x in points_text.split(",") if x]
        except ValueError:
            points = []
        if not points or any(p < 0 for p in points):
            raise ServiceError(
                "bad-setting",
                _("Season points are whole numbers by place, e.g. 100,70,50 (rule T12d)."),
                field="season_scale",
            )
        coefficients: dict[str, int] = {}
        for part in coeff_text.replace(";", ",").split(","):
            if not part.strip():
                continue
            klass, sep, factor = part.partition("=")
            try:
                hundredths = Decimal(factor.strip().replace(",", ".")) * 100
            except InvalidOperation:
                hundredths = Decimal(-1)
            if not sep or not klass.strip() or hundredths < 0 or hundredths != hundredths.to_integral_value():
                raise ServiceError(
                    "bad-setting",
                    _("Coefficients are class=factor, e.g. local=1, regional=1.5: {t}").format(
                        t=part.strip()
                    ),
                    field="coefficients",
                )
            coefficients[klass.strip()] = int(hundredths)
        if not coefficients:
            raise ServiceError(
                "bad-setting",
                _("Give the coefficient of each class, e.g. local=1 (rule T12d)."),
                field="coefficients",
            )
        scale: dict[str, Any] = {"base_points": points, "coefficients": coefficients}
        if self.best_of.value():
            scale["best_of"] = self.best_of.value()
        return scale

    def settings(self) -> dict[str, Any]:
        """The form as ``configure`` settings (a bad season scale raises ServiceError)."""
        out: dict[str, Any] = {
            "tiebreaks": self.tiebreaks.value(),
            "result_mode": str(self.result_mode.currentData()),
            "call_minutes": self.call_minutes.value(),
            "lives": self.lives.value(),
            "encounter_games": self.encounter_games.value(),
            "season": self.season.text(),
            "coefficient_class": self.coefficient_class.text(),
        }
        out["requested_bye"] = str(self.requested_bye.currentData())
        if self.info is not None and self.info.format == "open-round-robin":
            out["deadline"] = self.deadline.value()
        scale = self._scale()
        out["season_scale"] = scale if scale is not None else {}
        return out

    def save(self) -> bool:
        if self.event_id is None:
            return False
        for f in self.fields.values():
            f.set_error(None)
        db, actor = self.state.db, self.state.actor
        try:
            settings = self.settings()
            # only what changed is sent: an unchanged setting that is locked is not a change
            changed = night_service.load_night_settings(db, self.event_id).changed(settings)
            if changed:
                night_service.configure(db, actor, self.event_id, **changed)
            if self.appeal.value() != self._appeal:  # the club's appeal window (rules T10, G16)
                discipline_service.set_appeal_window(db, actor, self.appeal.value())
        except ServiceError as exc:
            key = "appeal" if exc.code == "bad-window" else str(exc.params.get("field") or "")
            (self.fields.get(key) or self.fields["tiebreaks"]).set_error(exc.message)
            set_message(self.message, exc.message, False)
            return False
        event_id = self.event_id
        self.load(event_id)
        set_message(self.message, _("Night settings saved."), True)
        self.saved()
        self.state.dataChanged.emit("events")
        return True

    def saved(self) -> None:
        """Called after a save (the Events section reloads the event form: season and class)."""
