"""Leaf layer: errors and exit statuses, text folding, "did you mean", YAML reading, output files, paths, settings. Imports nothing from cardlab outside core."""
