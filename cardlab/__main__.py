"""``python -m cardlab``."""

from cardlab.cli.entry import main

main()
