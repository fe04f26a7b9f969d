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
