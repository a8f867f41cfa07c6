"""A per-client rate limit on the API: a token bucket per client address on every ``/api/`` request,
answered 429 with ``Retry-After`` and the JSON error object when a client goes faster.

Loopback clients (this machine: a browser, a script, a reverse proxy on the same host) are not
limited by default; nor is a client without an IP address (a Unix socket, a test client): there is
no address to count it by. Behind a reverse proxy, run uvicorn with ``--forwarded-allow-ips`` so the
client's own address is counted, not the proxy's. The buckets live in the process: each uvicorn
worker counts on its own (``--workers 2``: up to twice the rate).

Pure ASGI (no framework import), wrapped by :func:`cardlab.web.app.create_app` inside the Guard.
"""

from __future__ import annotations

import ipaddress
import json
import math
import time
from collections.abc import Callable

from cardlab.web.guard import ASGIApp, Receive, Scope, Send

MAX_CLIENTS = 100_000
"""Most client addresses remembered; past it, the clients whose bucket is full again are forgotten
(they are as if never seen), then the oldest half."""


def is_loopback(host: str) -> bool:
    """True for a loopback address (``127.0.0.1``, ``::1``, ``::ffff:127.0.0.1``)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


def client_key(scope: Scope, limit_loopback: bool) -> str | None:
    """Return the address a request is counted under, or None when it is not limited (no IP
    address; loopback unless ``limit_loopback``)."""
    client = scope.get("client")
    if not client:
        return None
    host = str(client[0])
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return None
    if not limit_loopback and is_loopback(host):
        return None
    return host


class TokenBuckets:
    """One token bucket per key: ``burst`` tokens at most, ``rate`` a second refilled; a request takes one.

    Args:
        rate: tokens a second (requests a second, on average); burst: the bucket's size (at least 1);
        clock: seconds, monotonic (injected by tests).
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, max(1.0, burst), clock
        self.buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> float:
        """Take a token for ``key``; return 0 when there was one, else the seconds until there is."""
        now = self.clock()
        tokens, last = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens >= 1:
            self.buckets[key] = (tokens - 1, now)
            if len(self.buckets) > MAX_CLIENTS:
                self._forget(now)
            return 0.0
        self.buckets[key] = (tokens, now)
        return (1 - tokens) / self.rate

    def _forget(self, now: float) -> None:
        """Forget the clients whose bucket is full again, then (still too many) the oldest half."""
        full = (self.burst) / self.rate
        self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < full}
        if len(self.buckets) > MAX_CLIENTS:
            keep = sorted(self.buckets.items(), key=lambda kv: kv[1][1])[len(self.buckets) // 2 :]
            self.buckets = dict(keep)


class RateLimit:
    """Wrap an ASGI app: at most ``rate`` requests a second on average (bursts of ``burst``) per
    client address under ``/api/``; a faster client gets 429 ``rate_limited`` with ``Retry-After``
    (whole seconds) until its bucket refills. See :func:`client_key` for who is counted.

    Args:
        app: the ASGI app; rate: requests a second per client (more than 0); burst: the bucket's size;
        limit_loopback: count loopback clients too; clock: as :class:`TokenBuckets`.
    """

    def __init__(
        self, app: ASGIApp, rate: float, burst: float, limit_loopback: bool = False, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.app, self.limit_loopback = app, limit_loopback
        self.buckets = TokenBuckets(rate, burst, clock)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one ASGI scope: an over-limit ``/api/`` request answered 429, the rest passed on."""
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            key = client_key(scope, self.limit_loopback)
            wait = self.buckets.take(key) if key is not None else 0.0
            if wait > 0:
                await self._refuse(send, max(1, math.ceil(wait)))
                return
        await self.app(scope, receive, send)

    async def _refuse(self, send: Send, retry: int) -> None:
        """Answer 429 with ``Retry-After`` and the JSON error object."""
        rate = self.buckets.rate
        details = (
            f"too many requests from this address: at most {rate:g} a second on average (bursts of {self.buckets.burst:g});"
            f" retry after {retry} s"
        )
        body = json.dumps({"object": "error", "status": 429, "code": "rate_limited", "details": details, "retry_after": retry}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(retry).encode()),
            (b"cache-control", b"no-store"),
        ]
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body})
