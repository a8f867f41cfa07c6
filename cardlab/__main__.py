"""``python -m cardlab``."""

from cardlab.cli.app import main

main()
