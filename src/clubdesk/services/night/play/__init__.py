"""Playing a night: rounds, results, forfeits and what follows a change."""
