"""Terminal output (rich): the only package that imports rich."""
