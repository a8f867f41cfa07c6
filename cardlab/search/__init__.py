"""Stage 2: the index → query language → hits and single cards, one module a step: ``fields`` (the
field table), ``query`` (tokens, parse, tree), ``vocabulary``, ``compile`` (SQL of both dialects),
``connection``, ``hits``, ``lookup`` (one card) and ``engine`` (search, page, count), which pass
one frozen ``request.SearchRequest`` along."""
