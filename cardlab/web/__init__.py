"""``cardlab serve``: the card database and deck checker as a web page and a JSON API.

A thin layer over the same library as the CLI: :mod:`cardlab.web.app` builds the app (the factory),
:mod:`cardlab.web.routes` holds one router per resource, :mod:`cardlab.web.state` the site the routes
share, :mod:`cardlab.web.guard` the body caps and security headers. Nothing in cardlab imports it: the
``serve`` command hands uvicorn its import string. Needs the ``web`` extra (FastAPI, uvicorn,
Jinja2, python-multipart).
"""
