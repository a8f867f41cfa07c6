"""Adding cards: what each set has recorded, new card files from a game's skeleton (``new_card``),
and a CSV card list as card files (``import_csv``)."""
