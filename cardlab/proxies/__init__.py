"""Stage 5: deck or query -> page layout -> card faces -> PDF."""
