"""The `cardlab` command line (typer): the only package that imports typer; each command parses, calls the library once, renders, exits."""
