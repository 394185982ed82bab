"""The registration desk through its services: capacity and waiting list (T2c), fees (T2b, T2e, BC4),
refunds (T2d), check-in (T3a), the cash box, and every refusal leaving the database as it was."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from sqlalchemy import func, select

from clubdesk.models import AuditEntry, Entrant, OutboxMessage, Payment
from clubdesk.services.desk import arrivals, lists, records, registration
from clubdesk.services.events.events import EventData, create_event
from clubdesk.services.events.status import mark_drawn, set_current_round
from clubdesk.services.kernel.base import Actor, ServiceError
from clubdesk.services.members.edit import create_member
from clubdesk.services.members.records import MemberData
from clubdesk.services.money import fees

ACTOR = Actor("Sekreter")
T0 = datetime(2025, 3, 1, 10, 0)
PHONES = {
    "1001": "+90 532 123 45 67",
    "1002": "0533-765 43 21",
    "1003": "0090 534 000 11 22",
    "1004": "",
    "1005": "",
    "1006": "",
}
NAMES = {
    "1001": "Şükrü Işık",
    "1002": "Ayşe Yılmaz",
    "1003": "İlkay Doğan",
    "1004": "José Muñoz",
    "1005": "Budi Santoso",
    "1006": "Gülşen Ağa",
}


@pytest.fixture
def club(db):  # type: ignore[no-untyped-def]
    for number, name in NAMES.items():
        create_member(db, ACTOR, MemberData(name=name, number=number, phone=PHONES[number]))
    return db


def make_event(db, **kw):  # type: ignore[no-untyped-def]
    values = dict(name="Tavla Cup", ruleset="tavla", format="swiss", currency="EUR", fee=2500, capacity=2)
    values.update(kw)
    return create_event(db, ACTOR, EventData(**values))


def counts(db) -> tuple[int, int, int, int]:  # type: ignore[no-untyped-def]
    with db.session() as s:
        return (
            s.scalar(select(func.count(Entrant.id))) or 0,
            s.scalar(select(func.count(Payment.id))) or 0,
            s.scalar(select(func.count(OutboxMessage.id))) or 0,
            s.scalar(select(func.count(AuditEntry.id))) or 0,
        )


def refused(db, code: str, fn, *args, **kw) -> ServiceError:  # type: ignore[no-untyped-def]
    before = counts(db)
    with pytest.raises(ServiceError) as info:
        fn(*args, **kw)
    assert info.value.code == code, info.value.message
    assert counts(db) == before  # nothing written
    return info.value


# --------------------------------------------------------------------------- T2c capacity and waiting list


def test_full_event_puts_entries_on_the_waiting_list_in_order_and_says_so(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club)  # capacity 2
    a = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    b = registration.register(club, ACTOR, ev.id, "1002", now=T0)
    c = registration.register(club, ACTOR, ev.id, "1003", now=T0)
    d = registration.register(club, ACTOR, ev.id, "1004", now=T0)
    assert (a.status, b.status) == ("registered", "registered")
    assert (c.status, c.waitlist_position) == ("waitlisted", 1)
    assert (d.status, d.waitlist_position) == ("waitlisted", 2)
    assert "waiting list" in c.message and "position 1" in c.message


def test_withdrawal_promotes_the_first_waiting_entrant_and_queues_a_notification(club) -> None:  # type: ignore[no-untyped-def]
    # rule T2c: a withdrawal promotes the next waiting player automatically, and he is notified
    ev = make_event(club)
    a = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    registration.register(club, ACTOR, ev.id, "1002", now=T0)
    c = registration.register(club, ACTOR, ev.id, "1003", now=T0)
    d = registration.register(club, ACTOR, ev.id, "1004", now=T0)
    out = registration.withdraw(club, ACTOR, ev.id, a.entrant, now=T0)
    assert out.promoted == c.entrant
    rows = {r.entrant: r for r in lists.entrants(club, ev.id)}
    assert rows[c.entrant].status == "registered"
    assert rows[d.entrant].waitlist_position == 1  # moved up from 2 to 1
    assert rows[a.entrant].status == "withdrawn"  # kept, never deleted
    msgs = lists.outbox(club, event_id=ev.id)
    assert [(m.kind, m.member_number, m.entrant_id) for m in msgs] == [("promoted", "1003", c.entrant)]
    assert c.code in msgs[0].text


def test_promote_by_hand_needs_a_free_place(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club)
    registration.register(club, ACTOR, ev.id, "1001", now=T0)
    registration.register(club, ACTOR, ev.id, "1002", now=T0)
    c = registration.register(club, ACTOR, ev.id, "1003", now=T0)
    refused(club, "event-full", registration.promote, club, ACTOR, ev.id, c.entrant)


# --------------------------------------------------------------------------- T2b payments, early price


def test_early_price_follows_the_payment_date(club) -> None:  # type: ignore[no-untyped-def]
    # rule T2b: fee 25.00, early 20.00 for payments made by 2025-03-10
    ev = make_event(club, capacity=None, early_fee=2000, early_until=date(2025, 3, 10))
    early = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    late = registration.register(club, ACTOR, ev.id, "1002", now=T0)
    fees.pay(club, ACTOR, ev.id, early.entrant, 2000, "transfer", paid_at=datetime(2025, 3, 10, 23, 0))
    fees.pay(club, ACTOR, ev.id, late.entrant, 2000, "cash", paid_at=datetime(2025, 3, 11, 9, 0))
    rows = {r.entrant: r for r in lists.entrants(club, ev.id)}
    assert (rows[early.entrant].price, rows[early.entrant].owed) == (2000, 0)  # paid on the last early day
    assert (rows[late.entrant].price, rows[late.entrant].owed) == (2500, 500)  # a day late: 25.00 - 20.00
    # paying 25.00 on the early date would be 5.00 more than the 20.00 then owed
    third = registration.register(club, ACTOR, ev.id, "1003", now=T0)
    refused(club, "overpayment", fees.pay, club, ACTOR, ev.id, third.entrant, 2500, "cash", paid_at=T0)


def test_fee_per_person_for_a_pair(club) -> None:  # type: ignore[no-untyped-def]
    # rule BC4: Rp 5,000 per person -> a pair owes Rp 10,000 (IDR has no minor unit)
    ev = make_event(
        club,
        ruleset="gaple-club",
        format="single-elimination",
        entry_type="pair",
        currency="IDR",
        fee=5000,
        fee_per="person",
        capacity=None,
    )
    reg = registration.register(club, ACTOR, ev.id, "1001", partner="1002", now=T0)
    assert reg.fee == 10000
    assert reg.name == "Şükrü Işık / Ayşe Yılmaz"


def test_side_event_free_for_main_entrants(club) -> None:  # type: ignore[no-untyped-def]
    # rule T2e: "Last Chance" free for main-event entrants, 10.00 for the others
    main = make_event(club, capacity=None)
    side = make_event(
        club, name="Last Chance", capacity=None, fee=1000, parent_event_id=main.id, side_fee_rule="free"
    )
    registration.register(club, ACTOR, main.id, "1001", now=T0)
    assert registration.register(club, ACTOR, side.id, "1001", now=T0).fee == 0
    assert registration.register(club, ACTOR, side.id, "1002", now=T0).fee == 1000


def test_side_event_discount(club) -> None:  # type: ignore[no-untyped-def]
    # rule T2e: 40 % off 10.00 = 6.00 for a main entrant
    main = make_event(club, capacity=None)
    side = make_event(
        club,
        name="Side",
        capacity=None,
        fee=1000,
        parent_event_id=main.id,
        side_fee_rule="discount",
        side_discount_percent=40,
    )
    registration.register(club, ACTOR, main.id, "1001", now=T0)
    assert registration.register(club, ACTOR, side.id, "1001", now=T0).fee == 600


def test_transfer_description_finds_the_entrant(club) -> None:  # type: ignore[no-untyped-def]
    # rule T2b: the check-in code in the transfer's description
    ev = make_event(club)
    reg = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    assert fees.find_by_reference(club, f"Entry fee {reg.code.lower()} Sukru") == (ev.id, reg.entrant)
    assert fees.find_by_reference(club, "entry fee for the cup") is None


# --------------------------------------------------------------------------- T2d refunds


def test_refund_before_close_follows_the_policy(club) -> None:  # type: ignore[no-untyped-def]
    # rule T2d: 80 % back before the close: 25.00 * 80 % = 20.00, as a linked negative payment, same method
    ev = make_event(club, refund_percent_before_close=80, registration_closes_at=datetime(2025, 3, 20, 18, 0))
    reg = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    pay = fees.pay(club, ACTOR, ev.id, reg.entrant, 2500, "card", paid_at=T0)
    out = registration.withdraw(club, ACTOR, ev.id, reg.entrant, now=datetime(2025, 3, 5))
    assert out.refund == 2000
    assert [(r.amount, r.method, r.refund_of) for r in out.refunds] == [(-2000, "card", pay.id)]
    row = lists.entrant(club, ev.id, reg.entrant)
    assert row.paid == 500  # 25.00 paid - 20.00 back


def test_no_refund_after_close_by_default(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(
        club, refund_percent_before_close=100, registration_closes_at=datetime(2025, 3, 20, 18, 0)
    )
    reg = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    fees.pay(club, ACTOR, ev.id, reg.entrant, 2500, "cash", paid_at=T0)
    out = registration.withdraw(club, ACTOR, ev.id, reg.entrant, now=datetime(2025, 3, 20, 18, 1))
    assert out.refund == 0 and out.refunds == ()


def test_no_refund_after_the_draw_and_no_promotion(club) -> None:  # type: ignore[no-untyped-def]
    # rule T2d: nothing after the draw
    ev = make_event(club)
    reg = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    registration.register(club, ACTOR, ev.id, "1002", now=T0)
    registration.register(club, ACTOR, ev.id, "1003", now=T0)
    fees.pay(club, ACTOR, ev.id, reg.entrant, 2500, "cash", paid_at=T0)
    mark_drawn(club, ACTOR, ev.id)
    out = registration.withdraw(club, ACTOR, ev.id, reg.entrant, now=T0)
    assert (out.refund, out.promoted) == (0, None)


def test_manual_refund_never_above_what_was_paid(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club)
    reg = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    fees.pay(club, ACTOR, ev.id, reg.entrant, 1000, "cash", paid_at=T0)
    refused(club, "refund-too-large", fees.refund, club, ACTOR, ev.id, reg.entrant, 1001)
    assert [p.amount for p in fees.refund(club, ACTOR, ev.id, reg.entrant, 1000, now=T0)] == [-1000]


# --------------------------------------------------------------------------- pairs


def test_pair_partner_withdrawal_needs_a_named_substitute(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club, ruleset="gaple-club", format="swiss", entry_type="pair", capacity=None)
    reg = registration.register(club, ACTOR, ev.id, "1001", partner="1002", now=T0)
    refused(
        club, "substitute-required", registration.withdraw, club, ACTOR, ev.id, reg.entrant, member="1002"
    )
    out = registration.withdraw(club, ACTOR, ev.id, reg.entrant, member="1002", substitute="1004", now=T0)
    assert out.refund == 0
    row = lists.entrant(club, ev.id, reg.entrant)
    assert (row.status, row.members, row.name) == ("registered", ("1001", "1004"), "Şükrü Işık / José Muñoz")
    # 1002 left this entry and may enter again
    assert registration.register(club, ACTOR, ev.id, "1002", partner="1003", now=T0).status == "registered"


# --------------------------------------------------------------------------- T3a check-in


def test_checkin_by_code_qr_number_and_phone_spellings(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club, capacity=None)
    r1 = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    r2 = registration.register(club, ACTOR, ev.id, "1002", now=T0)
    r3 = registration.register(club, ACTOR, ev.id, "1003", now=T0)
    r4 = registration.register(club, ACTOR, ev.id, "1004", now=T0)
    code = r1.code
    assert (
        arrivals.checkin(club, ACTOR, ev.id, f"{code[:3].lower()}-{code[3:].lower()}").entrant == r1.entrant
    )
    assert arrivals.checkin(club, ACTOR, ev.id, f"CLUBDESK:CHECKIN:{ev.id}:{r4.code}").entrant == r4.entrant
    # registered "0533-765 43 21": typed with the country code and spaces
    assert arrivals.checkin(club, ACTOR, ev.id, "+90 533 765 4321").entrant == r2.entrant
    # registered "0090 534 000 11 22": typed without trunk 0 and country code
    assert arrivals.checkin(club, ACTOR, ev.id, "534-000-1122").entrant == r3.entrant


def test_checkin_by_member_number_and_leading_zero_phone(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club, capacity=None)
    r1 = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    r4 = registration.register(club, ACTOR, ev.id, "1004", now=T0)
    assert arrivals.checkin(club, ACTOR, ev.id, "1004").entrant == r4.entrant
    # registered "+90 532 123 45 67": typed the national way
    assert arrivals.checkin(club, ACTOR, ev.id, "0532 123 45 67").entrant == r1.entrant


def test_checkin_by_name_ignores_case_and_accents(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club, capacity=None)
    r1 = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    r2 = registration.register(club, ACTOR, ev.id, "1002", now=T0)
    done = arrivals.checkin(club, ACTOR, ev.id, "ayse yilmaz")
    assert (done.entrant, done.name) == (r2.entrant, "Ayşe Yılmaz")
    assert arrivals.checkin(club, ACTOR, ev.id, "SUKRU").entrant == r1.entrant  # one word, upper case
    err = refused(club, "checkin-unknown", arrivals.checkin, club, ACTOR, ev.id, "Gülşen")
    assert "name" in err.message


def test_checkin_by_a_name_several_entrants_answer_to_is_refused_naming_them(club) -> None:  # type: ignore[no-untyped-def]
    create_member(club, ACTOR, MemberData(name="Mehmet Kaya", number="2001"))
    create_member(club, ACTOR, MemberData(name="Mehmet Öz", number="2002"))
    ev = make_event(club, capacity=None)
    kaya = registration.register(club, ACTOR, ev.id, "2001", now=T0)
    oz = registration.register(club, ACTOR, ev.id, "2002", now=T0)
    err = refused(club, "checkin-ambiguous", arrivals.checkin, club, ACTOR, ev.id, "mehmet")
    assert "Mehmet Kaya" in err.message and "Mehmet Öz" in err.message
    assert [(c.label, c.key) for c in err.params["choices"]] == [
        (f"Mehmet Kaya — {kaya.code}", kaya.code),
        (f"Mehmet Öz — {oz.code}", oz.code),
    ]
    # more of the name, or the chosen code, checks one in
    assert arrivals.checkin(club, ACTOR, ev.id, "mehmet oz").entrant == oz.entrant
    assert arrivals.checkin(club, ACTOR, ev.id, err.params["choices"][0].key).entrant == kaya.entrant


def test_checkin_by_a_partner_name_and_a_whole_name_first(club) -> None:  # type: ignore[no-untyped-def]
    create_member(club, ACTOR, MemberData(name="Ali", number="2001"))
    create_member(club, ACTOR, MemberData(name="Ali Veli", number="2002"))
    ev = make_event(club, ruleset="gaple-club", format="swiss", entry_type="pair", capacity=None)
    pair = registration.register(club, ACTOR, ev.id, "1001", partner="1004", now=T0)
    solo = registration.register(club, ACTOR, ev.id, "2001", partner="2002", now=T0)
    assert arrivals.checkin(club, ACTOR, ev.id, "jose munoz").entrant == pair.entrant  # the partner's name
    assert arrivals.checkin(club, ACTOR, ev.id, "ali").entrant == solo.entrant  # "Ali" whole, not "Ali Veli"


def test_phone_matching_rules() -> None:
    assert records.phones_match("+90 532 123 45 67", "0532-123-4567")
    assert records.phones_match("00905321234567", "5321234567")
    assert not records.phones_match("+90 532 123 45 67", "0532 123 45 68")
    assert not records.phones_match("4567", "4567")  # too short to be a phone


def test_checkin_refusals(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club, capacity=None)
    other = make_event(club, name="Other", capacity=None)
    r1 = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    r2 = registration.register(club, ACTOR, other.id, "1002", now=T0)
    refused(club, "checkin-unknown", arrivals.checkin, club, ACTOR, ev.id, "ZZZZZZ")
    refused(club, "checkin-unknown", arrivals.checkin, club, ACTOR, ev.id, "1005")  # a member, not entered
    refused(
        club, "wrong-event", arrivals.checkin, club, ACTOR, ev.id, f"CLUBDESK:CHECKIN:{other.id}:{r2.code}"
    )
    refused(club, "wrong-event", arrivals.checkin, club, ACTOR, ev.id, r2.code)
    arrivals.checkin(club, ACTOR, ev.id, r1.code, now=T0)
    err = refused(club, "checkin-repeated", arrivals.checkin, club, ACTOR, ev.id, r1.code)
    assert "10:00" in err.message


def test_no_show_place_goes_to_first_waiting_entrant_present(club) -> None:  # type: ignore[no-untyped-def]
    # rule T3a: no check-in, no draw; a waiting player present takes the place
    start = datetime(2025, 3, 1, 19, 0)
    ev = make_event(club, start_at=start, arrival_deadline_minutes=15)
    a = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    b = registration.register(club, ACTOR, ev.id, "1002", now=T0)
    w1 = registration.register(club, ACTOR, ev.id, "1003", now=T0)
    w2 = registration.register(club, ACTOR, ev.id, "1004", now=T0)
    fees.pay(club, ACTOR, ev.id, b.entrant, 2500, "cash", paid_at=T0)
    arrivals.checkin(club, ACTOR, ev.id, a.code, now=datetime(2025, 3, 1, 18, 30))
    arrivals.checkin(club, ACTOR, ev.id, w2.code, now=datetime(2025, 3, 1, 18, 31))  # 2nd waiting, present
    # deadline = 19:00 - 15 min = 18:45
    refused(
        club,
        "before-deadline",
        arrivals.give_no_show_places,
        club,
        ACTOR,
        ev.id,
        now=datetime(2025, 3, 1, 18, 44),
    )
    swaps = arrivals.give_no_show_places(club, ACTOR, ev.id, now=datetime(2025, 3, 1, 18, 46))
    assert [(x.no_show, x.promoted) for x in swaps] == [(b.entrant, w2.entrant)]  # w1 is not here
    rows = {r.entrant: r for r in lists.entrants(club, ev.id)}
    assert rows[b.entrant].status == "no_show"
    assert rows[b.entrant].paid == 2500  # rule T2d: no refund for a no-show
    assert rows[w1.entrant].waitlist_position == 1
    assert [r.entrant for r in arrivals.draw_list(club, ev.id)] == [a.entrant, w2.entrant]
    refused(club, "checkin-place-given", arrivals.checkin, club, ACTOR, ev.id, b.code)


def test_after_the_draw_elimination_refuses_a_latecomer(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club, format="single-elimination", capacity=None)
    reg = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    mark_drawn(club, ACTOR, ev.id)
    refused(club, "checkin-after-draw", arrivals.checkin, club, ACTOR, ev.id, reg.code)


def test_after_the_draw_swiss_latecomer_joins_from_the_next_round(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club, format="swiss", capacity=None)
    reg = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    mark_drawn(club, ACTOR, ev.id)
    set_current_round(club, ACTOR, ev.id, 2)  # rounds 1 and 2 published
    c = arrivals.checkin(club, ACTOR, ev.id, reg.code)
    assert c.joins_from_round == 3
    assert lists.entrant(club, ev.id, reg.entrant).joins_from_round == 3


# --------------------------------------------------------------------------- refusals


def test_registration_refusals_write_nothing(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club, registration_closes_at=datetime(2025, 3, 20, 18, 0))
    registration.register(club, ACTOR, ev.id, "1001", now=T0)
    refused(club, "already-registered", registration.register, club, ACTOR, ev.id, "1001", now=T0)
    refused(club, "no-member", registration.register, club, ACTOR, ev.id, "9999", now=T0)
    refused(
        club,
        "registration-closed",
        registration.register,
        club,
        ACTOR,
        ev.id,
        "1002",
        now=datetime(2025, 3, 20, 18, 1),
    )
    refused(club, "no-event", registration.register, club, ACTOR, 999, "1002", now=T0)


def test_payment_refusals_write_nothing(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club)
    reg = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    refused(club, "bad-amount", fees.pay, club, ACTOR, ev.id, reg.entrant, -500, "cash")
    refused(club, "bad-amount", fees.pay, club, ACTOR, ev.id, reg.entrant, 0, "cash")
    refused(club, "overpayment", fees.pay, club, ACTOR, ev.id, reg.entrant, 10**9, "cash")
    refused(club, "bad-method", fees.pay, club, ACTOR, ev.id, reg.entrant, 100, "bitcoin")
    refused(club, "no-entrant", fees.pay, club, ACTOR, ev.id, 999, 100, "cash")


# --------------------------------------------------------------------------- cash box


def test_cash_box_of_the_night_adds_up_per_method(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club, capacity=None, refund_percent_before_close=100)
    night = datetime(2025, 3, 1, 18, 0)
    r1 = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    r2 = registration.register(club, ACTOR, ev.id, "1002", now=T0)
    r3 = registration.register(club, ACTOR, ev.id, "1003", now=T0)
    fees.pay(club, ACTOR, ev.id, r1.entrant, 2500, "cash", paid_at=night)
    fees.pay(club, ACTOR, ev.id, r2.entrant, 1000, "cash", paid_at=night)
    fees.pay(club, ACTOR, ev.id, r2.entrant, 1500, "card", paid_at=night)
    fees.pay(
        club, ACTOR, ev.id, r3.entrant, 2500, "transfer", paid_at=datetime(2025, 2, 27, 9, 0)
    )  # not tonight
    registration.withdraw(club, ACTOR, ev.id, r1.entrant, now=datetime(2025, 3, 1, 18, 30))  # 25.00 cash back
    box = fees.cash_box(club, date(2025, 3, 1), event_id=ev.id)
    lines = {line.method: (line.received, line.refunded, line.count) for line in box.lines}
    # cash: in 25.00 + 10.00 = 35.00, out 25.00; card: in 15.00
    assert lines == {"cash": (3500, 2500, 3), "card": (1500, 0, 1)}
    assert box.total("EUR") == 3500 - 2500 + 1500  # 25.00


def test_every_change_is_audited(club) -> None:  # type: ignore[no-untyped-def]
    ev = make_event(club)
    reg = registration.register(club, ACTOR, ev.id, "1001", now=T0)
    fees.pay(club, ACTOR, ev.id, reg.entrant, 2500, "cash", paid_at=T0)
    arrivals.checkin(club, ACTOR, ev.id, reg.code)
    with club.session() as s:
        actions = [a for a in s.scalars(select(AuditEntry.action).where(AuditEntry.event_id == ev.id))]
    assert actions == ["event.create", "entrant.register", "payment.record", "entrant.checkin"]
