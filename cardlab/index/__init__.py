"""Stage 1b: the validated catalog stored as a search index (SQLite or PostgreSQL): build, freshness, open."""
