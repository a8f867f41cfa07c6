"""Output for people: terminal tables and panels (rich; the only package that imports it), plain and
machine output without rich (``plain``: piped hits, CSV, JSON), forum posts of a mini-game (``forum``)."""
