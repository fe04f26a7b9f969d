import dataclasses
from pathlib import Path

import pytest

from lokulmem import Config, ConfigError, CustomType, LokulMem, MiniLMEmbedder
from lokulmem.config import from_options


def test_tuned_defaults_differ_from_the_prd_only_where_documented() -> None:
    tuned, prd = Config(), Config.prd()
    assert tuned.extraction_threshold == 0.30 and prd.extraction_threshold == 0.45
    w = tuned.retrieval_weights
    assert (w.semantic, w.recency, w.strength, w.continuity, w.lexical) == (0.50, 0.025, 0.0, 0.15, 0.25)
    assert prd.retrieval_weights.lexical == 0.0 and prd.novelty_floor == 0.0
    assert tuned.skip_chitchat and not prd.skip_chitchat
    assert tuned.cluster_bonus == 0.01 and prd.cluster_bonus == 0.05
    tuning = (Path(__file__).resolve().parents[1] / "docs" / "tuning.md").read_text()
    changed = [f.name for f in dataclasses.fields(Config) if getattr(tuned, f.name) != getattr(prd, f.name)]
    assert "lexical_reply_weight" in changed
    for name in changed:
        assert f"`{name}" in tuning, f"{name} differs from the PRD but docs/tuning.md does not say why"


def test_prd_defaults() -> None:
    c = Config.prd()
    assert c.extraction_threshold == 0.45
    assert (
        c.extraction_weights.novelty,
        c.extraction_weights.specificity,
        c.extraction_weights.recurrence,
    ) == (0.35, 0.45, 0.20)
    w = c.retrieval_weights
    assert (w.semantic, w.recency, w.strength, w.continuity) == (0.40, 0.20, 0.25, 0.15)
    assert c.recurrence_similarity == 0.85
    assert c.contradiction_similarity == 0.80
    assert c.min_relevance == 0.30
    assert c.recency_rate == 0.005
    assert c.reinforcement_step == 0.3 and c.max_strength == 3.0
    assert c.fade_threshold == 0.1 and c.purge_after_days == 30
    assert c.hnsw_threshold == 3000 and c.embedding_cache_size == 1000
    assert Config().hnsw_threshold == 20_000  # tuned: docs/tuning.md entry 28
    assert c.context_window_size == 4096 and c.response_buffer == 512
    assert c.lambdas["identity"] == 0.0001 and c.lambdas["temporal"] == 0.02
    assert "used to" in c.temporal_markers and "gave up" in c.temporal_markers
    sw = c.specificity_weights
    assert (
        sw.person_name,
        sw.place_or_org,
        sw.number,
        sw.preference,
        sw.date_time,
        sw.negated_preference,
        sw.possession,
    ) == (0.30, 0.25, 0.20, 0.25, 0.20, 0.20, 0.10)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"extraction_threshold": 1.5}, "extraction_threshold"),
        ({"min_relevance": -0.1}, "min_relevance"),
        ({"retrieval_weights": {"semantic": -1.0}}, "retrieval_weights.semantic"),
        ({"extraction_weights": {"novelty": float("nan")}}, "extraction_weights.novelty"),
        ({"context_window_size": 0}, "context_window_size"),
        ({"response_buffer": 5000}, "response_buffer"),
        ({"decay_model": "cubic"}, "decay_model"),
        ({"custom_types": [{"name": "medical"}]}, "custom_types[0].decay_lambda"),
        ({"custom_types": [{"name": "identity", "decay_lambda": 0.1}]}, "custom_types[0].name"),
        ({"no_such_option": 1}, "no_such_option"),
        ({"vector_storage": "bfloat16"}, "vector_storage"),
        ({"ann_dtype": "f64"}, "ann_dtype"),
        ({"ann_min_recall": 1.5}, "ann_min_recall"),
    ],
)
def test_invalid_values_name_the_field(options: dict[str, object], field: str) -> None:
    with pytest.raises(ConfigError) as info:
        from_options(None, options)
    assert info.value.field == field
    assert field in str(info.value)


def test_overrides_and_custom_types() -> None:
    c = from_options(
        None,
        {
            "extraction_threshold": 0.5,
            "retrieval_weights": {"semantic": 0.5},
            "custom_types": [{"name": "medical", "decay_lambda": 0.00005, "keywords": ["doctor"]}],
        },
    )
    assert c.extraction_threshold == 0.5
    assert c.retrieval_weights.semantic == 0.5 and c.retrieval_weights.recency == 0.025
    assert c.custom_types == (CustomType(name="medical", decay_lambda=0.00005, keywords=("doctor",)),)
    assert c.lambdas["medical"] == 0.00005
    assert c.replace(min_relevance=0.2).min_relevance == 0.2


def test_client_rejects_bad_options_before_touching_anything(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError):
        LokulMem(path=tmp_path / "x.sqlite", extraction_threshold=2)
    with pytest.raises(ConfigError):
        LokulMem(storage="redis")  # type: ignore[arg-type]
    assert not (tmp_path / "x.sqlite").exists()


def test_switches_must_be_booleans() -> None:
    with pytest.raises(ConfigError, match="context_once"):
        Config(context_once="yes")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="skip_chitchat"):
        Config(skip_chitchat=1)  # type: ignore[arg-type]
    assert Config(context_once=False).context_once is False


def test_max_embedding_tokens_reaches_the_model(embedder: MiniLMEmbedder) -> None:
    # Two texts that differ only after the 8th token embed the same when truncated at 8.
    same = "my sister lives in a small town near the sea and"
    a, b = same + " she teaches piano to children", same + " he repairs old bicycles for fun"
    full = embedder.embed([a, b])
    assert float(full[0] @ full[1]) < 0.99
    with LokulMem(storage="memory", max_embedding_tokens=8, embedder="minilm") as short:
        first = short.learn(a, force_extract=True).extracted[0]
        second = short.learn(b, force_extract=True)
    # [CLS] + six word pieces + [SEP]: the vector of the content's first words.
    (prefix,) = embedder.embed(["User's sister lives in"])
    assert first.content.startswith("User's sister lives in a small town")
    assert first.embedding is not None and float(first.embedding @ prefix) > 0.9999
    # b differs from a only after the 8th token: the same vector, so a restatement.
    assert second.extracted == () and len(second.reinforced) == 1


def test_knobs_that_nothing_reads_are_gone_or_bounded() -> None:
    with pytest.raises(ConfigError, match="medium_confidence_strength"):
        from_options(None, {"medium_confidence_strength": 0.8})
    with pytest.raises(ConfigError, match="max_embedding_tokens"):
        Config(max_embedding_tokens=513)


def test_every_number_field_carries_its_check_and_names_itself_when_bad() -> None:
    # Validation sits beside each field (unit / nonneg / posint / count); the
    # few numbers without one are checked against other fields in validate().
    related = {"cluster_seed", "cluster_k_divisor"}
    checked = 0
    for f in dataclasses.fields(Config):
        if f.type not in ("float", "int"):
            continue
        if f.name in related:
            assert "check" not in f.metadata, f.name
            continue
        assert "check" in f.metadata, f"{f.name} has no validator beside it"
        with pytest.raises(ConfigError, match=f.name):
            Config(**{f.name: -1})
        checked += 1
    assert checked > 50


@pytest.mark.parametrize(
    "name",
    ["temporal_markers", "weak_temporal_markers", "ending_phrases", "role_ending_phrases", "ending_roles"],
)
def test_a_phrase_list_given_as_one_string_is_refused(name: str) -> None:
    """tuple("used to") would be its letters: one string is a clear error instead."""
    with pytest.raises(ConfigError, match=f"{name}: must be a sequence of strings"):
        Config(**{name: "used to {}"})
