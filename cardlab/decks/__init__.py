"""Stage 3: deck file -> parse -> resolve against the catalog -> rules -> report; statistics and exact odds."""
