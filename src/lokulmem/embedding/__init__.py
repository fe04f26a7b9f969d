"""Sentence embeddings: the :class:`Embedder` protocol, the bundled MiniLM, and an LRU cache."""

from .cache import CachedEmbedder
from .minilm import MINILM_MODEL_ID, MiniLMEmbedder
from .protocol import Embedder

__all__ = ["MINILM_MODEL_ID", "CachedEmbedder", "Embedder", "MiniLMEmbedder"]
