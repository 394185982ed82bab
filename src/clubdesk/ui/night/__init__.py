"""The Rounds screen of a competition night: the round's tables (``rounds_section``), one table's entry,
approvals and decisions (``table_panel``, ``table_decisions``), its dialogs, and the table look-up by number,
sheet QR or phone address (``table_query``)."""
