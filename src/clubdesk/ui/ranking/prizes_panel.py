"""The Prizes tab of the Standings section (rules T13a-T13e, issues 19 and 21).

"Plan and preview": the event's prize plan — per place fixed money, a share of the pool (a percentage of the
fees actually collected, T13b) and an item (trophy or medal, goods, a free entry, T13a); category prizes
(women, youth, veterans, T13d) with the number of entrants a category needs — saved through
``services.rounds.configure(prize_plan=...)`` like ``night-config --prize-plan``. Beside it, a live preview
of the amounts (the prize engine's ``award_prizes``) for the current entrant count, or for "if N entrants".

"Awards and payments": once the event is over, the prizes per place (a shared place's money split, T13c),
each one unpaid or paid (date, method, who: T13e, never twice — the services refuse a second payment), and
"Print prize list" (the prize list PDF of services/reports).

Once the event is over the plan is read-only: its prizes have been awarded.
"""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate, QLocale, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDateEdit,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.labels import payment_method_label
from clubdesk.models.money import METHODS
from clubdesk.services import prize_payments as PP
from clubdesk.services import reports as report_service
from clubdesk.services import rounds as R
from clubdesk.services import standings as ST
from clubdesk.services.base import ServiceError
from clubdesk.standings.money import currency_exponent
from clubdesk.standings.prizes import (
    BASIS,
    Category,
    CategoryPrize,
    Item,
    PlacePrize,
    PrizeError,
    PrizeKind,
    PrizePlan,
)
from clubdesk.ui.shell.printing import JobResult, ReportRunner
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.fit import fit_combos
from clubdesk.ui.widgets.money import CURRENCY_LOCALES, money
from clubdesk.ui.widgets.rows import ROW_ROLE, Column, RowsModel, set_message
from clubdesk.ui.widgets.tables import row_table

ITEM_KINDS = ("", "trophy", "goods", "free-entry")  # "" = no item (T13a)
CATEGORY_CODES = ("women", "youth", "veterans")  # rule T13d
PLACE_COLS = 5  # place, fixed, pool share, item, description
CAT_COLS = 6  # category, rank, fixed, pool share, item, description


def _money_box(exp: int, currency: str = "") -> QDoubleSpinBox:
    """An amount in the event's currency, typed and shown as the prize list shows it (₺800,00, not 800.00):
    the currency's own decimal and group separators and its symbol."""
    box = QDoubleSpinBox()
    box.setDecimals(exp)
    box.setRange(0, 10**12 / 10**exp)
    box.setGroupSeparatorShown(True)
    if currency:
        locale = CURRENCY_LOCALES.get(currency, "en")
        box.setLocale(QLocale(locale))
        try:  # the symbol where the prize list puts it: ₺800,00, Rp1.500.000, 25,00 €
            from babel.numbers import format_currency, get_currency_symbol

            symbol = get_currency_symbol(currency, locale=locale)
            sample = format_currency(0, currency, locale=locale)
            at = sample.find(symbol)
            if at == 0:
                gap = sample[len(symbol) : len(symbol) + 1]
                box.setPrefix(symbol + (gap if gap in ("\xa0", " ") else ""))
            elif at > 0:
                gap = sample[at - 1 : at]
                box.setSuffix((gap if gap in ("\xa0", " ") else "") + symbol)
        except Exception:  # noqa: BLE001 - an unknown currency keeps its bare number
            pass
    return box


def _share_box() -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setDecimals(2)
    box.setRange(0, 100)
    box.setSuffix(" %")
    return box


def _item_box() -> QComboBox:
    box = QComboBox()
    for k in ITEM_KINDS:
        box.addItem(PP.payment_item_label(k) if k else "—", k)
    return box


def _pct(basis: int) -> str:
    return f"{basis / 100:g} %"


class PrizesPanel(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.event_id: int | None = None
        self.ctx: PP.PrizeContext | None = None
        self.exp = 2
        self.currency = ""
        self._loading = False
        self.dirty = False  # the plan on screen differs from the stored one
        self.context = QLabel("")
        self.context.setObjectName("prizeContext")
        self.context.setWordWrap(True)
        self.inner = QTabWidget()
        self.inner.setObjectName("prizeTabs")
        self.inner.addTab(self._plan_tab(), _("Plan and preview"))
        self.inner.addTab(self._awards_tab(), _("Awards and payments"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.context)
        layout.addWidget(self.inner, 1)
        fit_combos(self)

    # ------------------------------------------------------------------------------------------ building
    def _plan_tab(self) -> QWidget:
        self.pool_rate = _share_box()
        self.pool_rate.setObjectName("poolRate")
        self.pool_rate.setValue(100)
        self.pool_rate.valueChanged.connect(self._changed)
        self.places = QTableWidget(0, PLACE_COLS)
        self.places.setObjectName("planPlaces")
        self.places.setHorizontalHeaderLabels(
            [_("Place"), _("Fixed"), _("Pool share"), _("Item"), _("Description")]
        )
        self.categories = QTableWidget(0, CAT_COLS)
        self.categories.setObjectName("planCategories")
        self.categories.setHorizontalHeaderLabels(
            [_("Category"), _("Rank"), _("Fixed"), _("Pool share"), _("Item"), _("Description")]
        )
        for t in (self.places, self.categories):
            t.verticalHeader().setVisible(False)
            t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
            h = t.horizontalHeader()
            h.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            h.setSectionResizeMode(t.columnCount() - 1, QHeaderView.ResizeMode.Stretch)
        self.category_minimum = QSpinBox()
        self.category_minimum.setObjectName("categoryMinimum")
        self.category_minimum.setRange(1, 999)
        self.category_minimum.valueChanged.connect(self._changed)
        add_place = QPushButton(_("Add place"))
        add_place.setObjectName("addPlace")
        add_place.clicked.connect(lambda: self.add_place_row())
        del_place = QPushButton(_("Remove row"))
        del_place.clicked.connect(lambda: self._remove_row(self.places))
        add_cat = QPushButton(_("Add category prize"))
        add_cat.setObjectName("addCategory")
        add_cat.clicked.connect(lambda: self.add_category_row())
        del_cat = QPushButton(_("Remove row"))
        del_cat.clicked.connect(lambda: self._remove_row(self.categories))
        self.save_button = QPushButton(_("Save prize plan"))
        self.save_button.setObjectName("savePlan")
        self.save_button.clicked.connect(self.save_plan)
        self.plan_message = QLabel("")
        self.plan_message.setObjectName("planMessage")
        self.plan_message.setWordWrap(True)
        self.lock_reason = QLabel("")
        self.lock_reason.setObjectName("planLocked")
        self.lock_reason.setWordWrap(True)
        self.add_buttons = [add_place, del_place, add_cat, del_cat]

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.lock_reason)
        top = QHBoxLayout()
        top.addWidget(QLabel(_("Prize pool: share of the fees collected")))
        top.addWidget(self.pool_rate)
        top.addStretch(1)
        lv.addLayout(top)
        row = QHBoxLayout()
        row.addWidget(QLabel(_("<b>Places</b> (one row per item; rows of the same place add up)")), 1)
        row.addWidget(add_place)
        row.addWidget(del_place)
        lv.addLayout(row)
        lv.addWidget(self.places, 3)
        row = QHBoxLayout()
        row.addWidget(QLabel(_("<b>Category prizes</b>")), 1)
        row.addWidget(QLabel(_("Entrants a category needs")))
        row.addWidget(self.category_minimum)
        row.addWidget(add_cat)
        row.addWidget(del_cat)
        lv.addLayout(row)
        lv.addWidget(self.categories, 2)
        row = QHBoxLayout()
        row.addWidget(self.save_button)
        row.addWidget(self.plan_message, 1)
        lv.addLayout(row)

        self.preview_n = QSpinBox()
        self.preview_n.setObjectName("previewEntrants")
        self.preview_n.setRange(0, 9999)
        self.preview_n.valueChanged.connect(lambda _v: self.update_preview())
        self.preview_basis = QLabel("")
        self.preview_basis.setObjectName("previewBasis")
        self.preview_basis.setWordWrap(True)
        self.preview = QTableWidget(0, 3)
        self.preview.setObjectName("preview")
        self.preview.setHorizontalHeaderLabels([_("Place"), _("Amount"), _("Items")])
        self.preview.verticalHeader().setVisible(False)
        self.preview.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        ph = self.preview.horizontalHeader()
        ph.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        ph.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.preview_empty = QLabel("")
        self.preview_empty.setObjectName("previewEmpty")
        self.preview_empty.setWordWrap(True)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(QLabel(_("<b>Preview</b>")))
        row = QHBoxLayout()
        row.addWidget(QLabel(_("If this many entrants:")))
        row.addWidget(self.preview_n)
        row.addStretch(1)
        rv.addLayout(row)
        rv.addWidget(self.preview_basis)
        rv.addWidget(self.preview_empty)
        rv.addWidget(self.preview, 1)
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([620, 420])
        return split

    def _awards_tab(self) -> QWidget:
        self.awards_empty = QLabel("")
        self.awards_empty.setObjectName("awardsEmpty")
        self.awards_empty.setWordWrap(True)
        self.awards_model = RowsModel(
            [
                Column(_("Place"), self._place_text),
                Column(_("Name"), lambda p: p.name),
                Column(_("Prize"), self._prize_text),
                Column(_("Amount"), lambda p: money(p.amount, p.currency) if p.kind == "money" else "", True),
                Column(_("Paid"), self._paid_text, color=lambda p: None if p.paid_at else "#b00020"),
            ]
        )
        self.awards = row_table(self.awards_model, "awards")
        self.awards.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.method = QComboBox()
        self.method.setObjectName("prizeMethod")
        for m in METHODS:
            self.method.addItem(payment_method_label(m), m)
        self.day = QDateEdit(QDate.currentDate())
        self.day.setObjectName("prizeDay")
        self.day.setCalendarPopup(True)
        self.pay_button = QPushButton(_("Record payment"))
        self.pay_button.setObjectName("prizePay")
        self.pay_button.clicked.connect(self.record)
        self.message = QLabel("")
        self.message.setObjectName("prizeMessage")
        self.message.setWordWrap(True)
        self.print_button = QPushButton(_("Print prize list"))
        self.print_button.setObjectName("printPrizes")
        self.print_button.clicked.connect(self.print_list)
        self.save_pdf_button = QPushButton(_("Save as PDF…"))
        self.save_pdf_button.setObjectName("savePrizesPdf")
        self.save_pdf_button.clicked.connect(self.save_pdf)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(120)
        self.progress.setVisible(False)
        self.report_message = QLabel("")
        self.report_message.setObjectName("prizeReportMessage")
        self.runner = ReportRunner(
            self.state.db, self, self.progress, self.report_message, [self.print_button, self.save_pdf_button]
        )
        self.last_result: JobResult | None = None
        self.runner.done.connect(self._report_done)
        self.runner.busy_changed.connect(self.progress.setVisible)
        w = QWidget()
        v = QVBoxLayout(w)
        v.setContentsMargins(0, 0, 0, 0)
        v.addWidget(self.awards_empty)
        v.addWidget(self.awards, 1)
        row = QHBoxLayout()
        row.addWidget(QLabel(_("Selected prize paid by")))
        row.addWidget(self.method)
        row.addWidget(QLabel(_("on")))
        row.addWidget(self.day)
        row.addWidget(self.pay_button)
        row.addWidget(self.message, 1)
        v.addLayout(row)
        row = QHBoxLayout()
        row.addWidget(self.print_button)
        row.addWidget(self.save_pdf_button)
        row.addWidget(self.progress)
        row.addWidget(self.report_message, 1)
        v.addLayout(row)
        return w

    @staticmethod
    def _place_text(p: PP.PrizeLine) -> str:
        return PP.label_category(p.place_text) if p.key.startswith("cat:") else p.place_text  # T13d

    @staticmethod
    def _prize_text(p: PP.PrizeLine) -> str:
        if p.kind == "money":
            return _("Category prize money") if p.key.startswith("cat:") else _("Prize money")
        kind = PP.payment_item_label(p.kind)
        return f"{kind}: {p.description}" if p.description else kind

    @staticmethod
    def _paid_text(p: PP.PrizeLine) -> str:
        if p.paid_at is None:
            return _("unpaid")
        return _("paid {d} by {who} ({how})").format(
            d=p.paid_at.strftime("%Y-%m-%d"), who=p.paid_by, how=payment_method_label(p.method)
        )

    # ------------------------------------------------------------------------------------------ plan rows
    def _money_cell(self, table: QTableWidget, row: int, col: int, minor: int) -> None:
        box = _money_box(self.exp, self.currency)
        box.setValue(minor / 10**self.exp)
        box.valueChanged.connect(self._changed)
        table.setCellWidget(row, col, box)

    def _share_cell(self, table: QTableWidget, row: int, col: int, basis: int) -> None:
        box = _share_box()
        box.setValue(basis / 100)
        box.valueChanged.connect(self._changed)
        table.setCellWidget(row, col, box)

    def _item_cells(self, table: QTableWidget, row: int, col: int, item: Item | None) -> None:
        box = _item_box()
        box.setCurrentIndex(max(0, box.findData(str(item.kind) if item else "")))
        box.currentIndexChanged.connect(self._changed)
        table.setCellWidget(row, col, box)
        text = QLineEdit(item.description if item else "")
        text.setPlaceholderText(_("e.g. Cup, a tavla board"))
        text.textChanged.connect(self._changed)
        table.setCellWidget(row, col + 1, text)

    def add_place_row(self, prize: PlacePrize | None = None, item: Item | None = None) -> None:
        t = self.places
        row = t.rowCount()
        t.insertRow(row)
        place = QSpinBox()
        place.setRange(1, 999)
        last = [self._int(t, r, 0) for r in range(row)]
        place.setValue(prize.place if prize else (max(last) + 1 if last else 1))
        place.valueChanged.connect(self._changed)
        t.setCellWidget(row, 0, place)
        self._money_cell(t, row, 1, prize.fixed if prize else 0)
        self._share_cell(t, row, 2, prize.pool_share if prize else 0)
        self._item_cells(t, row, 3, item)
        self._changed()

    def add_category_row(self, prize: CategoryPrize | None = None, item: Item | None = None) -> None:
        t = self.categories
        row = t.rowCount()
        t.insertRow(row)
        cat = QComboBox()
        codes = list(CATEGORY_CODES)
        if prize is not None and prize.category.code not in codes:
            codes.append(prize.category.code)  # a club's own category, kept as it is
        for c in codes:
            cat.addItem(PP.label_category(c), c)
        cat.setCurrentIndex(max(0, cat.findData(prize.category.code if prize else "women")))
        cat.currentIndexChanged.connect(self._changed)
        cat.setProperty("category", prize.category if prize else None)
        t.setCellWidget(row, 0, cat)
        rank = QSpinBox()
        rank.setRange(1, 99)
        rank.setValue(prize.rank if prize else 1)
        rank.valueChanged.connect(self._changed)
        t.setCellWidget(row, 1, rank)
        self._money_cell(t, row, 2, prize.fixed if prize else 0)
        self._share_cell(t, row, 3, prize.pool_share if prize else 0)
        self._item_cells(t, row, 4, item)
        self._changed()

    def _remove_row(self, table: QTableWidget) -> None:
        row = table.currentRow() if table.currentRow() >= 0 else table.rowCount() - 1
        if row >= 0:
            table.removeRow(row)
            self._changed()

    @staticmethod
    def _int(t: QTableWidget, row: int, col: int) -> int:
        w = t.cellWidget(row, col)
        return int(w.value()) if isinstance(w, QSpinBox) else 0

    def _minor(self, t: QTableWidget, row: int, col: int) -> int:
        w = t.cellWidget(row, col)
        return round(w.value() * 10**self.exp) if isinstance(w, QDoubleSpinBox) else 0

    @staticmethod
    def _basis(t: QTableWidget, row: int, col: int) -> int:
        w = t.cellWidget(row, col)
        return round(w.value() * 100) if isinstance(w, QDoubleSpinBox) else 0

    @staticmethod
    def _item(t: QTableWidget, row: int, col: int) -> Item | None:
        kind = t.cellWidget(row, col)
        text = t.cellWidget(row, col + 1)
        if not isinstance(kind, QComboBox) or not kind.currentData():
            return None
        return Item(
            PrizeKind(str(kind.currentData())), text.text().strip() if isinstance(text, QLineEdit) else ""
        )

    def current_plan(self) -> PrizePlan | None:
        """The plan the editor shows (None: no place and no category prize); rows of one place add up.
        Raises PrizeError when the plan breaks a rule (shares above 100 %, a category twice...)."""
        if self.ctx is None or (self.places.rowCount() == 0 and self.categories.rowCount() == 0):
            return None
        places: dict[int, PlacePrize] = {}
        for r in range(self.places.rowCount()):
            p = self._int(self.places, r, 0)
            it = self._item(self.places, r, 3)
            old = places.get(p, PlacePrize(p))
            places[p] = PlacePrize(
                p,
                old.fixed + self._minor(self.places, r, 1),
                old.pool_share + self._basis(self.places, r, 2),
                old.items + ((it,) if it else ()),
            )
        cats: dict[tuple[str, int], CategoryPrize] = {}
        for r in range(self.categories.rowCount()):
            box = self.categories.cellWidget(r, 0)
            assert isinstance(box, QComboBox)
            code = str(box.currentData())
            own = box.property("category")
            cat = (
                own
                if isinstance(own, Category) and own.code == code
                else ST.CATEGORIES.get(code, Category(code))
            )
            rank = self._int(self.categories, r, 1)
            it = self._item(self.categories, r, 4)
            old_c = cats.get((code, rank), CategoryPrize(cat, rank))
            cats[(code, rank)] = CategoryPrize(
                cat,
                rank,
                old_c.fixed + self._minor(self.categories, r, 2),
                old_c.pool_share + self._basis(self.categories, r, 3),
                old_c.items + ((it,) if it else ()),
            )
        seed = self.ctx.plan.seed if self.ctx.plan is not None else 0
        return PrizePlan(
            self.ctx.currency,
            tuple(sorted(places.values(), key=lambda p: p.place)),
            tuple(cats.values()),
            pool_rate=round(self.pool_rate.value() * 100),
            category_minimum=self.category_minimum.value(),
            seed=seed,
        )

    # ------------------------------------------------------------------------------------------ showing
    def show_event(self, event_id: int | None) -> None:
        if event_id != self.event_id:
            self.dirty = False  # another event: its own plan
        self.event_id = event_id
        self.refresh()

    def refresh(self) -> None:
        """Reread the event; a plan being edited (not saved yet) is kept while results come in."""
        self.ctx = None
        if self.event_id is not None:
            try:
                self.ctx = PP.prize_context(self.state.db, self.event_id)
            except ServiceError as exc:
                self.context.setText(exc.message)
        if self.dirty and self.ctx is not None and not self.ctx.finished:
            self._show_context()
            self.update_preview()
        else:
            self._load_plan()
        self._load_awards()

    def _load_plan(self) -> None:
        self._loading = True
        self.dirty = False
        self.places.setRowCount(0)
        self.categories.setRowCount(0)
        ctx = self.ctx
        if ctx is None:
            self.context.setText(_("Create an event first (Events), then give it a prize plan here."))
            self._loading = False
            self._set_locked(True, "")
            self.update_preview()
            return
        self.exp = currency_exponent(ctx.currency)
        self.currency = ctx.currency
        plan = ctx.plan
        self.pool_rate.setValue((plan.pool_rate if plan else BASIS) / 100)
        self.category_minimum.setValue(plan.category_minimum if plan else 1)
        if plan is not None:
            for p in plan.places:
                self.add_place_row(p, p.items[0] if p.items else None)
                for it in p.items[1:]:
                    self.add_place_row(PlacePrize(p.place), it)
            for c in plan.categories:
                self.add_category_row(c, c.items[0] if c.items else None)
                for it in c.items[1:]:
                    self.add_category_row(CategoryPrize(c.category, c.rank), it)
        self._show_context()
        self.preview_n.blockSignals(True)
        self.preview_n.setValue(ctx.entrants)
        self.preview_n.blockSignals(False)
        self._loading = False
        set_message(self.plan_message, ctx.plan_error, False)
        self._set_locked(
            ctx.finished,
            _("The event is over: its prizes were awarded by this plan, which can no longer change.")
            if ctx.finished
            else "",
        )
        self.update_preview()

    def _show_context(self) -> None:
        ctx = self.ctx
        if ctx is not None:
            self.context.setText(
                _("{n} entrants · fees collected (net of refunds): {fees} · entry fee {fee}").format(
                    n=ctx.entrants, fees=money(ctx.collected, ctx.currency), fee=money(ctx.fee, ctx.currency)
                )
            )

    def _set_locked(self, locked: bool, reason: str) -> None:
        self.lock_reason.setText(reason)
        self.lock_reason.setVisible(bool(reason))
        for w in [self.pool_rate, self.category_minimum, self.save_button, *self.add_buttons]:
            w.setEnabled(not locked)
        for t in (self.places, self.categories):
            for r in range(t.rowCount()):
                for c in range(t.columnCount()):
                    cell = t.cellWidget(r, c)
                    if cell is not None:
                        cell.setEnabled(not locked)

    def _changed(self, *_args: object) -> None:
        if not self._loading:
            self.dirty = True
            self.update_preview()

    def update_preview(self) -> None:
        """The amounts of the plan being edited for the entrant count of the spin box (T13a-T13c)."""
        self.preview.setRowCount(0)
        ctx = self.ctx
        if ctx is None:
            self.preview_basis.setText("")
            self.preview_empty.setText(_("Create an event first (Events), then give it a prize plan here."))
            return
        try:
            plan = self.current_plan()
        except PrizeError as exc:
            self.preview_basis.setText("")
            self.preview_empty.setText(exc.message or exc.code)
            self.preview_empty.setStyleSheet("color: #b00020;")
            return
        self.preview_empty.setStyleSheet("")
        if plan is None:
            self.preview_basis.setText("")
            self.preview_empty.setText(
                _(
                    "Set a prize plan: add places (fixed money, a share of the fees, a trophy…) and "
                    "category prizes on the left, then Save prize plan. The amounts show here as you type."
                )
            )
            return
        pv = PP.prize_preview(ctx, plan, self.preview_n.value())
        self.preview_empty.setText("")
        basis = (
            _("Fees actually collected: {fees}").format(fees=money(pv.fees, ctx.currency))
            if pv.actual
            else _("If {n} entrants each pay the entry fee of {fee}: {fees}").format(
                n=pv.entrants, fee=money(ctx.fee, ctx.currency), fees=money(pv.fees, ctx.currency)
            )
        )
        self.preview_basis.setText(
            basis
            + " · "
            + _("prize pool ({rate}): {pool}").format(
                rate=_pct(plan.pool_rate), pool=money(pv.pool, ctx.currency)
            )
            + (
                " · " + _("not handed out: {amount}").format(amount=money(pv.undistributed, ctx.currency))
                if pv.undistributed
                else ""
            )
        )
        for line in pv.lines:
            r = self.preview.rowCount()
            self.preview.insertRow(r)
            amount = money(line.amount, ctx.currency) if line.amount else ""
            if not line.awarded:
                amount = _("nobody (too few entrants)")
            cells = [line.place, amount, ", ".join(line.items)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 1:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.preview.setItem(r, c, item)

    def preview_amounts(self) -> dict[str, str]:
        """What the preview shows: place -> amount text (for tests and the screen reader)."""
        out: dict[str, str] = {}
        for r in range(self.preview.rowCount()):
            p, a = self.preview.item(r, 0), self.preview.item(r, 1)
            if p is not None and a is not None:
                out[p.text()] = a.text()
        return out

    # ------------------------------------------------------------------------------------------ saving
    def save_plan(self) -> bool:
        if self.event_id is None or self.ctx is None:
            return False
        try:
            plan = self.current_plan()
            value = "{}" if plan is None else ST.prize_plan_json(plan)
            R.configure(self.state.db, self.state.actor, self.event_id, prize_plan=value)
        except PrizeError as exc:
            set_message(self.plan_message, exc.message or exc.code, False)
            return False
        except ServiceError as exc:
            set_message(self.plan_message, exc.message, False)
            return False
        self.dirty = False
        self.refresh()
        set_message(self.plan_message, _("Prize plan saved."), True)
        self.state.dataChanged.emit("prizes")
        return True

    # ------------------------------------------------------------------------------------------ awards
    def _load_awards(self) -> None:
        lines = (
            PP.prize_lines(self.state.db, self.event_id)
            if self.ctx is not None and self.event_id is not None
            else []
        )
        self.awards_model.set_rows(lines)
        ctx = self.ctx
        if ctx is None:
            text = _("Create an event first (Events).")
        elif lines:
            text = ""
        elif ctx.finished:
            text = (
                _("The event ended without prizes: it had no prize plan.")
                if ctx.plan is None
                else _("The event ended; nobody could receive a prize of its plan.")
            )
        elif ctx.plan is None:
            text = _(
                "No prizes yet. Set a prize plan in Plan and preview; the prizes are awarded when the "
                "event ends, and their payments are recorded here."
            )
        else:
            text = _("The prizes are awarded when the event ends; then record each payment here.")
        self.awards_empty.setText(text)
        self.awards_empty.setVisible(bool(text))
        for w in (self.pay_button, self.method, self.day):
            w.setEnabled(bool(lines))
        for w in (self.print_button, self.save_pdf_button):
            w.setEnabled(ctx is not None and not self.runner.busy)
        if ctx is not None and ctx.finished and lines:
            self.inner.setCurrentIndex(1)
        if lines and not self.awards.selectionModel().hasSelection():
            first = next((k for k, p in enumerate(lines) if p.paid_at is None), 0)
            self.awards.selectRow(first)

    def selected_line(self) -> PP.PrizeLine | None:
        idx = self.awards.selectionModel().selectedRows()
        if not idx:
            return None
        line = self.awards_model.data(idx[0], ROW_ROLE)
        return line if isinstance(line, PP.PrizeLine) else None

    def select_place(self, place: int) -> bool:
        for k, p in enumerate(self.awards_model.rows):
            if p.place == place and not p.key.startswith("cat:"):
                self.awards.selectRow(k)
                return True
        return False

    def record(self) -> bool:
        """Record the payment of the selected prize (T13e); a second payment is refused with its reason."""
        line = self.selected_line()
        if self.event_id is None or line is None:
            set_message(self.message, _("Select a prize first."), False)
            return False
        d = self.day.date()
        try:
            res = PP.pay_prize(
                self.state.db,
                self.state.actor,
                self.event_id,
                line.place,
                str(self.method.currentData()),
                on=date(d.year(), d.month(), d.day()),
                entrant=line.entrant,
                award=line.award if line.key.startswith("cat:") else None,  # rule T13d: its own payment
            )
        except ServiceError as exc:
            set_message(self.message, exc.message, False)
            return False
        set_message(
            self.message, _("Prize for place {p} paid to {name}.").format(p=res.place, name=res.paid_to), True
        )
        row = self.awards.currentIndex().row()
        self._load_awards()
        self.awards.selectRow(row)
        return True

    # ------------------------------------------------------------------------------------------ printing
    def _request(self) -> report_service.ReportRequest | None:
        if self.event_id is None:
            return None
        return report_service.ReportRequest(kind="prizes", event_id=self.event_id)

    def print_list(self) -> None:
        req = self._request()
        if req is not None:
            self.runner.print(req)

    def save_pdf(self, path: str | None = None) -> None:
        req = self._request()
        if req is not None:
            self.runner.save_as(self, req, path)

    def _report_done(self, result: JobResult) -> None:
        self.last_result = result
