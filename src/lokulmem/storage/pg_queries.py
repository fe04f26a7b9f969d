"""Reads of the PostgreSQL storage: filtered lists, full-text and lexical search, statistics.

Full-text search uses the generated ``tsvector`` columns (``pg_schema``).  Query
words come from ``\\w+`` (letters, digits, underscore: no quote or operator can
reach ``to_tsquery``), each one single-quoted.  Scores are ``ts_rank`` sums
(larger is better), not SQLite's BM25: recall reads lexical scores relative to
the best of the pool, so the scale does not matter.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import StorageError
from ..records import Memory
from .pg_base import PostgresBase
from .pg_rows import SELECT, SELECT_LIGHT, pg_row_to_memory
from .protocol import MemoryQuery, TermMatches
from .sqlite_rows import ORDER_COLUMNS, WORD

__all__ = ["PostgresQueries"]


#: Words whose "too common to rank" answer is remembered, at most.
_DOC_FREQ_CACHE = 4096


def _or_query(words: Sequence[str]) -> str:
    return " | ".join(f"'{w}'" for w in dict.fromkeys(words))


class PostgresQueries(PostgresBase):
    """Reads: lists, searches, counts."""

    def _memories(self, where: str, params: Sequence[Any], *, light: bool = False) -> list[Memory]:
        base = (SELECT_LIGHT if light else SELECT).format(t=self._t("memories"))
        return [
            pg_row_to_memory(r) for r in self._rows(f"{base} WHERE store = %s {where}", (self.store, *params))
        ]

    def list_memories(self, query: MemoryQuery) -> list[Memory]:
        where: list[str] = []
        params: list[Any] = []
        if query.types is not None:
            if not query.types:
                return []
            where.append(
                f"id IN (SELECT memory_id FROM {self._t('memory_types')} WHERE store = %s AND type = ANY(%s))"
            )
            params += [self.store, list(query.types)]
        for clause, value in (
            ("status = %s", query.status),
            ("pinned = %s", None if query.pinned is None else int(query.pinned)),
            ("created_at >= %s", query.since),
            ("created_at <= %s", query.until),
        ):
            if value is not None:
                where.append(clause)
                params.append(value)
        if query.conversation is not None:
            where.append("(source_session = %s OR source_conversation_ids::jsonb ? %s)")
            params += [query.conversation, query.conversation]
        if query.order_by not in ORDER_COLUMNS:
            raise StorageError(f"cannot order by {query.order_by!r}")
        direction = "DESC" if query.descending else "ASC"
        sql = "".join(f" AND {w}" for w in where) + f" ORDER BY {query.order_by} {direction}, id {direction}"
        if query.limit is not None:
            sql += " LIMIT %s"
            params.append(query.limit)
        if query.offset:
            sql += " OFFSET %s"
            params.append(query.offset)
        return self._memories(sql, params, light=not query.with_embedding)

    def search_text(self, query: str, *, limit: int, max_terms: int | None = None) -> list[str]:
        words = list(dict.fromkeys(WORD.findall(query)))[:max_terms]
        if not words:
            return []
        match = " & ".join(f"'{w}':*" for w in words)  # every word, prefix-matched
        rows = self._rows(
            f"SELECT id FROM {self._t('memories')}, to_tsquery('{self.schema}.lm_text', %s) q "
            "WHERE store = %s AND tsv_content @@ q "
            "ORDER BY ts_rank(tsv_content, q) DESC, created_at LIMIT %s",
            (match, self.store, limit),
        )
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
        """Active memories matching any of ``terms`` (stemmed), best first, scored
        ``rank(content) + context_weight·rank(source message) + reply_weight·rank(reply)``;
        a column with weight 0 is not searched, and a term found in more than
        ``max_doc_freq`` memories is left out (counted up to that many)."""
        words = list(dict.fromkeys(w for t in terms for w in WORD.findall(t)))
        cw, rw = max(0.0, context_weight), max(0.0, reply_weight)
        matching = "(tsv_content @@ q OR (%s AND tsv_source @@ q) OR (%s AND tsv_reply @@ q))"
        if max_doc_freq is not None:
            words = [w for w in words if not self._too_common(w, matching, (cw > 0, rw > 0), max_doc_freq)]
        if not words:
            return []
        rows = self._rows(
            "SELECT id, ts_rank(tsv_content, q) + %s * ts_rank(tsv_source, q) "
            "+ %s * ts_rank(tsv_reply, q) AS s "
            f"FROM {self._t('memories')}, to_tsquery('{self.schema}.lm_text', %s) q "
            f"WHERE store = %s AND status = 'active' AND {matching} ORDER BY s DESC, id LIMIT %s",
            (cw, rw, _or_query(words), self.store, cw > 0, rw > 0, limit),
        )
        return [(r[0], float(r[1])) for r in rows if r[1] > 0]

    def _too_common(self, word: str, matching: str, flags: tuple[bool, bool], max_doc_freq: int) -> bool:
        """Whether more than ``max_doc_freq`` memories hold ``word``.  Counting a common
        word reads its whole posting list (8 ms for one in 10k of 100k memories), so
        the answer is kept until the store's size moves by more than 1%."""
        total = self.count_memories()
        key = (word, flags, max_doc_freq)
        known = self._doc_freqs.get(key)
        if known is None or abs(total - known[1]) > max(50, total // 100):
            known = (self._count_upto(matching, _or_query([word]), flags, max_doc_freq + 1), total)
            self._remember_doc_freq(key, known)
        return known[0] > max_doc_freq

    def _remember_doc_freq(self, key: tuple[str, tuple[bool, bool], int], value: tuple[int, int]) -> None:
        if len(self._doc_freqs) >= _DOC_FREQ_CACHE:
            self._doc_freqs.clear()
        self._doc_freqs[key] = value

    def _count_upto(self, matching: str, query: str, flags: tuple[bool, bool], cap: int) -> int:
        """Memories of this store that ``matching`` accepts for ``query``, counted up to ``cap``."""
        row = self._one(
            f"SELECT count(*) FROM (SELECT 1 FROM {self._t('memories')}, "
            f"to_tsquery('{self.schema}.lm_text', %s) q WHERE store = %s AND {matching} LIMIT %s) x",
            (query, self.store, *flags, cap),
        )
        return int(row[0]) if row else 0

    def term_matches(self, terms: Sequence[str], ids: Sequence[str], *, cap: int = 20_000) -> TermMatches:
        """Per term (a word or a hyphenated phrase, stemmed): how many stored memories
        match it in their content or source message (at most ``cap``), and which
        of ``ids`` do."""
        words = [t for t in dict.fromkeys(terms) if WORD.search(t)]
        if not words:
            return TermMatches(total=0, doc_freq={}, matched={})
        doc_freq: dict[str, int] = {}
        matched: dict[str, frozenset[str]] = {}
        total = self.count_memories()
        t = self._t("memories")
        phrase = f"phraseto_tsquery('{self.schema}.lm_text', %s)"
        for term in words:
            # The count is kept while the store's size holds (see _too_common); which
            # of the asked memories match is read fresh, by their keys.
            key = (f"phrase:{term}", (True, False), cap)
            known = self._doc_freqs.get(key)
            if known is None or abs(total - known[1]) > max(50, total // 100):
                row = self._one(
                    f"SELECT count(*) FROM (SELECT 1 FROM {t}, {phrase} q WHERE store = %s "
                    "AND (tsv_content @@ q OR tsv_source @@ q) LIMIT %s) x",
                    (term, self.store, cap),
                )
                known = (int(row[0]) if row else 0, total)
                self._remember_doc_freq(key, known)
            doc_freq[term] = known[0]
            hits = self._rows(
                f"SELECT id FROM {t}, {phrase} q WHERE store = %s AND id = ANY(%s) "
                "AND (tsv_content @@ q OR tsv_source @@ q)",
                (term, self.store, list(ids)),
            )
            matched[term] = frozenset(r[0] for r in hits)
        return TermMatches(total=total, doc_freq=doc_freq, matched=matched)

    def entity_mentions(self, entity: str, *, limit: int) -> list[str]:
        """Newest first by insertion (``seq``), at most ``limit``."""
        if not WORD.search(entity):
            return []
        rows = self._rows(
            f"SELECT id FROM {self._t('memories')} WHERE store = %s AND status = 'active' "
            f"AND tsv_content @@ phraseto_tsquery('{self.schema}.lm_text', %s) ORDER BY seq DESC LIMIT %s",
            (self.store, " ".join(WORD.findall(entity)), limit),
        )
        return [r[0] for r in rows]

    def existing_ids(self, ids: Sequence[str]) -> set[str]:
        if not ids:
            return set()
        rows = self._rows(
            f"SELECT id FROM {self._t('memories')} WHERE store = %s AND id = ANY(%s)", (self.store, list(ids))
        )
        return {r[0] for r in rows}

    def ids_by_key(self, keys: Sequence[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for key, mid in self._rows(
            f"SELECT key, id FROM {self._t('memories')} WHERE store = %s AND key = ANY(%s) "
            "ORDER BY created_at, id",
            (self.store, list(dict.fromkeys(keys))),
        ):
            out.setdefault(key, []).append(mid)
        return out

    def referencing(self, memory_id: str) -> list[Memory]:
        return self._memories(
            "AND (superseded_by = %s OR temporal_supersedes = %s) ORDER BY created_at, id",
            (memory_id, memory_id),
        )

    def stat_rows(self) -> list[Mapping[str, Any]]:
        cols = (
            "id types base_strength confidence mention_count pinned created_at updated_at "
            "last_reinforced status faded_at event_at"
        ).split()
        out: list[Mapping[str, Any]] = []
        for r in self._rows(
            f"SELECT {', '.join(cols)} FROM {self._t('memories')} WHERE store = %s", (self.store,)
        ):
            d = dict(zip(cols, r, strict=True))
            d["types"] = tuple(json.loads(d["types"]))
            d["pinned"] = bool(d["pinned"])
            out.append(d)
        return out

    def type_counts(self) -> dict[str, int]:
        rows = self._rows(
            f"SELECT type, count(*) FROM {self._t('memory_types')} WHERE store = %s "
            "GROUP BY type ORDER BY type",
            (self.store,),
        )
        return {t: int(n) for t, n in rows}

    def conversation_count(self) -> int:
        t = self._t("memories")
        row = self._one(
            "SELECT count(DISTINCT v) FROM ("
            " SELECT jsonb_array_elements_text(source_conversation_ids::jsonb) AS v"
            f" FROM {t} WHERE store = %s"
            f" UNION SELECT source_session FROM {t} WHERE store = %s AND source_session <> '') x",
            (self.store, self.store),
        )
        return int(row[0]) if row else 0

    def ids_by_attribute(self, attribute: str, *, status: str = "active") -> list[str]:
        rows = self._rows(
            f"SELECT id FROM {self._t('memories')} WHERE store = %s AND attribute = %s AND status = %s",
            (self.store, attribute, status),
        )
        return [r[0] for r in rows]

    def events_between(self, start: int, end: int, limit: int) -> list[str]:
        return self._active_between("event_at", "event_at, id", start, end, limit)

    def created_between(self, start: int, end: int, limit: int) -> list[str]:
        return self._active_between("created_at", "created_at DESC", start, end, limit)

    def _active_between(self, column: str, order: str, start: int, end: int, limit: int) -> list[str]:
        """``column`` and ``order`` are the callers' literals, never user input."""
        rows = self._rows(
            f"SELECT id FROM {self._t('memories')} WHERE store = %s AND status = 'active' "
            f"AND {column} >= %s AND {column} < %s ORDER BY {order} LIMIT %s",
            (self.store, start, end, limit),
        )
        return [r[0] for r in rows]

    def pinned_ids(self) -> list[str]:
        rows = self._rows(
            f"SELECT id FROM {self._t('memories')} WHERE store = %s AND status = 'active' AND pinned = 1",
            (self.store,),
        )
        return [r[0] for r in rows]

    def count_memories(self, status: str | None = None) -> int:
        """From ``store_counts``, which triggers keep (migration ``m002_store_counts``)."""
        if status is None:
            row = self._one(
                f"SELECT COALESCE(SUM(n), 0) FROM {self._t('store_counts')} WHERE store = %s", (self.store,)
            )
        else:
            row = self._one(
                f"SELECT COALESCE(SUM(n), 0) FROM {self._t('store_counts')} WHERE store = %s AND status = %s",
                (self.store, status),
            )
        return int(row[0]) if row else 0

    def max_rowid(self) -> int:
        row = self._one(
            f"SELECT COALESCE(MAX(seq), 0) FROM {self._t('memories')} WHERE store = %s", (self.store,)
        )
        return int(row[0]) if row else 0

    def count_rows_after(self, rowid: int) -> int:
        """Memories inserted after ``rowid`` (``seq``, which only grows on insert)."""
        row = self._one(
            f"SELECT count(*) FROM {self._t('memories')} WHERE store = %s AND seq > %s", (self.store, rowid)
        )
        return int(row[0]) if row else 0

    def size_bytes(self) -> int:
        """Bytes of this store's rows (``pg_column_size``; indexes not counted)."""
        total = 0
        for table in ("memories", "memory_types", "episodes", "edges", "clusters", "bridge_events", "meta"):
            row = self._one(
                f"SELECT COALESCE(SUM(pg_column_size(x.*)), 0) FROM {self._t(table)} x WHERE store = %s",
                (self.store,),
            )
            total += int(row[0]) if row else 0
        return total
