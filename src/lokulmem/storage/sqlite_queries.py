"""Reads of the SQLite storage: filtered lists, full-text and lexical search, statistics."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import StorageError
from ..records import (
    Memory,
)
from .protocol import MemoryQuery, TermMatches
from .sqlite_base import SQLiteBase
from .sqlite_fts import FTS_TOKENIZE
from .sqlite_rows import (
    ORDER_COLUMNS,
    SELECT,
    SELECT_LIGHT,
    WORD,
    row_to_memory,
)

__all__ = ["SQLiteQueries"]


def _quoted(word: str) -> str:
    """``word`` as an FTS5 string (no query syntax from user input)."""
    return '"' + word.replace('"', '""') + '"'


#: A store of at least this many memories keeps term document frequencies
#: while its size moves by at most 1% (``SQLiteQueries._doc_freq``).
DOC_FREQ_CACHE_FROM = 10_000
#: Cached document frequencies at most (the cache is emptied when full).
DOC_FREQ_CACHE_SIZE = 4_096
#: The lexical ranking reads this many times the rows asked for from the
#: full-text index before keeping the active ones (archived and faded
#: memories stay in the index for word search).
LEXICAL_OVERFETCH = 4


class SQLiteQueries(SQLiteBase):
    """Reads: lists, searches, counts."""

    @property
    def has_fts(self) -> bool:
        """Whether full-text search uses FTS5 (else a ``LIKE`` scan).  Fixed once migrated."""
        with self._lock:
            if self._fts is None:
                row = self._c.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'memories_fts' UNION ALL "
                    "SELECT 1 FROM sqlite_temp_master WHERE type = 'table' AND name = 'memories_fts'"
                ).fetchone()
                self._fts = row is not None
            return self._fts

    def list_memories(self, query: MemoryQuery) -> list[Memory]:
        where: list[str] = []
        params: list[Any] = []
        if query.types is not None:
            if not query.types:
                return []
            marks = ",".join("?" * len(query.types))
            where.append(f"id IN (SELECT memory_id FROM memory_types WHERE type IN ({marks}))")
            params.extend(query.types)
        if query.status is not None:
            where.append("status = ?")
            params.append(query.status)
        if query.pinned is not None:
            where.append("pinned = ?")
            params.append(int(query.pinned))
        if query.since is not None:
            where.append("created_at >= ?")
            params.append(query.since)
        if query.until is not None:
            where.append("created_at <= ?")
            params.append(query.until)
        if query.conversation is not None:
            where.append(
                "(source_session = ? OR EXISTS (SELECT 1 FROM json_each(memories.source_conversation_ids) "
                "WHERE json_each.value = ?))"
            )
            params.extend([query.conversation, query.conversation])
        if query.order_by not in ORDER_COLUMNS:
            raise StorageError(f"cannot order by {query.order_by!r}")
        direction = "DESC" if query.descending else "ASC"
        sql = (SELECT if query.with_embedding else SELECT_LIGHT) + (
            " WHERE " + " AND ".join(where) if where else ""
        )
        sql += f" ORDER BY {query.order_by} {direction}, id {direction}"
        if query.limit is not None or query.offset:
            sql += " LIMIT ? OFFSET ?"
            params.extend([-1 if query.limit is None else query.limit, query.offset])
        with self._lock:
            rows = self._c.execute(sql, params).fetchall()
        return [row_to_memory(r, self._sealer) for r in rows]

    def search_text(self, query: str, *, limit: int, max_terms: int | None = None) -> list[str]:
        words = list(dict.fromkeys(WORD.findall(query)))[:max_terms]
        if not words:
            return []
        with self._lock:
            if self.has_fts:
                # Each word quoted (no FTS syntax from user input), prefix-matched, all required.
                match = "content : (" + " ".join('"' + w.replace('"', '""') + '"*' for w in words) + ")"
                rows = self._c.execute(
                    "SELECT m.id FROM memories_fts f JOIN memories m ON m.rowid = f.rowid "
                    "WHERE memories_fts MATCH ? ORDER BY bm25(memories_fts), m.created_at LIMIT ?",
                    (match, limit),
                ).fetchall()
            else:  # pragma: no cover - SQLite built without FTS5
                clauses = " AND ".join("content LIKE ? ESCAPE '\\'" for _ in words)
                likes = ["%" + w.replace("%", "\\%").replace("_", "\\_") + "%" for w in words]
                rows = self._c.execute(
                    f"SELECT id FROM memories WHERE {clauses} ORDER BY created_at LIMIT ?", (*likes, limit)
                ).fetchall()
        return [r[0] for r in rows]

    def lexical_search(
        self,
        terms: Sequence[str],
        *,
        limit: int,
        context_weight: float = 0.0,
        reply_weight: float = 0.0,
        max_doc_freq: int | None = None,
    ) -> list[tuple[str, float]]:
        """Active memories matching any of ``terms`` (stemmed), best first, with a
        BM25 score > 0 (larger is better).  Matches in ``source_context`` (the
        whole message) count ``context_weight`` times a match in ``content``, and matches in
        ``reply_context`` (what the message answered) ``reply_weight`` times (0:
        not searched).  A term found in more than ``max_doc_freq`` memories is
        left out (counted up to that many: ranking every memory that holds a
        common word is what costs).  Empty without FTS5."""
        words = list(dict.fromkeys(w for t in terms for w in WORD.findall(t)))
        if not words or not self.has_fts:
            return []
        columns = ["content"]
        columns += ["source_context"] if context_weight > 0 else []
        columns += ["reply_context"] if reply_weight > 0 else []
        scope = "{" + " ".join(columns) + "} : "
        weights = (max(0.0, context_weight), max(0.0, reply_weight))
        with self._lock:
            if max_doc_freq is not None:
                total = self._total()
                words = [
                    w
                    for w in words
                    if self._doc_freq(scope + _quoted(w), max_doc_freq + 1, total) <= max_doc_freq
                ]
            if not words:
                return []
            match = scope + "(" + " OR ".join(_quoted(w) for w in words) + ")"
            rows = self._ranked_active(match, weights, limit)
        return [(r[0], -float(r[1])) for r in rows]

    def _ranked_active(self, match: str, weights: tuple[float, float], limit: int) -> list[Any]:
        """``(id, bm25)`` of the best ``limit`` active memories matching ``match``.
        Ranked inside the full-text index first (``limit`` ×
        ``LEXICAL_OVERFETCH`` rows, no join per match: 6.8 → 4.0 ms for a term in
        3,000 of a million memories), then kept if active; when too few of those
        are active, the whole ranking is joined instead."""
        bm25 = "bm25(memories_fts, 1.0, ?, ?)"
        fetch = limit * LEXICAL_OVERFETCH
        ranked = self._c.execute(
            f"SELECT rowid, {bm25} AS score FROM memories_fts "
            "WHERE memories_fts MATCH ? ORDER BY score LIMIT ?",
            (*weights, match, fetch),
        ).fetchall()
        kept = self._active_of(ranked, limit)
        if len(kept) >= limit or len(ranked) < fetch:
            return kept[:limit]
        return self._c.execute(
            f"SELECT m.id, {bm25} AS score FROM memories_fts f JOIN memories m ON m.rowid = f.rowid "
            "WHERE memories_fts MATCH ? AND m.status = 'active' ORDER BY score LIMIT ?",
            (*weights, match, limit),
        ).fetchall()

    def _active_of(self, ranked: Sequence[Any], limit: int) -> list[tuple[str, float]]:
        """``(id, score)`` of the active rows among ``ranked`` (``(rowid, score)``, best
        first), in order, until ``limit`` are found: asked ``limit`` rows at a time,
        so a store whose best matches are active looks up ``limit`` rowids, not
        the whole overfetch (1.4 → 0.4 ms at 10k memories)."""
        kept: list[tuple[str, float]] = []
        step = max(1, min(limit, 500))
        for start in range(0, len(ranked), step):
            chunk = ranked[start : start + step]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT rowid, id FROM memories WHERE status = 'active' AND rowid IN ({marks})"
            active = dict(self._c.execute(sql, [r[0] for r in chunk]).fetchall())
            kept += [(active[r[0]], r[1]) for r in chunk if r[0] in active]
            if len(kept) >= limit:
                break
        return kept

    def _doc_freq(self, match: str, cap: int, total: int | None = None) -> int:
        """Rows of the full-text index matching ``match``, counted up to ``cap``.

        Counting walks the term's posting list (1.4 ms for a word in 20,000 of a
        million memories), so in a store of at least ``DOC_FREQ_CACHE_FROM``
        memories the answer is kept while the store's size moves by at most 1%
        (a document frequency for IDF and for "too common to rank"; a smaller
        store is counted exactly every time)."""
        if total is None:
            total = self._total()
        key = (match, cap)
        known = self._doc_freqs.get(key) if total >= DOC_FREQ_CACHE_FROM else None
        if known is not None and abs(total - known[1]) <= total // 100:
            return known[0]
        row = self._c.execute(
            "SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)",
            (match, cap),
        ).fetchone()
        if total >= DOC_FREQ_CACHE_FROM:
            if len(self._doc_freqs) >= DOC_FREQ_CACHE_SIZE:
                self._doc_freqs.clear()
            self._doc_freqs[key] = (int(row[0]), total)
        return int(row[0])

    def _total(self) -> int:
        """Rows in the store, every status (``store_counts``)."""
        return int(self._c.execute("SELECT COALESCE(SUM(n), 0) FROM store_counts").fetchone()[0])

    def _probe(self, ids: Sequence[str]) -> None:
        """Put the full-text columns of the memories ``ids`` in ``temp.lm_terms``, a small
        in-memory FTS5 table with the store's tokenizer, so which of them match a
        term is asked of those rows alone, not of the term's whole posting list.
        The table is contentless (only rowids come back): emptying it is one
        ``delete-all`` instead of a row-by-row ``DELETE``, and inserting keeps no
        copy of the text (0.6 against 1.5 ms for 100 rows and 3 terms)."""
        self._c.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.lm_terms USING "
            f"fts5(content, source_context, content='', tokenize='{FTS_TOKENIZE}')"
        )
        self._c.execute("INSERT INTO temp.lm_terms(lm_terms) VALUES ('delete-all')")
        if self._sealer.encrypted:
            cols = ", ".join(f"lm_open({c}, 'memories.{c}:' || id)" for c in ("content", "source_context"))
        else:
            cols = "content, source_context"
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            self._c.execute(
                f"INSERT INTO temp.lm_terms(rowid, content, source_context) SELECT rowid, {cols} "
                f"FROM memories WHERE id IN ({','.join('?' * len(chunk))})",
                chunk,
            )

    def entity_mentions(self, entity: str, *, limit: int) -> list[str]:
        """Newest first by insertion (FTS5 walks its rowids backwards and stops at
        ``limit``: no ranking of every match, which a common name would make costly)."""
        words = WORD.findall(entity)
        if not words or not self.has_fts:
            return []
        phrase = 'content : "' + " ".join(words) + '"'
        with self._lock:
            rows = self._c.execute(
                "SELECT m.id FROM memories_fts f JOIN memories m ON m.rowid = f.rowid "
                "WHERE memories_fts MATCH ? AND m.status = 'active' ORDER BY f.rowid DESC LIMIT ?",
                (phrase, limit),
            ).fetchall()
        return [r[0] for r in rows]

    def existing_ids(self, ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                marks = ",".join("?" * len(chunk))
                found.update(
                    r[0] for r in self._c.execute(f"SELECT id FROM memories WHERE id IN ({marks})", chunk)
                )
        return found

    def ids_by_key(self, keys: Sequence[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        # An encrypted store seals keys deterministically: look up the sealed forms.
        sealed = {self._sealer.seal_lookup(k): k for k in dict.fromkeys(keys)}
        tokens = list(sealed)
        with self._lock:
            for start in range(0, len(tokens), 500):
                chunk = tokens[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for token, mid in self._c.execute(
                    f"SELECT key, id FROM memories WHERE key IN ({marks}) ORDER BY created_at, id", chunk
                ):
                    out.setdefault(sealed[token], []).append(mid)
        return out

    def referencing(self, memory_id: str) -> list[Memory]:
        with self._lock:
            rows = self._c.execute(
                SELECT + " WHERE superseded_by = ? OR temporal_supersedes = ? ORDER BY created_at, id",
                (memory_id, memory_id),
            ).fetchall()
        return [row_to_memory(r, self._sealer) for r in rows]

    def stat_rows(self) -> list[Mapping[str, Any]]:
        cols = (
            "id types base_strength confidence mention_count pinned created_at updated_at "
            "last_reinforced status faded_at event_at"
        ).split()
        with self._lock:
            rows = self._c.execute(f"SELECT {', '.join(cols)} FROM memories").fetchall()
        out: list[Mapping[str, Any]] = []
        for r in rows:
            d = dict(zip(cols, r, strict=True))
            d["types"] = tuple(json.loads(d["types"]))
            d["pinned"] = bool(d["pinned"])
            out.append(d)
        return out

    def type_counts(self) -> dict[str, int]:
        with self._lock:
            rows = self._c.execute(
                "SELECT type, COUNT(*) FROM memory_types GROUP BY type ORDER BY type"
            ).fetchall()
        return {t: int(n) for t, n in rows}

    def conversation_count(self) -> int:
        with self._lock:
            row = self._c.execute(
                "SELECT COUNT(DISTINCT value) FROM ("
                " SELECT json_each.value AS value FROM memories, json_each(memories.source_conversation_ids)"
                " UNION SELECT source_session FROM memories WHERE source_session != '')"
            ).fetchone()
        return int(row[0])

    # lifecycle --------------------------------------------------------------

    def ids_by_attribute(self, attribute: str, *, status: str = "active") -> list[str]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id FROM memories WHERE attribute = ? AND status = ?", (attribute, status)
            ).fetchall()
        return [r[0] for r in rows]

    def term_matches(self, terms: Sequence[str], ids: Sequence[str], *, cap: int = 20_000) -> TermMatches:
        """For each term (a word or a hyphenated phrase, stemmed): how many stored
        memories match it in their content or source message, and which of ``ids``
        do.  Empty without FTS5.  Document frequencies count every stored row (the
        full-text index alone, no join), at most ``cap`` rows per term, kept a while
        in a large store (:meth:`_doc_freq`); which of ``ids`` match is asked of
        those rows alone (:meth:`_probe`)."""
        words = [t for t in dict.fromkeys(terms) if WORD.search(t)]
        if not words or not self.has_fts:
            return TermMatches(total=0, doc_freq={}, matched={})
        doc_freq: dict[str, int] = {}
        matched: dict[str, frozenset[str]] = {}
        with self._lock:
            total = self._total()
            self._probe(ids)
            for term in words:
                match = '{content source_context} : "' + term.replace('"', '""') + '"'
                doc_freq[term] = self._doc_freq(match, cap, int(total))
                found = self._c.execute(
                    "SELECT m.id FROM temp.lm_terms JOIN memories m ON m.rowid = lm_terms.rowid "
                    "WHERE lm_terms MATCH ?",
                    (match,),
                )
                matched[term] = frozenset(r[0] for r in found)
        return TermMatches(total=int(total), doc_freq=doc_freq, matched=matched)

    def events_between(self, start: int, end: int, limit: int) -> list[str]:
        return self._active_between("event_at", "event_at, id", start, end, limit)

    def created_between(self, start: int, end: int, limit: int) -> list[str]:
        return self._active_between("created_at", "created_at DESC", start, end, limit)

    def _active_between(self, column: str, order: str, start: int, end: int, limit: int) -> list[str]:
        """Ids of active memories whose ``column`` lies in [start, end); ``column`` and
        ``order`` are the callers' literals, never user input."""
        with self._lock:
            rows = self._c.execute(
                f"SELECT id FROM memories WHERE status = 'active' AND {column} >= ? AND {column} < ? "
                f"ORDER BY {order} LIMIT ?",
                (start, end, limit),
            ).fetchall()
        return [r[0] for r in rows]

    def pinned_ids(self) -> list[str]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id FROM memories WHERE status = 'active' AND pinned = 1"
            ).fetchall()
        return [r[0] for r in rows]

    def count_memories(self, status: str | None = None) -> int:
        """From ``store_counts`` (kept by triggers, migration ``m009_store_counts``)."""
        with self._lock:
            if status is None:
                row = self._c.execute("SELECT COALESCE(SUM(n), 0) FROM store_counts").fetchone()
            else:
                row = self._c.execute(
                    "SELECT COALESCE(SUM(n), 0) FROM store_counts WHERE status = ?", (status,)
                ).fetchone()
        return int(row[0])

    def max_rowid(self) -> int:
        with self._lock:
            row = self._c.execute("SELECT COALESCE(MAX(rowid), 0) FROM memories").fetchone()
        return int(row[0])

    def count_rows_after(self, rowid: int) -> int:
        """Memories inserted after the row ``rowid`` (rowids only grow on insert)."""
        with self._lock:
            row = self._c.execute("SELECT COUNT(*) FROM memories WHERE rowid > ?", (rowid,)).fetchone()
        return int(row[0])
