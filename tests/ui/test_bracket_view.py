"""The bracket tree drawn from the pairing engine's plain bracket data (issue 12)."""

from __future__ import annotations

from clubdesk.pairing import Entrant
from clubdesk.pairing.elimination import double_elimination, single_elimination
from clubdesk.ui.widgets.bracket_view import BracketView

NAMES = {f"p{i}": f"Player {i}" for i in range(10)}


def field(n: int) -> list[Entrant]:
    return [Entrant(f"p{i}", rating=2000 - i) for i in range(n)]


def test_single_elimination_of_six_with_byes(qtbot) -> None:  # type: ignore[no-untyped-def]
    b = single_elimination(field(6))
    b = b.record("W1-2", "p4")  # seed 5 beats seed 4
    view = BracketView()
    qtbot.addWidget(view)
    view.set_bracket(b.to_data(), NAMES, {"W1-4": 3})
    # 8 slots: 4 + 2 + 1 matches
    assert set(view.boxes) == {"W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1"}
    # rule T4c: the top seeds get the byes; bracket_order(8) = [1, 8, 4, 5, 2, 7, 3, 6]
    assert view.boxes["W1-1"].texts == ("Player 0", "bye")
    assert view.boxes["W1-1"].winner == 0
    assert view.boxes["W1-2"].texts == ("Player 3", "Player 4")
    assert view.boxes["W1-2"].winner == 1
    # the winners go on: W2-1 = winner of W1-1 against winner of W1-2
    assert view.boxes["W2-1"].texts == ("Player 0", "Player 4")
    assert view.boxes["W2-1"].status == "ready"
    # not known yet: where the side comes from
    assert view.boxes["W2-2"].texts == ("Player 1", "winner of W1-4")
    # later rounds are drawn to the right of earlier ones
    assert view.boxes["W2-1"].rect.left() > view.boxes["W1-1"].rect.right()
    assert view.boxes["W3-1"].rect.left() > view.boxes["W2-1"].rect.right()


def test_double_elimination_has_losers_bracket_below_and_grand_final(qtbot) -> None:  # type: ignore[no-untyped-def]
    b = double_elimination(field(5))
    for mid in ("W1-1", "W1-2", "W1-3", "W1-4"):
        if b.status(mid) == "ready":
            b = b.record(mid, b.sides(mid)[1])  # the lower seed wins
    view = BracketView()
    qtbot.addWidget(view)
    view.set_bracket(b, NAMES)
    # rule T4d: a losers' bracket and a grand final
    assert any(k.startswith("L") for k in view.boxes)
    assert "GF" in view.boxes
    w_bottom = max(bx.rect.bottom() for k, bx in view.boxes.items() if k.startswith("W"))
    l_top = min(bx.rect.top() for k, bx in view.boxes.items() if k.startswith("L"))
    assert l_top > w_bottom
    gf = view.boxes["GF"].rect
    assert all(gf.left() > bx.rect.right() for k, bx in view.boxes.items() if k[0] in "WL")
    # 5 entrants in 8 slots: W1-2 is seed 4 vs seed 5 (p3 vs p4), p4 won, so p3 drops to the losers' bracket
    assert view.boxes["W1-2"].winner == 1
    losers = [bx.texts for k, bx in view.boxes.items() if k.startswith("L1")]
    assert any("Player 3" in t for t in losers)


def test_champion_is_shown(qtbot) -> None:  # type: ignore[no-untyped-def]
    b = single_elimination(field(2))
    b = b.record("W1-1", "p1")
    view = BracketView()
    qtbot.addWidget(view)
    view.set_bracket(b.to_data(), NAMES)
    texts = [i.text() for i in view.scene().items() if hasattr(i, "text")]
    assert "Champion: Player 1" in texts
