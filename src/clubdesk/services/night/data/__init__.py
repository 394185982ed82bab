"""The night's stored data: reads, rows, settings, tokens, prize plans."""
