from clubdesk.standings.ratings import KRule, RatedMatch, RatingBook, fibs_update, k_factor, rate_matches  # noqa: F401
