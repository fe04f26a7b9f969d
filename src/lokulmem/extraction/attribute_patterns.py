"""The attribute rules' patterns, as data: one ``(name, regular expression)`` per
way a sentence sets a single-valued attribute.

Named groups: ``v`` the value, ``subj`` whose attribute ("my sister"), ``attr``
a qualifier (the pet in "my dog is called Rex"), ``neg`` a negation.  How a
match is finished into ``(attribute, value)`` (tails cut, names required,
values normalised) is :mod:`lokulmem.extraction.attribute_rules`'s.  Patterns
are tried in this order, case-insensitively.
"""

from __future__ import annotations

from .attribute_fragments import (
    ADV,
    DEVICE,
    DEVICE_NAMES,
    END,
    HOME_WORDS,
    NEG,
    NOT_A_PLACE,
    PLACE,
    PLACE_NAME,
    SUBJECT,
    VALUE,
)
from .attribute_patterns_daily import DAILY_PATTERNS
from .attribute_patterns_life import LIFE_PATTERNS
from .attribute_patterns_services import SERVICE_PATTERNS
from .lexicon import BUSINESSES, MONTHS

__all__ = ["PATTERNS"]


#: Who one lives with and where, work, the platform one uses, name and age.
_HOME_AND_WORK: tuple[tuple[str, str], ...] = (
    # Who one lives with: "I live alone" / "I live with my mum and dad" / "I moved out".
    # Alone is alone whatever follows ("I live alone in a studio").
    ("household", r"\bi" + ADV + r"\s+(?:live|living)\s+(?P<v>alone|by myself|on my own)\b"),
    (
        "household",
        r"\b(?:i|we)"
        + ADV
        + r"\s+(?:live|living)\s+(?P<v>alone|by myself|on my own|with\s+[a-z' \-]{2,40}?)"
        + END,
    ),
    (
        "household",
        r"\bi" + ADV + r"\s+(?:moved|moving)\s+(?:out(?:\s+(?:into|to))?|into|to)\s+"
        r"(?:a\s+place\s+of\s+my\s+own|my\s+own\s+(?P<v>place|apartment|flat|house|home))\b",
    ),
    # "We finally got our own place": the couple's own, no one else's.
    (
        "household",
        r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:got|found|bought)\s+(?:my|our)\s+own\s+"
        r"(?P<v>place|apartment|flat|house|home)\b",
    ),
    # "I have the place to myself now": the others moved out.
    (
        "household_alone",
        r"\bi(?:'ve|\s+have)?\s+(?:now\s+|finally\s+)?(?:got|have)\s+the\s+(?:place|flat|house|apartment|home)"
        r"\s+(?:all\s+)?to\s+myself(?=\s*(?:[,.;!?]|$)|\s+(?:now|these\s+days|nowadays|at\s+last)\b)",
    ),
    # A shared house: "I moved into a house share with two friends.", "I'm in a flat
    # share now." (the household is the share, whoever is in it).
    (
        "household",
        r"\b(?:i|we)(?:'m|\s+am|'ve|\s+have)?"
        + ADV
        + r"\s+(?:moved\s+into|moving\s+into|in|live\s+in|living\s+in)"
        r"\s+(?:a|an)\s+(?:new\s+)?(?P<v>(?:house|flat)[- ]?share)\b",
    ),
    # Someone moved in: "My girlfriend moved in with me" (the household is with her).
    (
        "household",
        r"\bmy\s+(?P<v>[a-z\-]+)\s+(?:just\s+|finally\s+)?(?:moved|has moved|is moving)\s+in\s+with\s+me\b",
    ),
    (
        "residence",
        SUBJECT
        + r"(?:'m|\s+am|\s+is|'s)?"
        + NEG
        + ADV
        + r"(?:\s+used to)?\s+(?:live|lives|living|reside|resides|residing|based|"
        + r"stay|stays|staying)\s+(?:in|near|by|on)\s+"
        + VALUE
        + END,
    ),
    # The present perfect holds now: "I've lived in Denver all my life", "I have
    # been living in Leeds since 2019" (not the simple past: "I lived in Paris").
    (
        "residence_perfect",
        SUBJECT
        + r"(?:'ve|\s+have|'s|\s+has)"
        + ADV
        + r"\s+(?:lived|been\s+living|resided|been\s+based)\s+(?:in|near)\s+"
        + r"(?P<v>[a-z][a-z'.\-]*(?:\s+[a-z][a-z'.\-]*){0,2}?)"
        + r"(?=\s*(?:[,.;!?]|$)|\s+(?:my|all|most|for|since|ever|now|and|but|with|because)\b)",
    ),
    # "I moved to Leeds", "moved down to brighton last month" (chat drops the "I");
    # "moved over to Neovim" is a tool.
    (
        "residence",
        SUBJECT
        + ADV
        + r"\s+(?:just\s+)?(?:moved|relocated)\s+(?:(?:down|up|back|out|across)\s+)?"
        # "moved from Leeds to Newcastle": where one went is the home.
        + r"(?:from\s+[a-z][a-z'.\-]*(?:\s+[a-z][a-z'.\-]*){0,2}?\s+)?to\s+"
        # Not a thing one moves to ("moved to Android", "moved to a new team").
        + r"(?!(?:a|an|new|my|our|the\s+new|"
        + "|".join(DEVICE_NAMES)
        + r")\b)"
        + VALUE
        + END,
    ),
    # "We finally made the move down to Bristol." (a move, said as one).
    (
        "residence",
        r"\b(?P<i>i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:made|make)\s+the\s+(?:big\s+)?move\s+"
        r"(?:(?:down|up|back|out|across|over)\s+)?to\s+(?!(?:a|an|new|my|our|the)\b)" + VALUE + END,
    ),
    ("residence", r"\bmy\s+(?:home|house|apartment|flat)\s+is\s+in\s+(?P<v>[a-z0-9 .'\-]{1,60}?)" + END),
    # Home told by the place ("Home for me is a flat in Porto.", "Phoenix is home now."),
    # by the lease ("Just signed the lease on a place in Cardiff."), by the rent ("I
    # rent a room in Bristol.", "I'm renting a one-bed flat in Leeds."), or by a
    # couple's move ("We relocated to Valencia."): a place name each time.
    (
        "residence_now",
        r"\bhome(?:\s+for\s+(?:me|us))?\s+is\s+(?:now\s+)?(?:an?\s+[a-z' \-]{1,40}?\s+)?in\s+" + PLACE,
    ),
    (
        "residence_now",
        r"\b(?!(?:" + NOT_A_PLACE + r")\b)" + PLACE_NAME + r"\s+is\s+(?:my\s+|our\s+)?home\s+now\b",
    ),
    # "Home for me is Bristol, near the harbour.", "Newcastle really feels like home now."
    ("residence_now", r"\bhome\s+for\s+(?:me|us)\s+is\s+(?:now\s+)?(?!(?:an?|the|my|our)\b)" + PLACE),
    (
        "residence_now",
        r"\b(?!(?:"
        + NOT_A_PLACE
        + r")\b)"
        + PLACE_NAME
        + r"\s+(?:really\s+|finally\s+|now\s+|already\s+|properly\s+)*feels\s+like\s+(?:my\s+|our\s+)?home\b",
    ),
    (
        "residence_now",
        r"\bsign(?:ed|ing)\s+(?:the|a|our|my)\s+lease\s+(?:on|for)\s+(?:an?\s+|the\s+)?(?:new\s+)?"
        + HOME_WORDS
        + r"\s+in\s+"
        + PLACE,
    ),
    (
        "residence_now",
        r"\b(?:i(?:'m|\s+am)?|we(?:'re|\s+are)?)\s+(?:now\s+|currently\s+|still\s+)?(?:rent|renting)\s+"
        r"(?:an?|the)\s+"
        r"(?:[a-z0-9\-]+\s+)?"
        + HOME_WORDS
        # "a studio above a bakery in Hackney", "a room in a house share in Peckham"
        + r"(?:\s+(?:above|over|behind|near|next\s+to|off|in)\s+(?:an?|the)\s+[a-z\-]+(?:\s+share)?)?\s+in\s+"
        + PLACE,
    ),
    ("residence_now", r"\bwe(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?relocated\s+to\s+" + PLACE),
    # ... or by the home one got: "got my own place in Neukölln", "We bought our first
    # house in Leeds", "We got the keys to our new flat in York" ("a holiday house in
    # Spain" is not a home named so).
    (
        "residence_now",
        r"\b(?:got|bought|found|moved\s+into|completed\s+on|got\s+the\s+keys?\s+(?:to|for))\s+(?:my|our|a|an)\s+"
        r"(?:(?:own|new|first|little|small)\s+)*"
        + HOME_WORDS
        + r"(?:\s+(?:that\s+)?(?:we|i)(?:'ve|\s+have)?\s+(?:just\s+)?(?:bought|found|got|rented))?\s+in\s+"
        + PLACE,
    ),
    # "We're in a cottage outside Bath now.", "I'm now in a flat near Leeds.": the home
    # one is in, said with "now" (without it, a stay: "we're in a cottage in Devon").
    (
        "residence_now",
        r"\b(?:i(?:'m|\s+am)|we(?:'re|\s+are))\s+now\s+(?:living\s+)?in\s+(?:an?|our|my)\s+"
        r"(?:[a-z\-]+\s+){0,2}?" + HOME_WORDS + r"\s+(?:in|outside|near)\s+" + PLACE,
    ),
    (
        "residence_now",
        r"\b(?:i(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:living\s+)?in\s+(?:an?|our|my)\s+"
        r"(?:[a-z\-]+\s+){0,2}?" + HOME_WORDS + r"\s+(?:in|outside|near)\s+" + PLACE_NAME + r"\s+now\b",
    ),
    # "I'm in Vancouver now" / "I'm now in Vancouver": a place name, said with "now".
    ("residence_now", r"\bi(?:'m|\s+am)\s+in\s+(?P<v>[a-z][a-z'.\-]*(?:\s+[a-z][a-z'.\-]*){0,3}?)\s+now\b"),
    ("residence_now", r"\bi(?:'m|\s+am)\s+now\s+(?:in|based in|living in)\s+" + VALUE + END),
    (
        "employer",
        SUBJECT
        + r"(?:'m|\s+am|\s+is|'s)?"
        + NEG
        + ADV
        + r"\s+(?:work|works|working|employed|interning|intern)\s+(?:at|for|by|with)\s+"
        + VALUE
        + END,
    ),
    (
        "employer_at",
        SUBJECT
        + r"(?:'m|\s+am|\s+is|'s)"
        + r"(?P<neg>\s+(?:no longer|not))?"
        + r"\s+(?:at|with)\s+(?P<v>[A-Z][A-Za-z0-9&'.\-]*(?:\s+[A-Z][A-Za-z0-9&'.\-]*)*)"
        + END,
    ),
    (
        "employer",
        SUBJECT + ADV + r"\s+(?:joined|started at|got hired at|got a job at)\s+" + VALUE + END,
    ),
    # A new job's first day, said ahead: "I start at Canva on Monday.", "I'm starting
    # at the BBC next week." (a name or an employer word: "I start at 9" is a time).
    (
        "employer_start",
        r"\bi(?:'m|\s+am)?"
        + ADV
        + r"\s+(?:start|starting)\s+(?:my\s+(?:new\s+)?job\s+)?at\s+(?:the\s+)?"
        + VALUE
        + END,
    ),
    # "On Monday I join KPMG.", "I'm joining Arup in May": said with when (a name or an
    # employer word; "I'm joining Sarah for lunch" is said with what for, and sets nothing).
    (
        "employer_start",
        r"\bi(?:'m|\s+am|'ll|\s+will)?" + ADV + r"\s+(?:be\s+)?(?:join|joining)\s+(?:the\s+)?"
        r"(?P<v>[a-z0-9][a-z0-9&'.\-]*(?:\s+(?!(?:for|with|to|at|and|but|in|on)\b)[a-z0-9][a-z0-9&'.\-]*){0,3}?)"
        r"(?=\s*(?:[.;!?]|$)|\s+(?:on|from|next|this|tomorrow|today|after|as|once|soon|in\s+(?:"
        + "|".join(MONTHS[:12])
        + r"|the\s+new\s+year|a\s+(?:week|fortnight|month)|\w+\s+weeks))\b)",
    ),
    # "First day at Canva tomorrow!" (the "My" chat drops is put back before rules read).
    ("employer_start", r"\bmy\s+first\s+(?:day|week)\s+(?:at|with)\s+(?:the\s+)?" + VALUE + END),
    # "Last day at Deloitte today!": the employer one leaves (a name).
    ("employer_left", r"\bmy\s+(?P<neg>last)\s+day\s+(?:at|with)\s+" + VALUE + END),
    # "I accepted an offer from Bosch": a job offer, taken (a name: "an offer from a buyer" is none).
    (
        "employer",
        r"\bi" + ADV + r"\s+accepted\s+(?:an|the|a\s+job|a\s+job\s+offer|their)\s*(?:offer\s+)?"
        r"(?:from|at|with)\s+" + VALUE + END,
    ),
    # "I left Deloitte and joined KPMG": the employer is the one joined.
    (
        "employer",
        r"\bi\s+(?:left|quit)\s+[^,.;!?]{1,60}?\s+(?:and|to)\s+(?:joined|started at)\s+" + VALUE + END,
    ),
    (
        "employer",
        r"\bi\s+(?:\w+\s+)?(?:to|got|have|found|took|started|began)\s+(?:a\s+|my\s+|the\s+)?"
        r"(?:new\s+)?job\s+(?:at|with)\s+" + VALUE + END,
    ),
    ("job", SUBJECT + ADV + r"\s+(?:work|works|working)\s+as\s+(?:an?\s+)?" + VALUE + END),
    # The platform one uses: "I use an iPhone" / "I switched to Android" / "I'm a Mac user" /
    # "I'm on a Pixel".
    (
        "platform",
        r"\bi" + ADV + r"(?:\s+(?:use|uses|using|own|have|switched to|changed to|moved to|upgraded to|got)|"
        r"'m\s+(?:an?\s+|on\s+)|\s+am\s+(?:an?\s+|on\s+))\s*(?:an?\s+|the\s+|my\s+)?" + DEVICE,
    ),
    # "My new Pixel 9 arrived today": the new one is the one in use.
    ("platform", r"\bmy\s+(?:brand\s+)?new\s+" + DEVICE),
    # "Finally replaced the ThinkPad with a MacBook Air.": the machine that replaced it.
    (
        "platform",
        r"\b(?:replaced|swapped|traded\s+in)\s+(?:my|the|our)\s+[^,.;!?]{1,30}?\s+(?:with|for)\s+"
        r"(?:an?\s+|the\s+)?(?:new\s+|shiny\s+)?" + DEVICE,
    ),
    # "I switched my dev machine to Windows.", "I do my coding on Linux."
    (
        "platform",
        r"\bi" + ADV + r"\s+(?:(?:switched|moved|changed|put)\s+(?:my|our)\s+(?:[a-z\-]+\s+){0,2}?"
        r"(?:machine|laptop|computer|pc|desktop|phone)\s+(?:over\s+)?to|(?:code|program|develop|work)\s+on|"
        r"do\s+(?:my|all\s+my|most\s+of\s+my)\s+(?:coding|programming|work|dev\s+work)\s+on)\s+" + DEVICE,
    ),
    # How one gets to work: "I take the bus to work" / "I cycle to work".
    (
        "commute",
        r"\bi" + ADV + r"\s+(?:(?:take|takes|ride|catch|get)\s+(?:the\s+|a\s+|my\s+)?(?P<v>bus|train|subway|"
        r"metro|tram|ferry|bike|tube|underground)|(?P<v2>cycle|bike|walk|drive|run|commute by \w+))\s+to\s+"
        r"(?:work|the office|school)\b",
    ),
    # ... said while it lasts: "I'm cycling to school instead of driving", "I've been
    # taking the train to the office".
    (
        "commute",
        r"\bi(?:'m|\s+am|'ve\s+been|\s+have\s+been)" + ADV + r"\s+(?:(?:taking|riding|catching|getting)\s+"
        r"(?:the\s+|a\s+)?(?P<v>bus|train|subway|metro|tram|ferry|bike)|(?P<v2>cycling|biking|walking|"
        r"driving|running))\s+(?:(?:in\s+)?to\s+(?:work|the office|school)\b|in(?=\s*(?:[,.;!?]|$)))",
    ),
    # ... or as a habit, with no destination: "Now I take the tram.", "I take the bus
    # these days." (a clause that ends there: "I take the train to see my mum" is a trip).
    (
        "commute",
        r"\bi" + ADV + r"\s+(?:take|ride|catch)\s+(?:the\s+)?(?P<v>bus|train|subway|metro|tram|ferry)"
        r"(?:\s+(?:now|these days|nowadays|every day|every morning|daily|instead))?\s*(?:[,.;!?]|$)",
    ),
    # "… so it's the 38 bus for now", "it's the train these days": the way in while it lasts.
    (
        "commute",
        r"\bit(?:'s|\s+is)\s+(?:the\s+)?(?:\d+\s+)?(?P<v>bus|train|tube|tram|metro|ferry)\s+"
        r"(?:for\s+now|now|these\s+days|from\s+now\s+on|every\s+day)\b",
    ),
    # "I cycle everywhere", "I walk everywhere these days": how one gets around.
    ("commute", r"\bi" + ADV + r"\s+(?P<v2>cycle|bike|walk|drive)\s+everywhere\b"),
    # "... so I drive in now": going in to work, said without saying where.
    (
        "commute",
        r"\bi" + ADV + r"\s+(?:(?:take|get|catch)\s+(?:the\s+|a\s+)?(?P<v>bus|train|tram|metro|ferry)|"
        r"(?P<v2>cycle|bike|walk|drive))\s+in(?:\s+(?:now|these days|every day|each day|daily))*"
        r"\s*(?:[,.;!?]|$)",
    ),
    (
        "job",
        r"\bmy\s+(?:job|role|position|title|profession|occupation)\s+is\s+(?:an?\s+)?"
        + r"(?P<v>[a-z0-9 \-]{1,60}?)"
        + END,
    ),
    ("job", SUBJECT + r"(?:'m|\s+am|\s+is|'s)" + NEG + ADV + r"\s+an?\s+" + VALUE + END),
    # The present perfect holds now: "I've been a paramedic for eight years", "My
    # sister has been a nurse since 2010" (a job word is required).
    ("job", SUBJECT + r"(?:'ve|\s+have|'s|\s+has)" + ADV + r"\s+been\s+an?\s+" + VALUE + END),
    # A business one runs or owns is one's work: "These days I run a bakery.", "I own a
    # little café in Hove." (the value is the business: "bakery owner").
    (
        "job_business",
        r"\bi"
        + ADV
        + r"\s+(?:run|own|co-own)\s+(?:my\s+own\s+|our\s+own\s+|an?\s+|the\s+)"
        + r"(?:(?:little|small|local|family|tiny|new|own)\s+)*"
        + r"(?P<v>(?:[a-z\-]+\s+){0,2}?(?:"
        + "|".join(b.replace(" ", r"\s+") for b in BUSINESSES)
        + r"))(?![\w&])",
    ),
    # "My brother has retrained as a paramedic", "I'm retraining as a nurse" (a job word
    # is required).
    (
        "job",
        SUBJECT + r"(?:'s|'ve|'m|\s+has|\s+have|\s+am|\s+is)?" + ADV + r"\s+(?:just\s+)?"
        r"(?:retrained|re-trained|retraining|qualified)\s+as\s+an?\s+" + VALUE + END,
    ),
    # "I quit teaching and became a freelance translator" (a job word is required).
    ("job", r"\bi\s+(?:[a-z']+\s+){0,5}?(?:became|have become|'ve become)\s+an?\s+" + VALUE + END),
    # "I was promoted to senior developer" / "I got promoted to team lead" (a job word is required).
    (
        "job",
        r"\bi"
        + ADV
        + r"\s+(?:was|got|have been|'ve been|just got)\s+promoted\s+to\s+(?:an?\s+|the\s+)?"
        + VALUE
        + END,
    ),
    # "They've made me head chef", "my boss made me team lead" (a job word is required).
    (
        "job",
        r"\b(?:they|(?:my\s+)?(?:boss|manager|company|work))(?:'ve|\s+have|\s+has)?\s+(?:just\s+|finally\s+)?"
        + r"made\s+me\s+(?:an?\s+|the\s+|their\s+)?"
        + VALUE
        + END,
    ),
    # "I retired last year after 30 years as a postman": the job one retired from.
    (
        "job_retired",
        r"\bi" + ADV + r"\s+(?:finally\s+)?retired\b[^.!?;]{0,60}?\bas\s+an?\s+" + VALUE + END,
    ),
    # "I teach chemistry at a secondary school", "I teach year 6 at a primary": the
    # subject or the class taught names the job
    # ("I teach at a school", "I teach kids to swim": no subject, no job).
    (
        "job_teach",
        r"\bi" + ADV + r"\s+teach\s+(?!(?:at|in|to|for|with|on|from|part|full|online|remotely|here|"
        r"there|kids|children|students|people|them|it|him|her|myself|a|an|the|my|our)\b)"
        r"(?P<v>[a-z][a-z0-9\- ]{1,40}?)(?=\s+(?:at|in|to|for|with|on|now|these\s+days|nowadays)\b"
        r"|\s*(?:[,.;!?]|\band\b|\bbut\b|$))",
    ),
    ("name", r"\bmy\s+name(?:\s+is|'s)\s+(?P<v>[a-z][a-z'\-]*(?:\s+[a-z][a-z'\-]*)?)" + END),
    ("name", r"\b(?:call me|i go by)\s+(?P<v>[a-z][a-z'\-]*)" + END),
    ("age", SUBJECT + r"(?:'m|\s+am|\s+is|'s)\s+(?P<v>\d{1,3})(?:\s+years?\s+old)?" + END),
    # "I turned 35 on Saturday." (said with when).
    (
        "age",
        SUBJECT + r"\s+(?:just\s+)?turned\s+(?P<v>\d{1,3})"
        r"(?=\s*(?:[,.;!?]|$)|\s+(?:on|last|this|in|yesterday|today|and|but|years?)\b)",
    ),
)

#: Every pattern, in the order the rules are tried.
PATTERNS: tuple[tuple[str, str], ...] = (*_HOME_AND_WORK, *SERVICE_PATTERNS, *LIFE_PATTERNS, *DAILY_PATTERNS)
