"""Standings and ratings built from the night's data."""
