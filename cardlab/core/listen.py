"""Where a server listens: the address checked before anything is announced (``cardlab serve``)."""

from __future__ import annotations

import errno

from cardlab.core.errors import UsageError


def server_url(host: str, port: int) -> str:
    """Return the URL a server on ``host`` and ``port`` answers at: ``http://HOST:PORT/``, an IPv6
    address in brackets (``http://[::1]:8000/``, RFC 3986 section 3.2.2)."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def check_listen(host: str, port: int) -> str:
    """Check that a server could listen on ``host`` and ``port`` now, by binding every address
    ``host`` resolves to (as uvicorn and asyncio's ``create_server`` do, ``SO_REUSEADDR`` on) and
    closing the sockets at once.

    Args:
        host: an address or host name (``127.0.0.1``, ``::1``, ``0.0.0.0``, ``localhost``);
        port: 1 to 65535.

    Returns:
        :func:`server_url` of ``host`` and ``port``.

    Raises:
        UsageError: an empty or blank host (it would listen on every interface unasked), a host that
            does not resolve, an address that is not this machine's, a port in use or one this user
            may not take.
    """
    import socket  # lazy: socket (54 ms cold), only for `cardlab serve`

    if not host.strip():
        raise UsageError("--host is empty; give an address: 127.0.0.1 (this machine only), or 0.0.0.0 or :: (every interface, on purpose)")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, ValueError) as err:
        why = getattr(err, "strerror", None) or str(err)
        raise UsageError(f"--host {host!r}: cannot resolve this address ({why})") from None
    for family, kind, proto, _name, address in dict.fromkeys(infos):
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as err:
                if err.errno == errno.EADDRINUSE:
                    raise UsageError(f"port {port} is already in use on {host}; stop the other server or give another --port") from None
                if err.errno == errno.EACCES:
                    raise UsageError(
                        f"this user may not listen on port {port} (ports under 1024 need privileges); give another --port"
                    ) from None
                if err.errno == errno.EADDRNOTAVAIL:
                    raise UsageError(f"--host {host!r} is not an address of this machine") from None
                raise UsageError(f"cannot listen on {server_url(host, port)}: {err.strerror or err}") from None
    return server_url(host, port)
