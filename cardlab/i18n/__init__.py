"""Stage 4: catalog -> PO file -> catalog: translatable strings, coverage, PO export and import, write-back."""
