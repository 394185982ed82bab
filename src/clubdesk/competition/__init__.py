"""Competition rules as plain values (no database, no Qt), like the game engines.

* :mod:`clubdesk.competition.formats`: a night's format mapped onto the pairing and standings engines, a
  table's entries onto a match outcome, play-offs (BC2), points (BC1, T4f);
* :mod:`clubdesk.competition.seating`: seat draws at a domino table (E7, E7b);
* :mod:`clubdesk.competition.table_call`: the default table call and the forfeit warning (T3b, G15);
* :mod:`clubdesk.competition.discipline`: the incident catalog, penalty kinds, the E19 counter, the appeal
  window;
* :mod:`clubdesk.competition.errors`: :class:`CompetitionError`, which the services translate into theirs.
"""
