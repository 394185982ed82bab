"""A federation's signed event files (pure: no database, no Qt, no services).

``eventfile``: the canonical, versioned file of one finished event and its Ed25519 signature;
``replay``: the file's own consistency (its tables replay to their scores and its results to its placings
with the ruleset it names, on the same engines the club desk ranks with); ``diff``: what a corrected
export changed (tables and places moved).
"""
