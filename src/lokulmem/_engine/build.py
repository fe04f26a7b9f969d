"""Building an engine from the client's options: storage, embedder, callbacks."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, Literal

from ..clock import Clock, SystemClock
from ..config import Config, from_options
from ..embedding import CachedEmbedder, Embedder, MiniLMEmbedder
from ..errors import ConfigError
from ..events import EventBus
from ..storage import SQLiteStorage, Storage, store_location
from ..storage.keys import KeyStorage, Unlock
from .engine import Engine

__all__ = ["build_engine", "shared_minilm"]

_shared: MiniLMEmbedder | None = None
_shared_lock = threading.Lock()


def shared_minilm() -> MiniLMEmbedder:
    """The process-wide default MiniLM embedder (loaded once, shared by clients)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = MiniLMEmbedder()
        return _shared


def _open_storage(
    storage: Literal["sqlite", "memory", "postgres"] | Storage,
    store_name: str,
    where: tuple[str | os.PathLike[str] | None, str | None],
    cfg: Config,
    unlock: Unlock,
) -> Storage:
    """The storage backend an option names (a file under the user data dir by default;
    ``where`` is the ``path`` and ``dsn`` options)."""
    path, dsn = where
    if dsn is not None and storage != "postgres":
        raise ConfigError("dsn", "only storage='postgres' takes a dsn")
    if storage == "postgres":
        return _postgres(store_name, path, dsn, cfg, unlock)
    if storage == "memory":
        return SQLiteStorage(
            ":memory:",
            busy_timeout_ms=cfg.busy_timeout_ms,
            encryption=unlock,
            vector_storage=cfg.vector_storage,
        )
    if storage == "sqlite":
        return SQLiteStorage(
            store_location(path, store_name),
            busy_timeout_ms=cfg.busy_timeout_ms,
            encryption=unlock,
            vector_storage=cfg.vector_storage,
        )
    if isinstance(storage, str):
        raise ConfigError("storage", f"unknown storage {storage!r} (use 'sqlite', 'memory' or 'postgres')")
    if unlock.passphrase is not None:
        raise ConfigError("encryption_passphrase", "only the built-in SQLite storage encrypts")
    return storage


def _postgres(
    store_name: str, path: str | os.PathLike[str] | None, dsn: str | None, cfg: Config, unlock: Unlock
) -> Storage:
    """A :class:`PostgresStorage` for ``store_name`` in the database at ``dsn``."""
    if not isinstance(dsn, str) or not dsn.strip():
        raise ConfigError("dsn", "storage='postgres' needs dsn='postgresql://user@host/database'")
    if path is not None:
        raise ConfigError("path", "storage='postgres' keeps the store in the database: pass dsn, not path")
    if unlock.passphrase is not None:
        raise ConfigError("encryption_passphrase", "only the built-in SQLite storage encrypts")
    try:
        from ..storage.postgres import PostgresStorage
    except ImportError as exc:
        raise ConfigError(
            "storage", f"storage='postgres' needs: pip install 'lokulmem[postgres]' ({exc})"
        ) from exc
    return PostgresStorage(
        dsn,
        store=store_name,
        schema=cfg.postgres_schema,
        connect_timeout_s=cfg.postgres_connect_timeout_s,
        statement_timeout_ms=cfg.postgres_statement_timeout_ms,
        hnsw_m=cfg.hnsw_connectivity,
        hnsw_ef_construction=cfg.hnsw_ef_construction,
        hnsw_ef_search=cfg.hnsw_ef_search,
        candidate_pool=cfg.ann_candidate_pool,
        vector_index=cfg.postgres_vector_index,
        vector_storage=cfg.vector_storage,
    )


def _choose_embedder(embedder: Embedder | Literal["minilm"], cfg: Config) -> Embedder:
    """The embedder an option names; the built-in model is shared by the process
    unless ``max_embedding_tokens`` asks for another truncation."""
    if embedder == "minilm":
        shared = shared_minilm()
        return (
            shared
            if cfg.max_embedding_tokens == shared.max_tokens
            else MiniLMEmbedder(max_tokens=cfg.max_embedding_tokens)
        )
    if isinstance(embedder, str):
        raise ConfigError("embedder", f"unknown embedder {embedder!r}")
    if isinstance(embedder, Embedder):
        return embedder
    raise ConfigError("embedder", "must be 'minilm' or implement lokulmem.Embedder")


def build_engine(
    *,
    storage: Literal["sqlite", "memory", "postgres"] | Storage,
    store_name: str,
    path: str | os.PathLike[str] | None,
    dsn: str | None = None,
    embedder: Embedder | Literal["minilm"],
    clock: Clock | None,
    token_counter: Callable[[str], int] | None,
    config: Config | None,
    session_id: str | None,
    executor: Literal["thread", "inline"],
    callbacks: dict[str, Callable[[Any], object] | None],
    options: dict[str, Any],
    encryption: tuple[str | None, KeyStorage] = (None, "none"),
) -> tuple[Engine, EventBus]:
    cfg = from_options(config, options)
    unlock = Unlock(encryption[0], encryption[1], cfg.pbkdf2_iterations)
    if not isinstance(store_name, str) or not store_name.strip() or "/" in store_name:
        raise ConfigError("store_name", "must be a non-empty name without '/'")
    store = _open_storage(storage, store_name, (path, dsn), cfg, unlock)
    inner = _choose_embedder(embedder, cfg)
    if token_counter is not None and not callable(token_counter):
        raise ConfigError("token_counter", "must be callable")
    if clock is not None and not isinstance(clock, Clock):
        raise ConfigError("clock", "must have a now_ms() method")
    if executor not in ("thread", "inline"):
        raise ConfigError("executor", f"unknown executor {executor!r} (use 'thread' or 'inline')")
    events = EventBus()
    for kind, cb in callbacks.items():
        if cb is not None:
            if not callable(cb):
                raise ConfigError(f"on_{kind}", "must be callable")
            events.subscribe(kind, cb)
    engine = Engine(
        config=cfg,
        storage=store,
        embedder=CachedEmbedder(inner, cfg.embedding_cache_size, half=cfg.vector_storage == "float16"),
        clock=clock or SystemClock(),
        events=events,
        token_counter=token_counter,
        default_session=session_id,
        executor=executor,
    )
    return engine, events
