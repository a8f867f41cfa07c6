"""``python -m cardlab``."""

from cardlab.cli import main

main()
