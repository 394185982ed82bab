"""The event editor's layout: its fields (each with its error line), the rule readings box, the buttons."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from clubdesk import labels
from clubdesk.games import RULESETS
from clubdesk.i18n import LANGUAGE_NAMES, _
from clubdesk.models.event import ENTRY_TYPES, FORMATS
from clubdesk.services import events as ev_service
from clubdesk.ui.widgets.fit import fit_combos, fit_scroll
from clubdesk.ui.widgets.forms import FieldWithError
from clubdesk.ui.widgets.optional_date import OptionalDate


class EventEditorView(QWidget):
    """The event editor's fields, buttons and layout; :class:`~clubdesk.ui.events.editor.EventEditor` fills
    them and acts on them."""

    def __init__(self) -> None:
        super().__init__()
        self.name = QLineEdit()
        self.name.setObjectName("eventName")
        self.ruleset = QComboBox()
        for key in RULESETS:
            self.ruleset.addItem(labels.ruleset_label(key), key)
        self.format = QComboBox()
        for key in FORMATS:
            self.format.addItem(labels.format_label(key), key)
        self.entry_type = QComboBox()
        for key in ENTRY_TYPES:
            self.entry_type.addItem(labels.entry_type_label(key), key)
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
        self.early_until = OptionalDate()
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
        self.closes = OptionalDate(with_time=True)
        self.start = OptionalDate(with_time=True)
        self.arrival = QSpinBox()
        self.arrival.setRange(0, 240)
        self.arrival.setSuffix(_(" min before the start"))
        self.starts_on = OptionalDate()
        self.ends_on = OptionalDate()
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
        # the rule readings the event uses (its preset's, or the old ones kept on upgrade)
        self.readings = QLabel("")
        self.readings.setObjectName("eventReadings")
        self.readings.setWordWrap(True)
        self.readings_button = QPushButton(_("Switch to the preset's &readings…"))
        self.readings_button.setObjectName("switchReadings")
        readings_box = QWidget()
        readings_layout = QVBoxLayout(readings_box)
        readings_layout.setContentsMargins(0, 0, 0, 0)
        readings_layout.addWidget(self.readings)
        readings_layout.addWidget(self.readings_button)
        form.addRow(_("Rule readings"), readings_box)
        add("report_language", _("Reports in"), self.report_language)

        self.save_button = QPushButton(_("&Save"))
        self.save_button.setObjectName("saveEvent")
        self.open_desk = QPushButton(_("Open the &desk"))
        self.status_combo = QComboBox()
        for st in ("draft", "open", "closed", "drawn", "running", "finished"):
            self.status_combo.addItem(labels.event_status_label(st), st)
        self.status_button = QPushButton(_("Set status"))
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
