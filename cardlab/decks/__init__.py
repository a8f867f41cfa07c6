"""Stage 3: deck file -> parse -> resolve against the catalog -> rules -> report; statistics (the
figures and exact odds come from the deck's game: ``games.get(game).deck_figures``)."""
