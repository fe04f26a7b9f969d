import pytest

from lokulmem import Config
from lokulmem.extraction import (
    analyze_text,
    detect,
    extract_attribute,
    extraction_score,
    is_question,
    recurrence,
    specificity,
    split_sentences,
    substance,
    to_user_fact,
    valence,
)


def test_sentences_and_first_person_clauses() -> None:
    assert split_sentences(
        "Hi! I live in Berlin and I work at Acme. Dr. Smith is my GP.\n- I have a cat"
    ) == [
        "Hi!",
        "I live in Berlin",
        "I work at Acme.",
        "Dr. Smith is my GP.",
        "I have a cat",
    ]
    assert split_sentences("   \n ") == []


@pytest.mark.parametrize(
    ("sentence", "fact"),
    [
        ("I live in Berlin", "User lives in Berlin."),
        ("Well, I really love hiking!", "User really loves hiking."),
        ("my sister is Maya", "User's sister is Maya."),
        ("I'm no longer at Acme Corp", "User is no longer at Acme Corp."),
        ("I no longer work at the clinic", "User no longer works at the clinic."),
        ("I don't like cats", "User doesn't like cats."),
        ("I go to the gym every day", "User goes to the gym every day."),
        ("I've been learning Spanish", "User has been learning Spanish."),
    ],
)
def test_facts_read_as_facts_about_the_user(sentence: str, fact: str) -> None:
    assert to_user_fact(sentence) == fact


def test_features_and_specificity() -> None:
    w = Config().specificity_weights
    f = detect("My sister Maya moved to Paris in 2019 and I prefer tea.")
    assert f.person_names == ("Maya",) and "Paris" in f.places_or_orgs
    assert f.number and f.date_time and f.preference and f.possession
    assert specificity(f, w) == 1.0
    plain = detect("that sounds nice")
    assert plain.names == () and specificity(plain, w) == 0.0
    neg = detect("I never eat meat")
    assert neg.negated_preference and not neg.preference


def test_e_score_is_the_prd_formula() -> None:
    c = Config()
    assert recurrence(0, c) == pytest.approx(0.2)
    assert recurrence(4, c) == 1.0
    assert extraction_score(1.0, 0.25, 0.2, c) == pytest.approx(0.35 + 0.45 * 0.25 + 0.2 * 0.2)


def test_attributes_carry_entity_and_value() -> None:
    a = extract_attribute("My sister lives in Paris")
    assert a is not None and (a.key, a.value) == ("sister.residence", "paris")
    b = extract_attribute("I'm no longer at Acme Corp")
    assert b is not None and b.key == "user.employer" and b.negated
    assert extract_attribute("I like pizza") is None  # multi-valued: no conflicts
    assert extract_attribute("I'm at the gym") is None


@pytest.mark.parametrize(
    ("sentence", "key", "value"),
    [
        ("I live alone.", "user.household", "alone"),
        ("I live with my wife and two kids.", "user.household", "wife"),
        ("I moved into my own flat.", "user.household", "own place"),
        ("I'm a Mac user.", "user.platform:computer", "mac"),
        ("I switched to a Pixel.", "user.platform:phone", "android"),
        ("Now I cycle to work.", "user.commute", "bike"),
        ("I have one sister.", "user.count:sisters", "1"),
        ("I'm an only child.", "user.count:siblings", "0"),
        ("I have a dog named Rex.", "user.pet_name:dog", "rex"),
        ("I got a new job at the library.", "user.employer", "library"),
        ("I switched to studying medicine.", "user.study", "medicine"),
        ("I live near the beach.", "user.residence", "beach"),
    ],
)
def test_more_single_valued_slots(sentence: str, key: str, value: str) -> None:
    a = extract_attribute(sentence)
    assert a is not None and (a.key, a.value) == (key, value)


def test_types_questions_and_valence() -> None:
    c = Config(custom_types=({"name": "medical", "decay_lambda": 0.00005, "keywords": ["allergy"]},))  # type: ignore[arg-type]
    a = analyze_text("My sister Maya lives in Paris", c)
    assert {"relational", "location"} <= set(a.rule_types)
    assert "medical" in analyze_text("I have a peanut allergy", c).rule_types
    assert "emotional" in analyze_text("I'm so stressed about work", c).rule_types
    assert is_question("Where do I live?") and not is_question("I live in Berlin.")
    assert valence("I am so happy and excited!") > 0.6
    assert valence("I'm not happy") < 0
    assert valence("The meeting is at noon") == 0.0


@pytest.mark.parametrize(
    "sentence",
    ["I'm just watching The Office again.", "I am a huge Game of Thrones fan.", "My fave show is Friends."],
)
def test_what_one_watches_is_a_preference(sentence: str) -> None:
    assert "preference" in analyze_text(sentence, Config()).rule_types


@pytest.mark.parametrize(
    ("sentence", "temporal"),
    [
        ("I have a job interview on Friday", True),
        ("I'm going on a trip next month", True),
        ("My flight leaves tomorrow", True),
        ("Last Friday I went to a council meeting", False),
        ("I took a short trip to Rome last week", False),
        ("I had my driving exam two weeks ago", False),
    ],
)
def test_past_events_are_not_temporal_context(sentence: str, temporal: bool) -> None:
    # PRD §7 temporal = time-sensitive context ("this week", deadlines); an
    # event told in the past is history, not an upcoming appointment.
    assert ("temporal" in analyze_text(sentence, Config()).rule_types) is temporal


def test_substance_counts_content_beside_the_transient_cue() -> None:
    assert substance("I'm so excited too", ["emotional"]) == 0
    assert substance("Maya is excited and kinda nervous", ["emotional"]) == 0
    n = substance("I felt super powerful giving my talk at the school", ["emotional"])
    assert n >= 4  # powerful, giving, talk, school
    # Capitalised words inside the sentence are names and do not count.
    assert substance("I'm happy for Caroline and Melanie", ["emotional"]) == 0
