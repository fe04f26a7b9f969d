"""The fragments the attribute patterns are built from (:mod:`.attribute_patterns`):
who a sentence is about, where a value ends, and the words that name no value
("I drive in now" names no car).  Regular-expression text, as data."""

from __future__ import annotations

from .lexicon import PET_KINDS

__all__ = [
    "ADV",
    "COURSE",
    "DEVICE",
    "DEVICE_NAMES",
    "END",
    "HOME_END",
    "HOME_WORDS",
    "INSTITUTION",
    "MONEY",
    "NEG",
    "NOT_A_CAR",
    "NOT_A_PLACE",
    "PETS",
    "PLACE",
    "PLACE_NAME",
    "SERVICE",
    "SERVICE_NOUN",
    "SUBJECT",
    "VALUE",
]

SUBJECT = r"(?:(?P<i>\bi)|\bmy\s+(?P<subj>[a-z\-]+))"
ADV = r"(?:\s+(?:currently|now|still|actually|really|also|just|recently|finally))*"
VALUE = r"(?P<v>[a-z0-9][a-z0-9 .&'\-]{0,60}?)"
END = r"(?=\s*(?:[,.;!?]|\band\b|\bbut\b|\bwith\b|\bsince\b|\bbecause\b|\bfor\b|\bnow\b|$))"
#: A school's name: "Kingston University", "University of Bath", "Imperial College London".
INSTITUTION = (
    r"(?P<v>(?:[a-z][a-z'.&\-]*\s+){1,4}(?:university|college|institute|academy)(?:\s+[a-z][a-z\-]*)?"
    r"|(?:university|college)\s+of\s+[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*){0,2})"
) + END
PETS = "|".join(PET_KINDS)
#: After a home ("a house", not "a house plant"): the end of the clause or where or when it is.
HOME_END = (
    r"(?=\s*(?:[,.;!?]|$)|\s+(?:in|near|on|at|outside|by|with|together|last|this|recently|now|and|but)\b)"
)
#: A place name, and where it ends ("Valencia over the summer", "Cardiff, moving day …").
PLACE_NAME = r"(?P<v>[a-z][a-z'.\-]*(?:\s+[a-z][a-z'.\-]*){0,2}?)"
PLACE = PLACE_NAME + (
    r"(?=\s*(?:[,.;!?]|$)|\s+(?:over|in|last|this|next|on|at|for|since|with|and|but|because|"
    r"after|before|during|near|now|recently|earlier|a|an|the)\b)"
)
#: Words that open a sentence with a capital and name no place ("This is home now.").
NOT_A_PLACE = "this|that|it|here|there|which|what|where|who|he|she|they|the|a|an|my|our|your|his|her|their"
HOME_WORDS = (
    r"(?:place|flat|apartment|house\s+share|house|home|room|studio|condo|cottage|bungalow|maisonette|"
    r"townhouse|(?:one|two|three)-bed(?:room)?|bedsit|new-build|houseshare|narrowboat|houseboat)"
)
#: The phones and computers (and their systems) a platform rule names; each maps to
#: its slot and value in :mod:`.attribute_rules` (``_PLATFORMS``).
DEVICE_NAMES = (
    "windows",
    "linux",
    "ubuntu",
    "macos",
    "mac",
    "macbook",
    "chromebook",
    "iphone",
    "ios",
    "android",
    "pixel",
    "samsung",
    "blackberry",
)
DEVICE = r"(?P<v>" + "|".join(DEVICE_NAMES) + r")\b"
#: Words after "drive" that name no car: where, how or how much one drives.
NOT_A_CAR = (
    r"(?:in|to|into|from|home|back|around|round|down|up|out|off|over|through|for|with|at|on|by|"
    r"everywhere|anywhere|there|here|myself|carefully|safely|slowly|fast|more|less|a lot|lot|lots|now|daily|"
    r"every|each|most|all|the kids|them|him|her|us)"
)
#: A course by its subject and qualification ("a nursing diploma"; not "a new degree"; not
#: "a pottery course": a hobby's course is no second subject of study).
COURSE = (
    r"(?!(?:new|short|online|evening|night|weekend|part-time|full-time|free|intensive|crash|quick|"
    r"first|second|third|final|two-year|one-year)\b)(?P<v>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)\s+"
    r"(?:degree|diploma|qualification|apprenticeship|programme|program)\b"
)
#: An amount of money: "£1,100", "$950", "1100 euros".
MONEY = r"(?P<v>[£$€]\s?\d[\d,]*(?:\.\d{2})?|\d[\d,]*(?:\.\d{2})?\s?(?:pounds|dollars|euros|quid))"
#: A service people buy by contract, and the nouns that may follow it ("phone plan").
SERVICE = (
    r"(?P<attr>phone|mobile|cell|number|broadband|internet|wi-?fi|energy|electricity|gas|mortgage"
    r"|(?:car|home|house|contents|pet|travel|health)\s+insurance)"
)
SERVICE_NOUN = r"(?:\s+(?:plan|contract|provider|network|service|supplier|company|deal|tariff))?"
NEG = r"(?P<neg>\s+(?:no longer|not|never|don't|do not|doesn't|does not))?"
