"""The learned contradiction signal: a small network over a pair of facts.

Stage 3b of the contradiction pipeline (:mod:`lokulmem.contradiction`).  The
typed-attribute rules catch "I live in Berlin" / "I live in Lisbon"; real
dialogue contradicts itself in ways no rule lists ("I've never left
Europe" / "Our week in Tokyo was far too short").  This
head scores such a pair from what ``learn()`` already has in hand: the two
facts' MiniLM vectors and their texts.  No LLM, no second model run.

* :func:`pair_features` (pure): ``[u⊙v, |u−v|, lexical features]`` for the
  stored fact ``u`` and the new fact ``v``.  The training script
  (``scripts/train_contradiction.py``) calls the same function, so training
  and inference cannot drift apart.
* :class:`PairHead`: one hidden ReLU layer and a logistic output, in numpy.
  :meth:`PairHead.score` is the probability that the new fact contradicts the
  stored one.
* :func:`load_head`: reads the ``.npz`` shipped in ``lokulmem/models/`` after a
  sha256 check; a missing or altered file raises
  :class:`~lokulmem.errors.ModelIntegrityError` naming it.

The model card is ``lokulmem/models/contradiction_head.md``.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .errors import ModelIntegrityError
from .extraction.lexicon import NEGATION_WORDS, SHORT_STOPWORDS, TOPIC_STOPWORDS, normalise_quotes
from .extraction.valence import valence

__all__ = [
    "DEFAULT_HEAD_PATH",
    "DEFAULT_HEAD_SHA256",
    "LEXICAL_FEATURES",
    "PairHead",
    "load_head",
    "pair_features",
]

Vector = npt.NDArray[np.float32]

#: The head shipped with the package, and its sha256 (checked at ``init()``).
DEFAULT_HEAD_PATH = Path(__file__).resolve().parent / "models" / "contradiction_head.npz"
DEFAULT_HEAD_SHA256 = "8ffb4aba57a2ba4f21cf756140c9d4492ac75050ecbf605c2d582d1260fd6ec5"

#: The lexical features after the two vector blocks, in order.
LEXICAL_FEATURES = (
    "cosine",
    "negated_old",
    "negated_new",
    "negation_differs",
    "topic_overlap",
    "numbers_differ",
    "valence_product",
    "valence_gap",
)

#: Buckets of each hashed bag of words (words only in the stored fact; only in the new one).
HASH_BUCKETS = 256

_WORD = re.compile(r"[a-z][a-z'\-]*|\d+(?:[.,]\d+)?")
_NEGATORS = NEGATION_WORDS | frozenset({"never", "n't", "nor", "neither", "hate", "dislike", "anymore"})


def _words(text: str) -> list[str]:
    return _WORD.findall(normalise_quotes(text.lower()))


def _negated(words: list[str]) -> float:
    return 1.0 if any(w in _NEGATORS or w.endswith("n't") for w in words) else 0.0


def _topic(words: list[str]) -> set[str]:
    return {w[:4] for w in words if w.isalpha() and w not in TOPIC_STOPWORDS and w not in SHORT_STOPWORDS}


def _lexical(old: str, new: str, cosine: float) -> list[float]:
    wo, wn = _words(old), _words(new)
    no, nn = _negated(wo), _negated(wn)
    to, tn = _topic(wo), _topic(wn)
    overlap = len(to & tn) / len(to | tn) if to | tn else 0.0
    nums_o = {w for w in wo if w[0].isdigit()}
    nums_n = {w for w in wn if w[0].isdigit()}
    vo, vn = valence(old), valence(new)
    return [
        cosine,
        no,
        nn,
        abs(no - nn),
        overlap,
        1.0 if nums_o and nums_n and nums_o != nums_n else 0.0,
        vo * vn,
        abs(vo - vn),
    ]


def _bucket(word: str) -> int:
    # crc32, not hash(): the same bucket in every process (hash() is salted).
    return zlib.crc32(word.encode()) % HASH_BUCKETS


def _delta(old: str, new: str) -> Vector:
    """Hashed bags of the words only one side has: what the new fact adds or drops
    ("never", "didn't", "hate" against "love")."""
    wo, wn = set(_words(old)), set(_words(new))
    out = np.zeros(2 * HASH_BUCKETS, dtype=np.float32)
    for w in wo - wn:
        out[_bucket(w)] = 1.0
    for w in wn - wo:
        out[HASH_BUCKETS + _bucket(w)] = 1.0
    return out


def pair_features(old_vec: Vector, new_vec: Vector, old_text: str, new_text: str) -> Vector:
    """The head's input for a stored fact and a new one (unit vectors, fact texts):
    ``u⊙v``, ``|u−v|``, :data:`LEXICAL_FEATURES`, then the two hashed word bags."""
    u = np.asarray(old_vec, dtype=np.float32)
    v = np.asarray(new_vec, dtype=np.float32)
    cosine = float(u @ v)
    lexical = np.asarray(_lexical(old_text, new_text, cosine), dtype=np.float32)
    return np.concatenate([u * v, np.abs(u - v), lexical, _delta(old_text, new_text)]).astype(np.float32)


@dataclass(frozen=True, slots=True)
class PairHead:
    """``σ(w₂ · relu(W₁ · ((x − μ) / σ) + b₁) + b₂)``: the probability of a contradiction."""

    mean: Vector
    scale: Vector
    w1: Vector
    b1: Vector
    w2: Vector
    b2: float
    sha256: str

    def score(self, features: Vector) -> float:
        """The probability that the pair behind ``features`` is a contradiction."""
        return float(self.scores(features[None, :])[0])

    def scores(self, features: Vector) -> Vector:
        """Row-wise :meth:`score` for a matrix of feature rows."""
        x = (features - self.mean) / self.scale
        hidden = np.maximum(x @ self.w1 + self.b1, 0.0)
        logits = np.asarray(hidden @ self.w2 + self.b2, dtype=np.float32)
        out: Vector = (1.0 / (1.0 + np.exp(-logits))).astype(np.float32)
        return out


def _sha256(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ModelIntegrityError(f"contradiction model missing: {path} ({exc.strerror})") from None
    return hashlib.sha256(data).hexdigest()


def load_head(path: Path | str = DEFAULT_HEAD_PATH, sha256: str = DEFAULT_HEAD_SHA256) -> PairHead:
    """Read a :class:`PairHead` from ``path`` after checking its sha256."""
    path = Path(path)
    digest = _sha256(path)
    if digest != sha256:
        raise ModelIntegrityError(f"contradiction model {path}: sha256 {digest}, expected {sha256}")
    with np.load(path) as z:
        return PairHead(
            mean=z["mean"].astype(np.float32),
            scale=z["scale"].astype(np.float32),
            w1=z["w1"].astype(np.float32),
            b1=z["b1"].astype(np.float32),
            w2=z["w2"].astype(np.float32),
            b2=float(z["b2"]),
            sha256=digest,
        )
