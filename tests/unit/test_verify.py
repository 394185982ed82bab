"""verify_pairing: the independent checker (CONTRACTS.md §2; T4b, T4e, T4g)."""

from __future__ import annotations

from clubdesk.pairing import Entrant
from clubdesk.pairing.verify import verify_pairing


def E(id: str, **kw: object) -> Entrant:  # noqa: N802 - short factory for readable tests
    return Entrant(id, **kw)  # type: ignore[arg-type]


FOUR = [E("a"), E("b"), E("c"), E("d")]


def test_valid_pairing_has_no_problems() -> None:
    assert verify_pairing(FOUR, [("a", "b"), ("c", "d")]) == []


def test_valid_with_one_bye() -> None:
    assert verify_pairing(FOUR[:3], [("a", "b"), ("c", None)]) == []


def test_rematch_is_reported_from_either_side() -> None:
    # rule T4e: no two players meet twice; history recorded only on one side is still a rematch
    ents = [E("a", opponents=frozenset({"b"})), E("b"), E("c"), E("d")]
    probs = verify_pairing(ents, [("b", "a"), ("c", "d")])
    assert len(probs) == 1 and "rematch" in probs[0] and "a" in probs[0] and "b" in probs[0]


def test_second_bye_reported() -> None:
    ents = [E("a"), E("b"), E("c", byes=1)]
    probs = verify_pairing(ents, [("a", "b"), ("c", None)])
    assert len(probs) == 1 and "second bye" in probs[0]


def test_paired_twice_and_left_out() -> None:
    probs = verify_pairing(FOUR, [("a", "b"), ("a", "c")])
    assert any("a is paired 2 times" in p for p in probs)
    assert any("d is left out" in p for p in probs)
    assert len(probs) == 2


def test_unknown_id_and_self_pair() -> None:
    probs = verify_pairing(FOUR, [("a", "zz"), ("b", "b"), ("c", "d")])
    assert any("zz is not an entrant" in p for p in probs)
    assert any("b is paired with himself" in p for p in probs)
    # zz unknown, b with himself, b twice, a left... a is seen; nobody is left out
    assert not any("left out" in p for p in probs)


def test_more_than_one_bye() -> None:
    probs = verify_pairing(FOUR, [("a", None), ("b", None), ("c", "d")])
    assert len(probs) == 1 and "2 byes" in probs[0]


def test_club_protection_breach_only_when_asked() -> None:
    # rule T4b: same-club players avoid each other in round 1
    ents = [E("a", club="X"), E("b", club="X"), E("c", club="Y"), E("d")]
    pairs = [("a", "b"), ("c", "d")]
    assert verify_pairing(ents, pairs) == []
    probs = verify_pairing(ents, pairs, club_protection=True)
    assert len(probs) == 1 and "club X" in probs[0]
    # no club on either side is never a breach
    assert verify_pairing([E("c"), E("d")], [("c", "d")], club_protection=True) == []


def test_eliminated_entrant_must_not_be_paired_nor_is_missed() -> None:
    # rule T4g: no lives left = out
    ents = [E("a", lives=1), E("b", lives=2), E("c", lives=0)]
    assert verify_pairing(ents, [("a", "b")]) == []
    probs = verify_pairing(ents, [("a", "c"), ("b", None)])
    assert len(probs) == 1 and "no lives left" in probs[0]


def test_every_problem_listed_at_once() -> None:
    ents = [
        E("a", opponents=frozenset({"b"}), club="X"),
        E("b", club="X"),
        E("c", byes=1),
        E("d", byes=1),
        E("e"),
    ]
    probs = verify_pairing(ents, [("a", "b"), ("c", None), ("d", None)], club_protection=True)
    # rematch a-b, club a-b, second bye c, second bye d, two byes, e left out = 6
    assert len(probs) == 6


def test_messages_are_translatable() -> None:
    from clubdesk.i18n import set_language

    set_language("xx")
    try:
        probs = verify_pairing(FOUR, [("a", "b")])
        assert probs and all(p.startswith("⟦") for p in probs)
    finally:
        set_language("en")
