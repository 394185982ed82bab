"""Thin Qt table models over plain dataclasses (column constants, custom roles), testable without a window."""
