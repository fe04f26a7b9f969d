"""Layer 3 — what gets injected (PRD §6, §14): scoring, token budget, injection."""

from .budget import count_tokens, default_token_counter, message_text, validate_history
from .injection import BLOCK_END, BLOCK_START, format_block, format_line, inject, split_system
from .query import key_terms, name_terms
from .scoring import breakdown, explain

__all__ = [
    "BLOCK_END",
    "BLOCK_START",
    "breakdown",
    "count_tokens",
    "default_token_counter",
    "explain",
    "format_block",
    "format_line",
    "inject",
    "key_terms",
    "message_text",
    "name_terms",
    "split_system",
    "validate_history",
]
