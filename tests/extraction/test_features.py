"""Rule-based NER features and specificity (``lokulmem.extraction.features``)."""

from lokulmem import Config
from lokulmem.extraction import (
    detect,
    specificity,
)


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


def test_a_self_statement_may_open_with_a_lead_in() -> None:
    for text in (
        "It turns out I'm allergic to peanuts.",
        "Turns out my sister is pregnant.",
        "To be honest, I hate jazz.",
        "By the way, my dog is sick.",
        "Well, I moved.",
        "These days I work as a yoga instructor.",
        "Last week my brother got engaged.",
        "Nowadays, I cycle everywhere.",
    ):
        assert detect(text).self_statement, text
    for text in (
        "It turns out the shop is closed.",
        "I think so.",
        "Honestly, I think so.",
        "These days prices are wild.",
    ):
        assert not detect(text).self_statement, text


def test_a_name_after_a_role_is_a_person() -> None:
    assert detect("Our landlady Maureen lives downstairs.").person_names == ("Maureen",)
    assert detect("My dentist Okafor is lovely.").person_names == ("Okafor",)


def test_a_child_named_by_place_in_the_family_is_a_person() -> None:
    assert detect("Our eldest, Rosie, is in year 9.").person_names == ("Rosie",)


def test_a_name_before_news_is_a_person() -> None:
    """ "Callum's got a job": a capitalised word and "'s" before a word of news opens
    someone's news, whatever the list of first names; common words do not."""
    assert detect("Callum's got an onshore job in Aberdeen now.").person_names == ("Callum",)
    assert detect("Imogen's expecting in June.").person_names == ("Imogen",)
    for sentence in (
        "Everyone's got a cold.",
        "Work's been mad.",
        "London's got great museums.",
        "It's got a garden.",
    ):
        assert detect(sentence).person_names == (), sentence
