"""Argument checks of ``learn()`` and ``augment()``: typed errors naming the argument."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..config import Config
from ..errors import ValidationError
from ..hygiene import check_id, check_text
from ..records import Source
from ..retrieval import validate_history

__all__ = ["AugmentArgs", "LearnArgs", "check_ident", "check_str"]


def check_str(name: str, value: object, limit: int | None = None) -> str:
    """``value`` as clean text (``lokulmem.hygiene.clean_text``), cut at ``limit``."""
    return check_text(name, value, limit)


def check_ident(config: Config, name: str, value: object) -> str:
    """``value`` as an identifier (``lokulmem.hygiene.check_id``)."""
    return check_id(name, value, config.max_id_chars)


def _type_names(name: str, value: object) -> None:
    if (
        isinstance(value, str)
        or not isinstance(value, Iterable)
        or not all(isinstance(t, str) for t in value)
    ):
        raise ValidationError(name, "must be a list of type names")


@dataclass(frozen=True)
class LearnArgs:
    """Validated ``learn()`` arguments, the message cut at ``max_message_chars``."""

    text: str
    response: str
    session_id: str | None
    force: bool
    skip: frozenset[str]
    in_reply_to: str | None
    truncated: bool
    #: ``direct`` for ``learn()``, ``reasoning`` for ``remember()``.
    origin: Source = "direct"

    @classmethod
    def parse(
        cls,
        config: Config,
        user_message: object,
        assistant_response: object,
        *,
        session_id: object,
        force_extract: bool,
        skip_types: Sequence[str],
        in_reply_to: object,
    ) -> LearnArgs:
        if not isinstance(user_message, str):
            raise ValidationError("user_message", f"must be a string, got {type(user_message).__name__}")
        text = check_str("user_message", user_message, config.max_message_chars)
        response = ""
        if assistant_response is not None:
            # The end of a reply is what the user answers: keep the last characters.
            response = check_str("assistant_response", assistant_response)
            response = response[-config.max_message_chars :]
        # The message the user answered (text, not an id): its end is what counts.
        reply = None
        if in_reply_to is not None:
            reply = check_str("in_reply_to", in_reply_to)[-config.max_message_chars :]
        session = None if session_id is None else check_ident(config, "session_id", session_id)
        _type_names("skip_types", skip_types)
        return cls(
            text=text,
            response=response,
            session_id=session,
            force=force_extract,
            skip=frozenset(skip_types),
            in_reply_to=reply,
            truncated=len(user_message) > config.max_message_chars,
        )


@dataclass(frozen=True)
class AugmentArgs:
    """Validated ``augment()`` arguments with the config's defaults filled in."""

    text: str
    history: list[Mapping[str, Any]]
    limit: int
    floor: float
    type_filter: frozenset[str] | None
    #: Inject only memories with evidence of relevance (``require_evidence``).
    evidence: bool = True
    #: Push proactive memories (``include_proactive``; default: on the first turn).
    proactive: bool = False
    #: Add the most similar past conversation (``include_episodes``).
    episodes: bool = True

    @classmethod
    def parse(
        cls,
        config: Config,
        message: object,
        history: object,
        *,
        max_memories: object,
        min_relevance: object,
        types: Sequence[str] | None,
        require_evidence: object = None,
        include_proactive: object = None,
        include_episodes: object = True,
    ) -> AugmentArgs:
        text = check_str("message", message)
        hist = validate_history(history, config)
        if max_memories is not None and (
            not isinstance(max_memories, int) or isinstance(max_memories, bool) or max_memories < 0
        ):
            raise ValidationError("max_memories", "must be an integer >= 0")
        if min_relevance is not None and (
            not isinstance(min_relevance, (int, float)) or not 0.0 <= float(min_relevance) <= 1.0
        ):
            raise ValidationError("min_relevance", "must be a number in [0, 1]")
        if types is not None:
            _type_names("types", types)
        for name, flag in (("require_evidence", require_evidence), ("include_proactive", include_proactive)):
            if flag is not None and not isinstance(flag, bool):
                raise ValidationError(name, "must be True, False or None")
        if not isinstance(include_episodes, bool):
            raise ValidationError("include_episodes", "must be True or False")
        # The first turn of a conversation: no user or assistant turn before it.
        first = not any(m.get("role") in ("user", "assistant") for m in hist)
        return cls(
            text=text,
            history=hist,
            limit=config.max_memories if max_memories is None else max_memories,
            floor=config.min_relevance if min_relevance is None else float(min_relevance),
            type_filter=frozenset(types) if types is not None else None,
            evidence=config.require_evidence if require_evidence is None else bool(require_evidence),
            proactive=first if include_proactive is None else bool(include_proactive),
            episodes=include_episodes,
        )
