"""A lesson slip's pass: the class's pages know which student's code sent a request.

A lesson page is a Python process on the teacher's computer, so the class's pages cap
how many one client may open (:mod:`janus_widgets.voila_guard`). A client is an address
unless it shows a pass: a school whose students all reach the server through one
address (a proxy, a NAT) would otherwise have six lesson pages for the whole class.
The table server sends a lesson slip's code on (``/lesson?code=…``) with ``pass``: a
keyed hash of the code, which only the class's own servers can make (the key is a file
beside the database, readable by the teacher only, kept across restarts so that a page
reloaded after one still shows it). The pages then count that student's pages, whatever
their address; a request without a pass, or with a wrong one, counts for its address,
as before.

>>> key = b"k" * 32
>>> given = page_pass(key, "KM4TPXRA3C"); len(given)
32
>>> holds(key, "KM4TPXRA3C", given), holds(key, "KM4TPXRA3D", given), holds(None, "X", given)
(True, False, False)
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets

__all__ = ["key_file", "read_or_make_key", "page_pass", "holds"]


def key_file(db: str) -> str | None:
    """Where the class's pages key is kept: beside the database (``None`` for one in
    memory).

    >>> key_file("class/3b.sqlite"), key_file(":memory:")
    ('class/3b.sqlite.pages-key', None)
    """
    return None if db == ":memory:" else db + ".pages-key"


def read_or_make_key(path: str) -> bytes:
    """The key in ``path``, made (32 random bytes, owner-only) if there is none yet; two
    processes making it at once read the one put in place first (each writes its own
    file whole, then links it to ``path``, which only one link can take)."""
    if not os.path.exists(path):
        made = f"{path}.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(made, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(secrets.token_hex(32) + "\n")
            try:
                os.link(made, path)
            except FileExistsError:
                pass
        finally:
            os.unlink(made)
    with open(path, encoding="ascii") as f:
        text = f.read().strip()
    if len(text) < 32:
        raise ValueError(f"{path} holds no key (delete it: a new one is made)")
    return text.encode("ascii")


def page_pass(key: bytes, code: str) -> str:
    """The pass of a slip's ``code``: 32 hex digits."""
    return hmac.new(key, code.encode("utf-8"), hashlib.sha256).hexdigest()[:32]


def holds(key: bytes | None, code: str, given: str) -> bool:
    """Whether ``given`` is ``code``'s pass (never with no key)."""
    return bool(key) and hmac.compare_digest(page_pass(key, code), given)
