"""Leases in ``meta`` (the maintenance sweep's), decided the same way on every backend.

A lease is a ``meta`` row ``lease:<name>`` holding its holder and expiry
(wall-clock seconds), so a crashed holder's lease simply expires.  The
backends read and write the row inside one write transaction; these pure
functions say what to do with it.
"""

from __future__ import annotations

import json

__all__ = ["held_by", "lease_key", "lease_value", "may_take"]


def lease_key(name: str) -> str:
    return f"lease:{name}"


def lease_value(holder: str, *, ttl_s: float, now_s: float) -> str:
    """The ``meta`` value of a lease ``holder`` takes (or renews) now."""
    return json.dumps({"holder": holder, "expires_s": now_s + ttl_s})


def may_take(current: str | None, holder: str, now_s: float) -> bool:
    """Whether ``holder`` may take the lease whose row is ``current``: none, its own,
    expired, or unreadable (treated as expired)."""
    if current is None:
        return True
    try:
        held = json.loads(current)
        other, expires = str(held["holder"]), float(held["expires_s"])
    except (ValueError, KeyError, TypeError):
        return True
    return other == holder or expires <= now_s


def held_by(current: str | None, holder: str) -> bool:
    """Whether the lease row ``current`` is ``holder``'s (release only your own)."""
    if current is None:
        return False
    try:
        return bool(json.loads(current).get("holder") == holder)
    except (ValueError, AttributeError):
        return False
