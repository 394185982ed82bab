"""ClubDesk's use cases, by domain (docs/architecture.md: the package order)."""
