"""Stage 2: Catalog -> SQLite index -> query language -> hits and single cards."""
