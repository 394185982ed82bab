"""The prize plan tab of the Standings section's Prizes panel (rules T13a-T13d): per place fixed money, a
share of the pool (a percentage of the fees actually collected, T13b) and an item (trophy or medal, goods,
a free entry, T13a); category prizes (women, youth, veterans, T13d) with the number of entrants a category
needs, saved through ``services.night.configure(prize_plan=...)`` like ``night-config --prize-plan``.
Beside it, a live preview of the amounts (the prize engine's ``award_prizes``) for the current entrant
count, or for "if N entrants". Once the event is over the plan is read-only: its prizes have been awarded.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.services import money as money_service
from clubdesk.services import night
from clubdesk.services.kernel import ServiceError
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
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.money import money, money_box
from clubdesk.ui.widgets.rows import set_message

ITEM_KINDS = ("", "trophy", "goods", "free-entry")  # "" = no item (T13a)
CATEGORY_CODES = ("women", "youth", "veterans")  # rule T13d
PLACE_COLS = 5  # place, fixed, pool share, item, description
CAT_COLS = 6  # category, rank, fixed, pool share, item, description


def _share_box() -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setDecimals(2)
    box.setRange(0, 100)
    box.setSuffix(" %")
    return box


def _item_box() -> QComboBox:
    box = QComboBox()
    for k in ITEM_KINDS:
        box.addItem(money_service.payment_item_label(k) if k else "—", k)
    return box


def _pct(basis: int) -> str:
    return f"{basis / 100:g} %"


class PrizePlanTab(QWidget):
    """The plan tab's widgets and logic, hosted by the Prizes panel (``ui/ranking/prizes_panel.py``)."""

    # the panel's own: set in PrizesPanel.__init__ and show_event
    state: DeskState
    event_id: int | None
    ctx: money_service.PrizeContext | None
    exp: int
    currency: str
    dirty: bool
    loading: bool
    context: QLabel

    def refresh(self) -> None:
        """Reread the event (the panel's)."""
        raise NotImplementedError

    def plan_tab(self) -> QWidget:
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

    def _money_cell(self, table: QTableWidget, row: int, col: int, minor: int) -> None:
        box = money_box(self.exp, self.currency)
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
            cat.addItem(money_service.label_category(c), c)
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
                else night.CATEGORIES.get(code, Category(code))
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

    def load_plan(self) -> None:
        self.loading = True
        self.dirty = False
        self.places.setRowCount(0)
        self.categories.setRowCount(0)
        ctx = self.ctx
        if ctx is None:
            self.context.setText(_("Create an event first (Events), then give it a prize plan here."))
            self.loading = False
            self.set_locked(True, "")
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
        self.show_context()
        self.preview_n.blockSignals(True)
        self.preview_n.setValue(ctx.entrants)
        self.preview_n.blockSignals(False)
        self.loading = False
        set_message(self.plan_message, ctx.plan_error, False)
        self.set_locked(
            ctx.finished,
            _("The event is over: its prizes were awarded by this plan, which can no longer change.")
            if ctx.finished
            else "",
        )
        self.update_preview()

    def show_context(self) -> None:
        ctx = self.ctx
        if ctx is not None:
            self.context.setText(
                _("{n} entrants · fees collected (net of refunds): {fees} · entry fee {fee}").format(
                    n=ctx.entrants, fees=money(ctx.collected, ctx.currency), fee=money(ctx.fee, ctx.currency)
                )
            )

    def set_locked(self, locked: bool, reason: str) -> None:
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
        if not self.loading:
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
        pv = money_service.prize_preview(ctx, plan, self.preview_n.value())
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

    def save_plan(self) -> bool:
        if self.event_id is None or self.ctx is None:
            return False
        try:
            plan = self.current_plan()
            value = "{}" if plan is None else night.prize_plan_json(plan)
            night.configure(self.state.db, self.state.actor, self.event_id, prize_plan=value)
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
