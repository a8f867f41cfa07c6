"""Stage 1: catalog files -> per-file checks -> rules across files -> Catalog and Formats."""
