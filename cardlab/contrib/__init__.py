"""Adding cards: what each set has recorded, and new card files from a skeleton."""
