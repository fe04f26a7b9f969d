"""``LokulMem`` (sync) and ``AsyncLokulMem`` (async) over one shared :class:`~lokulmem.core.Engine`.

    with LokulMem() as memory:
        result = memory.augment("What should I cook tonight?", history)
        reply = my_llm(result.messages)
        memory.learn("What should I cook tonight?", reply)

The async client runs every call on one worker thread, so the event loop is
never blocked by embedding or SQLite.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal, TypeVar

from ._async import async_twin
from ._engine.backups import run_backup, run_change_passphrase, run_restore
from ._engine.build import build_engine as _build_engine
from ._engine.build import shared_minilm
from ._engine.compacting import with_compaction
from ._engine.engine import Engine
from .clock import Clock
from .config import Config
from .embedding import Embedder
from .errors import ValidationError
from .manage import AsyncManager, Manager
from .records import (
    AugmentResult,
    CompactionResult,
    ContradictionEvent,
    Episode,
    LearnResult,
    MaintenanceReport,
    Memory,
    Message,
    ProgressEvent,
    RetentionPolicy,
)
from .storage import Storage
from .storage.keys import KeyStorage

__all__ = ["AsyncLokulMem", "LokulMem", "shared_minilm"]

T = TypeVar("T")


class LokulMem:
    """Long-term memory of one user, in one local store.

    Options (all keyword-only): ``storage`` (``"sqlite"`` default, ``"memory"``,
    ``"postgres"`` with ``dsn="postgresql://user@host/database"``, or a
    :class:`~lokulmem.storage.Storage`), ``store_name`` (file name under the
    user data dir, or the store's key in a PostgreSQL database) or ``path``
    (explicit file), ``embedder`` (``"minilm"`` or any
    :class:`~lokulmem.Embedder`), ``clock`` (injectable time), ``token_counter``
    (your LLM's tokenizer; fallback ``ceil(len/4)``), ``config`` plus any
    :class:`~lokulmem.Config` field as a keyword (``extraction_threshold=0.5``),
    ``session_id`` (default session for ``learn``), ``executor`` (``"thread"``,
    default: the maintenance sweep and clustering run on a background thread;
    ``"inline"``: on the caller's thread, deterministic, for tests and
    scripts), the PRD callbacks, and encryption at rest:
    ``encryption_passphrase`` (the text fields of the store sealed with
    AES-256-GCM; see docs/encryption.md) and ``key_storage`` (``"none"``,
    ``"session"`` or ``"keyring"``: where the derived key is kept between opens).
    Unknown or invalid options raise :class:`~lokulmem.ConfigError`.
    ``init()`` runs on first use if not called.
    """

    def __init__(
        self,
        *,
        storage: Literal["sqlite", "memory", "postgres"] | Storage = "sqlite",
        store_name: str = "lokulmem_default",
        path: str | os.PathLike[str] | None = None,
        dsn: str | None = None,
        embedder: Embedder | Literal["minilm"] = "minilm",
        clock: Clock | None = None,
        token_counter: Callable[[str], int] | None = None,
        config: Config | None = None,
        session_id: str | None = None,
        executor: Literal["thread", "inline"] = "thread",
        on_memory_added: Callable[[Memory], object] | None = None,
        on_memory_updated: Callable[[Memory], object] | None = None,
        on_memory_deleted: Callable[[str], object] | None = None,
        on_memory_faded: Callable[[Memory], object] | None = None,
        on_contradiction_detected: Callable[[ContradictionEvent], object] | None = None,
        on_stats_changed: Callable[[Any], object] | None = None,
        on_progress: Callable[[ProgressEvent], object] | None = None,
        encryption_passphrase: str | None = None,
        key_storage: KeyStorage = "none",
        **options: Any,
    ) -> None:
        self._engine, self._events = _build_engine(
            storage=storage,
            store_name=store_name,
            path=path,
            dsn=dsn,
            embedder=embedder,
            clock=clock,
            token_counter=token_counter,
            config=config,
            session_id=session_id,
            executor=executor,
            callbacks={
                "memory_added": on_memory_added,
                "memory_updated": on_memory_updated,
                "memory_deleted": on_memory_deleted,
                "memory_faded": on_memory_faded,
                "contradiction_detected": on_contradiction_detected,
                "stats_changed": on_stats_changed,
                "progress": on_progress,
            },
            options=options,
            encryption=(encryption_passphrase, key_storage),
        )
        self._manager = Manager(self._engine, store_name=store_name)

    @property
    def config(self) -> Config:
        return self._engine.config

    @property
    def location(self) -> str:
        """Where the store lives (a file path, or ``:memory:``)."""
        return self._engine.storage.location

    @property
    def storage(self) -> Storage:
        """The storage backend (the :class:`~lokulmem.storage.Storage` protocol): for tools,
        diagnostics and tests that read the store.  Writing through it bypasses the
        vector index, the caches and the events: use :meth:`manage` to change memories."""
        return self._engine.storage

    @property
    def engine(self) -> Engine:
        """The internal engine.  **Not a public API**: unstable, it may change in any
        release without notice.  Use :meth:`learn`, :meth:`augment`, :meth:`manage`."""
        return self._engine

    def init(self) -> None:
        """Load the model, open (and migrate) the store, build the index.  Idempotent."""
        self._engine.init()

    def close(self) -> None:
        """Close the store.  Further calls raise :class:`~lokulmem.StoreClosedError`."""
        self._engine.close()

    def __enter__(self) -> LokulMem:
        self.init()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def learn(
        self,
        user_message: str,
        assistant_response: str = "",
        *,
        session_id: str | None = None,
        force_extract: bool = False,
        skip_types: Sequence[str] = (),
        in_reply_to: str | None = None,
    ) -> LearnResult:
        """Extract facts from the user's message, resolve contradictions, store them.

        Empty or whitespace-only messages are a no-op.  A message longer than
        ``max_message_chars`` is read up to that length (``truncated=True``).
        The whole call is one transaction: on failure the store is unchanged.

        ``assistant_response`` is not mined for facts; it is remembered as what
        the user's *next* message in the session answers, and the end of it
        (``max_reply_context_chars``) is kept on that message's memories as
        ``reply_context`` ("Twelve years in June!" answers "When is your
        anniversary, and how many years is it?"), searched lexically at recall.
        ``in_reply_to`` gives that text explicitly (e.g. a server that keeps no
        per-session client);
        ``""`` means the message answered nothing.
        """
        return self._engine.learn(
            user_message,
            assistant_response,
            session_id=session_id,
            force_extract=force_extract,
            skip_types=skip_types,
            in_reply_to=in_reply_to,
        )

    def remember(
        self,
        text: str,
        *,
        source: Literal["reasoning", "direct"] = "reasoning",
        session_id: str | None = None,
        skip_types: Sequence[str] = (),
    ) -> LearnResult:
        """Store what an agent concluded about the user (HOM ``source="reasoning"``).

        The text is read like a user message (sentences, rewrite, types,
        contradictions: a conclusion that contradicts a current fact closes
        it, with its ``ContradictionEvent``) but every sentence is stored
        (no extraction gate, as ``force_extract=True``), with
        ``Memory.source == "reasoning"`` so a panel and the evidence cards
        can tell it from what the user said.  ``source="direct"`` stores it
        as the user's own statement.  One transaction, as ``learn()``.
        """
        if source not in ("reasoning", "direct"):
            raise ValidationError("source", f"must be 'reasoning' or 'direct', got {source!r}")
        return self._engine.learn(
            text, "", session_id=session_id, force_extract=True, skip_types=skip_types, source=source
        )

    def augment(
        self,
        message: str,
        history: Sequence[Message] | None = None,
        *,
        max_memories: int | None = None,
        min_relevance: float | None = None,
        types: Sequence[str] | None = None,
        debug: bool = False,
        require_evidence: bool | None = None,
        include_proactive: bool | None = None,
        include_episodes: bool = True,
        auto_compact: bool = False,
        session_id: str | None = None,
    ) -> AugmentResult:
        """``history`` + ``message`` with relevant memories prepended to the system prompt.

        Only memories with evidence of relevance are injected (a semantic match
        or the question's key words; ``require_evidence=False`` fills
        ``max_memories`` from the ranking instead), so a question about nothing
        stored injects nothing.  On the first turn of a conversation (no user or
        assistant turn in ``history``; ``include_proactive`` forces it on or
        off) memories of events coming up are pushed first (``lokulmem.proactive``).
        The past conversation (episode) most similar to the message is added as an
        ``[Episode Context]`` block when its cosine reaches ``episode_similarity``
        (``include_episodes=False``: never).  The caller's list is never mutated.
        Injected memories are reinforced.  With ``debug=True`` the result carries a
        :class:`~lokulmem.LokulMemDebug`.

        ``auto_compact=True``: when ``history`` and ``message`` would not leave
        the memory block its reserve (``compaction_memory_reserve``) within
        ``context_window_size`` less ``response_buffer``, the history is first
        compacted (:meth:`compact`, for ``session_id`` or the default session);
        ``result.compaction`` then says so, and its ``messages`` are the
        history to keep.  A debug record gains a ``compaction`` stage.
        """
        compacted = (
            self._engine.auto_compact(message, history, session_id=session_id) if auto_compact else None
        )
        if compacted is not None:
            history = compacted[0].messages
        result = self._engine.augment(
            message,
            history,
            max_memories=max_memories,
            min_relevance=min_relevance,
            types=types,
            debug=debug,
            require_evidence=require_evidence,
            include_proactive=include_proactive,
            include_episodes=include_episodes,
        )
        return result if compacted is None else with_compaction(result, *compacted)

    def compact(
        self, history: Sequence[Message], *, session_id: str, budget_tokens: int | None = None
    ) -> CompactionResult:
        """HOM session compaction: the history made to fit ``budget_tokens`` (default:
        ``context_window_size`` less ``response_buffer`` and ``compaction_memory_reserve``).

        Leading system messages and the most recent turns (``compaction_recent_share``
        of the budget) stay verbatim; the older part is replaced by one summary
        message.  Before that, nothing of it is lost: its user messages go through
        ``learn()`` (facts stored or reinforced), and its three tracks —
        ``conversation``, ``tool_usage`` (every call and result, OpenAI
        ``tool_calls``/``role: "tool"`` or Anthropic ``tool_use``/``tool_result``)
        and ``action_taken`` (one line per call) — are saved in full as artifact
        memories (``source="compaction"``, ``track``), chunked and embedded, in one
        transaction.  A continuity check then finds every fact and chunk by a
        targeted query, and every tool call by its name and arguments; a miss
        removes the artifacts and raises :class:`~lokulmem.CompactionError`.

        A malformed tool message raises :class:`~lokulmem.ValidationError` naming
        its index, and nothing is written.
        """
        return self._engine.compact(history, session_id=session_id, budget_tokens=budget_tokens)

    def end_session(self, session_id: str) -> Episode | None:
        """End ``session_id`` now: its memories become an :class:`~lokulmem.Episode`
        (an extractive summary of its most central memories, turn count, valence,
        topics), stored and recalled for related questions later; ``None`` when
        the session left no memory.  Sessions also end on their own when another
        session starts learning or after ``episode_idle_minutes`` without a turn.
        Ending a session again updates its episode."""
        return self._engine.end_session(session_id)

    def manage(self) -> Manager:
        """The memory-panel API."""
        return self._manager

    def maintenance(self, *, sweep: bool | None = True, cluster: bool | None = None) -> MaintenanceReport:
        """Run the maintenance sweep (and clustering, if due) now, on this thread.

        ``sweep``/``cluster``: ``True`` forces, ``False`` skips, ``None`` runs
        it only if due.  Does nothing (``ran=False``) while another process
        holds the maintenance lease.  Faded memories fire ``on_memory_faded``.
        """
        return self._engine.maintenance(sweep=sweep, cluster=cluster)

    def wait_for_maintenance(self, timeout: float | None = None) -> None:
        """Wait until background work queued so far has finished: maintenance
        (``executor="thread"``) and the context vectors of earlier ``learn()``
        calls (written when this returns).  Nothing then writes to the store until
        the next call."""
        self._engine.wait_for_maintenance(timeout)

    def set_retention_policy(
        self,
        *,
        max_age_days: float | None = None,
        max_facts: int | None = None,
        min_confidence: float | None = None,
        action: Literal["archive", "delete"] = "archive",
    ) -> RetentionPolicy:
        """Set the store's :class:`~lokulmem.RetentionPolicy` (PRD v0.2); all None clears it.

        Stored in the store (every process that opens it follows it) and
        applied by each maintenance sweep; call :meth:`maintenance` to apply it
        now.  Retired memories are archived (``metadata["archived_by"] ==
        "retention"``, ``memory_updated`` events) unless ``action="delete"``
        (``memory_deleted``); pinned memories are exempt.  The sweep's report
        lists them in ``retired``.  A negative or non-numeric limit raises
        :class:`~lokulmem.ConfigError` naming the field, and nothing is stored.
        """
        policy = RetentionPolicy(
            max_age_days=max_age_days, max_facts=max_facts, min_confidence=min_confidence, action=action
        )
        return self._engine.set_retention_policy(policy)

    def get_retention_policy(self) -> RetentionPolicy | None:
        """The store's retention policy, or None when none is set."""
        return self._engine.get_retention_policy()

    def backup(self, path: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
        """Copy the whole store, as it is at one moment, to the file ``path``, through
        SQLite's online backup API: other threads and processes keep writing
        meanwhile.  The copy is checked (``integrity_check``), synced and renamed
        into place, so ``path`` never holds half a backup; an existing ``path`` is
        a :class:`~lokulmem.ValidationError` unless ``overwrite=True``.  An
        encrypted store's backup stays encrypted (same passphrase).  Returns ``path``.
        """
        return run_backup(self._engine, path, overwrite=overwrite)

    def restore(self, path: str | os.PathLike[str], *, passphrase: str | None = None) -> None:
        """Replace this store's content with the backup at ``path`` (see :meth:`backup`).

        Checked before anything is written: a lokulmem store that passes
        ``integrity_check``, not newer than this lokulmem, vectors of this
        embedder; an encrypted backup must open with ``passphrase`` (default:
        this store's key, when the backup was taken from it under the same
        passphrase).  Written in one transaction; other processes with the
        store open see the old content or the restored one, and reload.
        """
        run_restore(self._engine, path, passphrase=passphrase)

    @property
    def encrypted(self) -> bool:
        """Whether the store's text fields are encrypted at rest (opens the store)."""
        self.init()
        return bool(getattr(self._engine.storage, "encrypted", False))

    def change_passphrase(self, new_passphrase: str | None) -> None:
        """Re-encrypt every text field under ``new_passphrase`` (a new salt and key), in
        one transaction; then vacuum the file and truncate its WAL so no page of the
        old form survives.  On an unencrypted store this encrypts it; ``None``
        decrypts.  A key kept by ``key_storage`` is replaced.  Raises
        :class:`~lokulmem.EncryptionError` for a storage backend without
        encryption; on any failure the store is left as it was.
        """
        run_change_passphrase(self._engine, new_passphrase)


class AsyncLokulMem:
    """Async twin of :class:`LokulMem`: same options, same results, awaitable.

    Calls run on one dedicated worker thread (SQLite and the model never block
    the event loop); they are serialised, as on the sync client.
    """

    def __init__(self, **options: Any) -> None:
        self._sync = LokulMem(**options)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lokulmem")
        self._manager = AsyncManager(self._sync.manage(), self._run)

    async def _run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: fn(*args, **kwargs))

    @property
    def config(self) -> Config:
        return self._sync.config

    @property
    def location(self) -> str:
        return self._sync.location

    init = async_twin(LokulMem.init)
    learn = async_twin(LokulMem.learn)
    remember = async_twin(LokulMem.remember)
    augment = async_twin(LokulMem.augment)
    end_session = async_twin(LokulMem.end_session)
    compact = async_twin(LokulMem.compact)
    maintenance = async_twin(LokulMem.maintenance)
    wait_for_maintenance = async_twin(LokulMem.wait_for_maintenance)
    set_retention_policy = async_twin(LokulMem.set_retention_policy)
    get_retention_policy = async_twin(LokulMem.get_retention_policy)
    change_passphrase = async_twin(LokulMem.change_passphrase)
    backup = async_twin(LokulMem.backup)
    restore = async_twin(LokulMem.restore)

    async def close(self) -> None:
        """Close the store, then stop the worker thread."""
        await self._run(self._sync.close)
        self._executor.shutdown(wait=False)

    async def __aenter__(self) -> AsyncLokulMem:
        await self.init()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def manage(self) -> AsyncManager:
        """The async memory-panel API (:class:`~lokulmem.manage.AsyncManager`)."""
        return self._manager
