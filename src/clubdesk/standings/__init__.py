from clubdesk.standings.places import Place, elimination_places  # noqa: F401
from clubdesk.standings.prizes import (  # noqa: F401
    Award,
    Category,
    CategoryPrize,
    Item,
    PlacePrize,
    PrizeKind,
    PrizeList,
    PrizePlan,
    award_prizes,
)
from clubdesk.standings.ratings import (  # noqa: F401
    KRule,
    RatedMatch,
    RatingBook,
    RatingChange,
    RatingState,
    fibs_update,
    k_factor,
    rate_matches,
    rating_history,
)
from clubdesk.standings.records import (  # noqa: F401
    CHESS_SCHEME,
    EventData,
    Format,
    Kind,
    MatchKind,
    MatchResult,
    PointsScheme,
    RoundRecord,
    event_from_matches,
)
from clubdesk.standings.season import (  # noqa: F401
    LivesBand,
    LivesTable,
    Placing,
    SeasonEvent,
    SeasonRow,
    SeasonScale,
    SeasonTiebreak,
    Tier,
    season_standings,
    starting_lives,
    super_final_invitations,
)
from clubdesk.standings.table import (  # noqa: F401
    DEFAULT_TIEBREAKS,
    ELIMINATION_PRESETS,
    StandingRow,
    Standings,
    TieExplanation,
    standings,
    tiebreak_values,
)
from clubdesk.standings.tiebreaks import TIEBREAK_CODES, Rules, TiebreakCalculator, Unplayed  # noqa: F401
from clubdesk.standings.trf import (  # noqa: F401
    TrfError,
    TrfTournament,
    event_from_trf,
    export_trf,
    parse_trf,
    read_trf,
    tiebreaks_for_trf,
    trf_from_event,
)
