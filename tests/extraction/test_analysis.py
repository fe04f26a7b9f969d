"""A sentence's analysis and the E(s) score (``lokulmem.extraction``)."""

import pytest

from lokulmem import Config
from lokulmem.extraction import (
    analyze_text,
    extraction_score,
    is_question,
    recurrence,
    valence,
)


def test_e_score_is_the_prd_formula() -> None:
    c = Config()
    assert recurrence(0, c) == pytest.approx(0.2)
    assert recurrence(4, c) == 1.0
    assert extraction_score(1.0, 0.25, 0.2, c) == pytest.approx(0.35 + 0.45 * 0.25 + 0.2 * 0.2)


def test_types_questions_and_valence() -> None:
    c = Config(custom_types=({"name": "medical", "decay_lambda": 0.00005, "keywords": ["allergy"]},))  # type: ignore[arg-type]
    a = analyze_text("My sister Maya lives in Paris", c)
    assert {"relational", "location"} <= set(a.rule_types)
    assert "medical" in analyze_text("I have a severe peanut allergy", c).rule_types
    assert "emotional" in analyze_text("I'm so stressed about work", c).rule_types
    assert is_question("Where do I live?") and not is_question("I live in Berlin.")
    assert valence("I am so happy and excited!") > 0.6
    assert valence("I'm not happy") < 0
    assert valence("The meeting is at noon") == 0.0


def test_a_slot_of_the_users_own_told_without_i_is_about_the_user() -> None:
    c = Config()
    home = analyze_text("Phoenix is home now, the heat is brutal.", c)
    assert home.attribute is not None and home.attribute.key == "user.residence"
    assert home.features.self_statement and not home.impersonal
    assert home.specificity == pytest.approx(c.specificity_weights.self_statement)
    world = analyze_text("Water boils at 100 degrees.", c)
    assert world.impersonal and not world.features.self_statement


def test_a_slot_without_a_content_word_is_a_fact_not_chitchat() -> None:
    # "I'm 34." has no word of three letters, but it sets the user's age.
    a = analyze_text("I'm 34.", Config())
    assert a.attribute is not None and a.attribute.key == "user.age"
    assert not a.chitchat
    assert analyze_text("Thanks, Dana!", Config()).chitchat
