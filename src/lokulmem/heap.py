"""Give freed heap back to the operating system after a large transient allocation.

A clustering pass (k-means over every active vector) allocates tens of
megabytes for a moment.  Python and numpy free them, but glibc's allocator
keeps freed heap in the process: opening a freshly imported 10k-memory store
(its first clustering pass runs then) left the process 37 MB larger than with
the memory given back, and 13 MB smaller than before the open once it is
(docs/tuning.md entry 37).  :func:`release_free_heap` calls glibc's
``malloc_trim(0)``; on other C libraries and platforms it does nothing.  A
trim costs about 2.5 ms on a fragmented heap, so it follows the clustering
pass (a second or more at that size), not each index reload.
``Config.release_heap`` turns it off.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys
from collections.abc import Callable

__all__ = ["release_free_heap"]


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim  # glibc only: musl and others have no such symbol
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def release_free_heap() -> bool:
    """Return the heap's free pages to the OS; whether the C library could."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
