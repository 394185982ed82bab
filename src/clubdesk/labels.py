"""Words shown for the stored keys of events, entrants and appeals (formats, entry types, statuses) and for
the ruleset presets, translated when shown.

The database keeps the English keys (``"swiss"``, ``"no_show"``); screens, CLI tables and reports show
:func:`format_label`, :func:`status_label` … in the language in force. Ruleset names and descriptions live in
the preset TOML files (``resources/rulesets/*.toml``); Babel extracts them with
:func:`clubdesk.i18n_tools.extract_toml`, so :func:`ruleset_label` only translates the file's text.

Imports neither Qt nor SQLAlchemy.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from clubdesk.i18n import N_, _, current_language

FORMAT_LABELS: dict[str, str] = {
    "round-robin": N_("round robin"),
    "double-round-robin": N_("double round robin"),
    "open-round-robin": N_("open league"),
    "swiss": N_("Swiss system"),
    "lives": N_("lives"),
    "single-elimination": N_("single elimination"),
    "double-elimination": N_("double elimination"),
}
# The season's event classes of rule T12d (standings.season.Tier); a club's own class is shown as typed
CLASS_LABELS: dict[str, str] = {
    "local": N_("local"),
    "regional": N_("regional"),
    "national": N_("national"),
    "major": N_("major"),
}
ENTRY_TYPE_LABELS: dict[str, str] = {
    "single": N_("single players"),
    "pair": N_("pairs"),
    "team": N_("teams"),
}
EVENT_STATUS_LABELS: dict[str, str] = {
    "draft": N_("draft"),
    "open": N_("open for entries"),
    "closed": N_("entries closed"),
    "drawn": N_("drawn"),
    "running": N_("running"),
    "finished": N_("finished"),
}
ENTRANT_STATUS_LABELS: dict[str, str] = {
    "registered": N_("Registered"),
    "waitlisted": N_("Waiting list"),
    "withdrawn": N_("Withdrawn"),
    "no_show": N_("No-show"),
    "disqualified": N_("Disqualified"),
}
TABLE_STATUS_LABELS: dict[str, str] = {  # the same words as the Rounds screen (ui.models.tables_model)
    "waiting": N_("waiting"),
    "in_play": N_("in play"),
    "pending": N_("awaiting confirmation"),
    "confirmed": N_("confirmed"),
    "disputed": N_("disputed"),
    "postponed": N_("postponed"),
    "bye": N_("bye"),
}
ROUND_STATUS_LABELS: dict[str, str] = {
    "proposed": N_("proposed"),
    "published": N_("published"),
    "in_play": N_("in play"),
    "closed": N_("closed"),
}
PAYMENT_METHOD_LABELS: dict[str, str] = {
    "cash": N_("cash"),
    "card": N_("card"),
    "transfer": N_("bank transfer"),
    "pos": N_("card terminal"),
}
APPEAL_STATUS_LABELS: dict[str, str] = {
    "open": N_("appeal open"),
    "upheld": N_("upheld"),
    "rejected": N_("rejected"),
}


# The roles a person acts in (services.kernel.base.Role's values; the audit log stores the key).
ROLE_LABELS: dict[str, str] = {
    "secretary": N_("Secretary"),
    "referee": N_("Referee"),
    "scorer": N_("Scorer"),
    # TRANSLATORS: the audit log's role of a result entered on a player's phone at the table
    "table": N_("Table phone"),
}

# The audit log's actions (services pass the key to base.audit); the audit view shows the label.
AUDIT_ACTION_LABELS: dict[str, str] = {
    "appeal.file": N_("appeal filed"),
    "appeal.hear": N_("appeal heard"),
    "appeal.decide": N_("appeal decided"),
    "club.create": N_("club created"),
    "club.change": N_("club changed"),
    "event.create": N_("event created"),
    "event.update": N_("event changed"),
    "event.status": N_("event status changed"),
    "event.round": N_("round settings changed"),
    "entrant.register": N_("entry registered"),
    "entrant.withdraw": N_("entry withdrawn"),
    "entrant.promote": N_("moved up from the waiting list"),
    "entrant.checkin": N_("checked in"),
    "entrant.no_show": N_("marked as no-show"),
    "entrant.substitute": N_("substitute entered"),
    "incident.add": N_("incident recorded"),
    "incident.decide": N_("incident decided"),
    "incident-kind.add": N_("incident kind added"),
    "member.create": N_("member added"),
    "member.change": N_("member changed"),
    "member.activate": N_("member reactivated"),
    "member.deactivate": N_("member deactivated"),
    "member.import": N_("members imported"),
    "member.export": N_("members exported"),
    "member.merge": N_("members merged"),
    "member.erase": N_("member erased"),  # his name and contacts gone, his results kept
    "member.clear-contacts": N_("contact data cleared"),  # a member long inactive
    "outbox.sent": N_("notification sent"),
    "payment.record": N_("payment recorded"),
    "payment.refund": N_("refund recorded"),
    "penalty.add": N_("penalty imposed"),
    "settings.change": N_("setting changed"),
    "configure": N_("night configured"),
    "propose": N_("pairing proposed"),
    "publish": N_("round published"),
    "discard": N_("proposal discarded"),
    "set-tables": N_("table order set"),
    "request-bye": N_("bye requested"),
    "cancel-bye": N_("bye cancelled"),
    "withdraw-from-play": N_("withdrawn from play"),
    "disqualify": N_("disqualified"),
    "league-deadline": N_("league deadline applied"),
    "add-entry": N_("hand or game entered"),
    "override-entry": N_("entry overridden by the referee"),
    "undo-entry": N_("entry undone"),
    "sheet": N_("score sheet saved"),
    "score": N_("final score entered"),
    "correct": N_("result corrected"),
    "override": N_("result overridden by the referee"),
    "confirm": N_("result approved"),
    "referee-approve": N_("approved by the referee"),
    "referee-dispute": N_("disputed by the referee"),
    "forfeit": N_("forfeit"),
    "excuse": N_("absence excused"),
    "substitute": N_("player substituted"),
    "postpone": N_("match postponed"),
    "referee-call": N_("referee called from the table"),  # a phone's "Call the referee"
    "referee-call-handled": N_("referee call answered"),
    "audit.keyed": N_("audit log signed with the club's key from here on"),
    "audit.key-export": N_("the club's audit key written to a file (to move it to another PC)"),
    "audit.key-import": N_("the club's audit key taken in from a file on this PC"),
}


def audit_action_label(key: str) -> str:
    """The audit log's action in words; an action without a label is shown as stored."""
    return _label(AUDIT_ACTION_LABELS, key)


ENTITY_LABELS: dict[str, str] = {  # what an audit row is about
    "member": N_("member"),
    "club": N_("club"),
    "event": N_("event"),
    "entrant": N_("entrant"),
    "payment": N_("payment"),
    "outbox": N_("notification"),
    "round": N_("round"),
    "match": N_("table"),
    "table": N_("table"),  # a table's referee call
    "event_night": N_("night settings"),
    "setting": N_("setting"),
    "incident": N_("incident"),
    "incident_kind": N_("incident kind"),
    "penalty": N_("penalty"),
    "appeal": N_("appeal"),
    "audit": N_("audit log"),
}


def round_status_label(key: str) -> str:
    return _label(ROUND_STATUS_LABELS, key)


def payment_method_label(key: str) -> str:
    return _label(PAYMENT_METHOD_LABELS, key)


def entity_label(key: str) -> str:
    return _label(ENTITY_LABELS, key)


def role_label(key: str) -> str:
    """secretary → "Secretary" (the acting person's role)."""
    return _label(ROLE_LABELS, key)


def status_label(key: str) -> str:
    """A status of an entrant, an event, an appeal or a table, whichever has that key."""
    for table in (ENTRANT_STATUS_LABELS, EVENT_STATUS_LABELS, APPEAL_STATUS_LABELS, TABLE_STATUS_LABELS):
        if key in table:
            return _(table[key])
    return key


def _label(table: dict[str, str], key: str) -> str:
    text = table.get(key)
    return _(text) if text is not None else key


def format_label(key: str) -> str:
    return _label(FORMAT_LABELS, key)


def class_label(key: str) -> str:
    """A season class (T12d) in the language in force; a class of the club's own as it was typed."""
    return _label(CLASS_LABELS, key)


def entry_type_label(key: str) -> str:
    return _label(ENTRY_TYPE_LABELS, key)


def event_status_label(key: str) -> str:
    return _label(EVENT_STATUS_LABELS, key)


def entrant_status_label(key: str) -> str:
    return _label(ENTRANT_STATUS_LABELS, key)


def appeal_status_label(key: str) -> str:
    return _label(APPEAL_STATUS_LABELS, key)


_NUMBER = re.compile(r"^([+−-]?)(\d+)(?:\.(\d+))?$")
_BABEL_LOCALES = {"en": "en_GB", "id": "id_ID", "es": "es_ES", "tr": "tr_TR"}


def localized_number(text: str, lang: str | None = None) -> str:
    """A figure the engines wrote ("9.5", "-11", "+5") in the language's digits through Babel ("9,5" in id, es
    and tr); any other text is returned as it is. Signs and the number of decimals are kept."""
    from babel.numbers import format_decimal

    m = _NUMBER.match(text.strip())
    if m is None:
        return text
    sign, whole, frac = m.groups()
    lang = lang or current_language()
    if lang not in _BABEL_LOCALES or lang == "en":
        return text  # English keeps the engines' own figures
    pattern = "#,##0." + "0" * len(frac) if frac else "#,##0"
    value = Decimal(f"{whole}.{frac}" if frac else whole)
    return sign + str(format_decimal(value, format=pattern, locale=_BABEL_LOCALES[lang]))


@lru_cache(maxsize=32)
def _preset_texts(ruleset_id: str) -> tuple[str, str]:
    from clubdesk.games import load_ruleset

    try:
        rs = load_ruleset(ruleset_id)
    except Exception:  # an unknown id is shown as it is
        return ruleset_id, ""
    return rs.name or ruleset_id, rs.description or ""


# Presets whose file names them in the game's home language ("Tavla — turnuva"): the screens show their
# name in the UI language, English included, from these words (the file's name stays for what it prints)
RULESET_NAMES: dict[str, str] = {
    "tavla": N_("Tavla — tournament"),
    "domino-es": N_("Dominoes — Spanish federation"),
}


def ruleset_label(ruleset_id: str) -> str:
    """The preset's name in the language in force (``tavla`` → "Tavla — tournament", "Tavla — turnuva" in
    Turkish): its English name here, else its TOML file's name, translated."""
    if ruleset_id in RULESET_NAMES:
        return _(RULESET_NAMES[ruleset_id])
    name = _preset_texts(ruleset_id)[0]
    return _(name) if name != ruleset_id else ruleset_id


def ruleset_description(ruleset_id: str) -> str:
    text = _preset_texts(ruleset_id)[1]
    return _(text) if text else ""
