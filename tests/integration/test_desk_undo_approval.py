"""Rules G13, E6, T8c: an approval given with a hand goes with that hand when it is undone, whichever face
undoes it. The phone's hand that ends the match is its side's approval; the desk undoes that hand."""

from __future__ import annotations

from pathlib import Path

from clubdesk.services import night
from clubdesk.services.night.data import reads
from clubdesk.services.night.data.tokens import round_tokens
from clubdesk.services.night.play import results, rounds
from clubdesk.services.phones import posts, table_page
from clubdesk.storage import Database
from tests.integration.test_night_helpers import DESK, make_event

GAME = {"type": "game", "winner": 0, "kind": "single", "cube": 1, "dropped": False}


def test_undo_from_the_desk_takes_back_the_approval_given_with_the_hand(tmp_path: Path) -> None:
    db = Database(tmp_path / "club.sqlite3", backups_dir=tmp_path / "b")
    try:
        ev, _ids = make_event(db, ruleset="tavla", fmt="swiss", players=2, rounds=2, match_lengths=[1, 1])
        rounds.propose_round(db, DESK, ev)
        rounds.publish_round(db, DESK, ev)
        ref = table_page.table_for_token(db, round_tokens(db, ev, 1)[1])
        assert ref is not None
        shown = posts.table_status(db, ev, 1)[1].version  # the version the phone's page showed
        code = night.side_codes(db, ev, 1)[1][0]  # side 0's phone holds its code (G13)
        done = posts.post_entry(
            db, ref, GAME, client_id="p1", version=shown, side=0, address="127.0.0.1", code=code
        )
        assert not done.duplicate
        table = reads.get_round(db, ev, 1).tables[0]
        assert table.status == "pending" and table.scorer  # the finishing hand approved for side 0
        assert posts.table_status(db, ev, 1)[1].approved_how == ("phone", "")  # on its own phone (G13)
        results.undo_last_entry(db, DESK, ev, 1, 1)
        table = reads.get_round(db, ev, 1).tables[0]
        assert table.status == "waiting" and table.score == (0, 0)
        assert (table.scorer, table.counter) == ("", "")  # the approval went with the undone hand
        assert posts.table_status(db, ev, 1)[1].state == "not_started"
        # the same result entered again and approved at the desk is "at the desk", not the phone's
        results.add_entry(db, DESK, ev, 1, 1, GAME)
        results.confirm(db, DESK, ev, 1, 1, 0, "E1")
        assert posts.table_status(db, ev, 1)[1].approved_how == ("desk", "")
    finally:
        db.close()
