"""The attribute rules' patterns after home, work, name and age, as data: diet,
relationships, cars, preferences, origins, pets, study (its own module,
:mod:`.attribute_patterns_study`), bedtime and weight, the
work mode, hours and shifts, rent and tenure, banks and providers, languages,
projects, sleep, and the people one names.

Tried after :data:`lokulmem.extraction.attribute_patterns.PATTERNS`' own, in
this order (the first rule that matches a sentence sets its slot); the named
groups are that module's.
"""

from __future__ import annotations

from .attribute_fragments import (
    ADV,
    END,
    HOME_END,
    MONEY,
    NEG,
    NOT_A_CAR,
    NOT_A_PLACE,
    PETS,
    SERVICE,
    SERVICE_NOUN,
    SUBJECT,
    VALUE,
)
from .attribute_patterns_study import STUDY_PATTERNS
from .lexicon import DIETS, PET_BREEDS, RELATIONSHIP_STATUSES

#: The friend one calls best ("my best friend", "my closest friend").
FRIEND = r"(?:best|closest)\s+friend"
#: The breeds of ``lexicon.PET_BREEDS``, longest first ("cocker spaniel" before "spaniel").
_BREEDS = "|".join(b.replace(" ", r"\s+") for b in sorted(PET_BREEDS, key=len, reverse=True))

__all__ = ["LIFE_PATTERNS"]


#: The patterns after home, work, name and age, in the order they are tried.
LIFE_PATTERNS: tuple[tuple[str, str], ...] = (
    (
        "diet",
        SUBJECT
        + r"(?:'m|\s+am|\s+is|'s)"
        + NEG
        + ADV
        + r"\s+(?:an?\s+)?(?P<v>"
        + "|".join(sorted(DIETS))
        + r")\b",
    ),
    # A diet one does or is on: "I'm doing keto at the moment.", "I'm on a keto diet."
    (
        "diet",
        r"\bi(?:'m|\s+am)\s+(?:now\s+|still\s+|currently\s+)?(?:doing|on)\s+(?:a\s+|the\s+)?(?P<v>"
        + "|".join(sorted(DIETS))
        + r")(?:\s+diet)?\b",
    ),
    # "I went vegan in January" / "I've been vegetarian for years".
    (
        "diet",
        SUBJECT
        + r"(?:'ve been|\s+have been|\s+went|\s+became|\s+turned|'ve gone|\s+have gone)"
        + ADV
        + r"(?:\s+fully)?\s+(?:an?\s+)?(?P<v>"
        + "|".join(sorted(DIETS))
        + r")\b",
    ),
    (
        "relationship_status",
        SUBJECT
        + r"(?:'m|\s+am|\s+is|'s)"
        + NEG
        + ADV
        + r"\s+(?P<v>"
        + "|".join(sorted(RELATIONSHIP_STATUSES))
        + r")\b",
    ),
    # "I've been seeing someone called Ravi.", "I'm dating a guy from work.": dating.
    (
        "relationship_dating",
        r"\bi(?:'m|\s+am|'ve\s+been|\s+have\s+been)\s+(?:now\s+)?(?:seeing|dating)\s+"
        r"(?:someone|somebody|a\s+(?:guy|girl|man|woman|lad|lass)|[a-z]+\s+from\s+work)\b",
    ),
    # "I'm off the market": taken.
    ("relationship_dating", r"\bi(?:'m|\s+am)\s+(?:officially\s+|now\s+)?off\s+the\s+market\b"),
    # "We've been on four dates", "we've been on a few dates now".
    (
        "relationship_dating",
        r"\bwe(?:'ve|\s+have)\s+(?:now\s+|already\s+)?been\s+on\s+(?:a\s+few|a\s+couple\s+of|some|"
        r"two|three|four|five|six|several|\d+)\s+dates\b",
    ),
    # A couple's event, told of "we" or "<someone> and I": "We separated this
    # spring.", "Marco and I split up in March.", "We got engaged!" (the clause
    # ends or says when: "we split up into teams" is none).
    (
        "relationship_event",
        r"\b(?:we|(?:my\s+)?[a-z][a-z'\-]*\s+and\s+i)(?:'ve|\s+have)?"
        + ADV
        # "Ngozi and I have been married since 2015": the state the event led to.
        + r"\s+(?:got\s+|finally\s+|been\s+)?(?P<v>separated|split\s+up|broke\s+up|divorced|engaged|married|"
        # "been together", not "got together for lunch".
        + r"(?<!got\s)together|called\s+it\s+quits)"
        + r"(?=\s*(?:[,.;!?]|$)|\s+(?:last|this|in|on|over|around|during|after|before|earlier|recently|"
        + r"yesterday|a\s+few|since|for|"
        + r"two|three|four|five|six|several)\b)",
    ),
    # "I drive a Golf", not "I drive in now" / "I drive to work" (a way of going somewhere).
    (
        "car",
        SUBJECT + ADV + r"\s+(?:drive|drives)\s+(?:an?\s+)?(?!" + NOT_A_CAR + r"\b)" + VALUE + END,
    ),
    # "My car is a grey Skoda Octavia." (a kind of car: "my car is red" is its colour).
    ("car", r"\bmy\s+car\s+is\s+(?:now\s+)?an?\s+" + VALUE + END),
    # "I sold the Focus and bought a Tesla Model 3": the car is the one bought (a car
    # by its make or the word: "Sold the PS5 and bought a Steam Deck" names none).
    (
        "car_swap",
        r"\bi\s+(?:sold|traded in|got rid of)\s+[^,.;!?]{1,40}?\s+and\s+(?:bought|got)\s+"
        r"(?:an?\s+|the\s+|my\s+)?(?:new\s+)?" + VALUE + END,
    ),
    # "We bought a second-hand Toyota Yaris.", "I just got a new Kia." (a car by its
    # make or the word, not a thing for one: "bought a car seat").
    (
        "car_bought",
        r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:bought|got|leased|picked\s+up)\s+"
        r"(?:an?\s+|ourselves\s+an?\s+|myself\s+an?\s+)(?:(?:new|used|second-hand|secondhand|brand\s+new)\s+)?"
        + VALUE
        + END,
    ),
    ("prefers", SUBJECT + ADV + r"\s+(?:prefer|prefers)\s+" + VALUE + END),
    (
        "favorite",
        r"\bmy\s+(?:absolute\s+)?favou?rite\s+(?P<attr>[a-z]+(?:\s+[a-z]+)?)\s+"
        r"(?:is|are)\s+" + VALUE + END,
    ),
    ("birthplace", SUBJECT + r"\s+(?:was|were)\s+born\s+in\s+" + VALUE + END),
    (
        "origin",
        SUBJECT + r"(?:'m|\s+am|\s+is|'s|\s+are)\s+(?:originally\s+)?from\s+" + VALUE + END,
    ),
    ("origin", SUBJECT + r"\s+(?:come|comes)\s+from\s+" + VALUE + END),
    ("birthday", r"\bmy\s+birthday\s+is\s+(?:in|on)\s+(?P<v>[a-z0-9 ]{1,30}?)" + END),
    (
        "pet_name",
        r"\bmy\s+(?P<attr>" + PETS + r"|pet)"
        r"(?:'s\s+name)?\s+is\s+(?:called\s+|named\s+)?(?P<v>[A-Z][a-z'\-]+)" + END,
    ),
    (
        "pet_name",
        r"\b(?:i|we)\s+(?:have|own|got|adopted|(?:just|now)\s+(?:have|got))\s+an?\s+(?:new\s+)?"
        r"(?P<attr>" + PETS + r")\s+(?:called|named)\s+(?P<v>[A-Z][a-z'\-]+)" + END,
    ),
    # A pet told by its breed: "Biscuit is our Maine Coon.", "Our greyhound is called
    # Dottie.", "We have a Labrador called Bramble." (the slot is the breed's kind).
    (
        "pet_breed_name",
        r"(?:^\W*|[,;:]\s*)(?!(?:" + NOT_A_PLACE + r")\b)(?P<v>[A-Z][a-z'\-]+)\s+is\s+(?:my|our)\s+"
        r"(?:little\s+|old\s+|new\s+)?"
        r"(?P<attr>" + _BREEDS + r")\b",
    ),
    (
        "pet_breed_name",
        r"\b(?:my|our)\s+(?P<attr>" + _BREEDS + r")(?:'s\s+name)?\s+is\s+(?:called\s+|named\s+)?"
        r"(?P<v>[A-Z][a-z'\-]+)" + END,
    ),
    (
        "pet_breed_name",
        r"\b(?:i|we)\s+(?:have|own|got|adopted|(?:just|now)\s+(?:have|got))\s+an?\s+(?:new\s+)?"
        r"(?P<attr>" + _BREEDS + r")\s+(?:called|named)\s+(?P<v>[A-Z][a-z'\-]+)" + END,
    ),
    # An only child, or one with no siblings: a sibling count of 0.
    ("count", r"\bi(?:'m|\s+am)\s+an\s+(?P<v>only)\s+(?P<attr>child)\b"),
    (
        "count",
        r"\b(?:i|we)\s+have\s+(?P<v>\d+|no|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
        r"(?P<attr>kids?|children|child|sons?|daughters?|brothers?|sisters?|siblings?|grandchildren|"
        r"grandchild|cats?|dogs?)\b",
    ),
    # One more of them: "We adopted a third cat.", "We had our second child in May."
    (
        "count",
        r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+)?(?:adopted|got|had|welcomed|rescued)\s+(?:a|our)\s+"
        r"(?P<v>second|third|fourth|fifth|sixth)\s+(?P<attr>kid|child|baby|son|daughter|cat|dog)\b",
    ),
    (
        "color",
        r"\bmy\s+(?P<attr>car|bike|bicycle|house|door|phone|hair|eyes|room|van|truck)\s+(?:is|are)\s+"
        r"(?P<v>red|blue|green|black|white|silver|grey|gray|yellow|orange|purple|pink|brown|"
        r"blonde|blond|dark|light)\b",
    ),
    *STUDY_PATTERNS,
    ("team", SUBJECT + ADV + r"\s+(?:support|supports|root for)\s+" + VALUE + END),
    # A team the user took up: "I've started following Leeds since I moved." (a name:
    # "started following a keto diet" is no team).
    (
        "team_follow",
        r"\bi(?:'ve|\s+have)?\s+(?:now\s+)?(?:started|begun|taken\s+to)\s+(?:following|supporting)\s+"
        + VALUE
        + END,
    ),
    # Where the user's office (gym, studio) is, and where it moved: "My office is
    # in Leeds.", "Our office moved to the docks."
    (
        "place",
        r"\b(?:my|our)\s+(?P<attr>office|workplace|school|gym|studio)\s+(?:is\s+in|(?:has\s+|just\s+)?"
        r"(?:moved|relocated)\s+to)\s+(?P<v>[a-z0-9 .'\-]{1,60}?)" + END,
    ),
    # When the user goes to bed: "I go to bed around midnight.", "I'm asleep by nine."
    (
        "bedtime",
        r"\bi(?:'m|\s+am)?\s+(?:usually\s+|normally\s+|now\s+)?(?:go\s+to\s+bed|goes\s+to\s+bed|in\s+bed|asleep|"
        r"turn\s+in|head\s+to\s+bed)\s+(?:at|around|by|before|about)\s+(?:about\s+|around\s+)?"
        r"(?P<v>\d{1,2}(?::\d{2})?\s?(?:am|pm)?|midnight|one|two|three|eight|nine|ten|eleven|twelve)\b",
    ),
    # What the user weighs: "I weigh 92 kilos.", "I'm down to 84 kg.", "I'm back up to
    # 93 kg.", "(My) weight is back up to 93 kg."
    (
        "weight",
        r"^\W*(?:back\s+)?(?:down|up)\s+to\s+(?P<v>\d{2,3}(?:\.\d)?\s?(?:kilos?|kg|pounds|lbs?|stone))\b",
    ),
    (
        "weight",
        r"\bi(?:'m|\s+am)?\s+(?:now\s+)?(?:weigh|weighs|(?:back\s+)?(?:down|up)\s+to|at)\s+"
        r"(?:about\s+|around\s+)?(?P<v>\d{2,3}(?:\.\d)?\s?(?:kilos?|kg|pounds|lbs?|stone))\b",
    ),
    (
        "weight",
        r"(?:^\W*|\bmy\s+)weight\s+is\s+(?:now\s+)?(?:back\s+)?(?:(?:down|up)\s+)?(?:to\s+|at\s+)?"
        r"(?:about\s+|around\s+)?(?P<v>\d{2,3}(?:\.\d)?\s?(?:kilos?|kg|pounds|lbs?|stone))\b",
    ),
    ("handedness", r"\bi(?:'m|\s+am)\s+(?P<v>left|right)[- ]handed\b"),
    (
        "religion",
        SUBJECT
        + r"(?:'m|\s+am|\s+is|'s)\s+(?:an?\s+)?(?P<v>christian|catholic|protestant|muslim|jewish|"
        + r"hindu|buddhist|atheist|agnostic|sikh)\b",
    ),
    (
        "work_mode",
        r"\bi\s+(?:mostly\s+|usually\s+)?work\s+(?P<v>from home|remotely|in the office|on site|onsite)\b",
    ),
    # "We're back in the office.", "I'm back to working from home.": a change of
    # where the user works, said of the team as often as of themselves.
    (
        "work_mode",
        r"\b(?:i'm|i\s+am|we're|we\s+are)\s+(?:all\s+)?back\s+(?:to\s+working\s+)?"
        r"(?P<v>from home|in the office|on site|onsite)\b",
    ),
    # The employer calls the user back: "My company ordered everyone back to the office."
    (
        "work_mode_recalled",
        r"\bmy\s+(?:company|employer|boss|manager|firm)\s+(?:has\s+|have\s+|just\s+)?"
        r"(?:ordered|called|brought|told|made|is\s+making|is\s+bringing)\s+"
        r"(?:everyone|everybody|us|me|all\s+of\s+us|us\s+all|all\s+staff|staff|the\s+team)\s+"
        r"(?:to\s+(?:come|go)\s+)?back\s+(?:to|in|into)\s+(?:the\s+)?office\b",
    ),
    # ... or, as a policy, wants them in: "The company now wants us in the office three
    # days a week.", "The new CEO wants us in." (a boss's wish is no policy: "My boss
    # wants us back in the office.")
    (
        "work_mode_recalled",
        r"\b(?:my|our|the)\s+(?:new\s+)?(?:company|employer|firm|ceo|management|leadership)\s+(?:now\s+)?"
        r"(?:wants|expects|needs|requires)\s+"
        r"(?:everyone|everybody|us|me|all\s+of\s+us|us\s+all|all\s+staff|staff|the\s+team)\s+"
        r"(?:to\s+(?:be|come|work)\s+)?(?:back\s+)?(?:in|into)\s+(?:the\s+)?office\b",
    ),
    # Away from work for a while, and back: "I'm off work with stress.", "I'm on
    # maternity leave until spring.", "I've been signed off for a month."
    (
        "work_leave",
        r"\bi(?:'m|\s+am|'ve\s+been|\s+have\s+been)"
        + ADV
        + r"\s+(?P<v>off\s+(?:work|sick)|signed\s+off|on\s+furlough|furloughed|"
        + r"on\s+(?:maternity|paternity|parental|sick|compassionate|study|medical|long-term\s+sick)"
        + r"\s+leave)\b",
    ),
    # "Back at work this week on a phased return.", "First week back at work after
    # maternity leave", "I'm finally back at work." (a sentence's own subject only).
    (
        "work_leave_back",
        r"(?:^\W*(?:(?:my\s+)?first\s+(?:day|week|month)\s+)?|\bi(?:'m|\s+am|'ve\s+gone|\s+went)\s+"
        r"(?:now\s+|finally\s+)?)back\s+(?:at|to)\s+work\b",
    ),
    ("work_hours", r"\bi\s+(?:now\s+)?work\s+(?P<v>part[- ]time|full[- ]time)\b"),
    # Days a week (a slot of its own: "part-time" and "four days a week" both hold):
    # "I work four days a week.", "I'm doing a four-day week.", "I'm back to five days
    # a week."
    (
        "work_days",
        r"\bi(?:'m|\s+am)?(?:\s+(?:now|back\s+to|back\s+on|currently|only|still))*\s+"
        r"(?:(?:work|working|doing|on)\s+)?(?:an?\s+)?(?P<v>one|two|three|four|five|six|seven|[1-7])"
        r"[- ]days?\s+(?:a\s+|per\s+)?week\b",
    ),
    # The shift one works, and a change of it: "I work nights.", "I'm on the day
    # shift now.", "I switched to day shifts."
    (
        "shift",
        r"\bi\s+(?:mostly\s+|usually\s+|now\s+)?work\s+(?:the\s+)?(?P<v>nights|days|(?:night|day|early|late)"
        r"\s+shifts?)\b",
    ),
    (
        "shift",
        r"\bi(?:'m|\s+am|'ve|\s+have)?\s+(?:now\s+|just\s+)?(?:switched|moved|changed|gone|been\s+moved|back)"
        r"\s+(?:over\s+)?to\s+(?:the\s+)?(?P<v>nights|days|(?:night|day|early|late)\s+shifts?)\b",
    ),
    (
        "shift",
        r"\bi(?:'m|\s+am)\s+(?:now\s+)?on\s+(?:the\s+)?(?P<v>(?:(?:straight|regular|normal|permanent|rotating|"
        r"split)\s+)?(?:nights|days)|(?:night|day|early|late)\s+shifts?)\b",
    ),
    # "My shift pattern is four on, four off.", "My rota is two earlies, two lates."
    (
        "shift",
        r"\bmy\s+(?:shift\s+pattern|rota)\s+is\s+(?:now\s+)?(?P<v>(?:\d+|two|three|four|five|six|seven)\s+"
        r"(?:on|days|nights|earlies|lates)\b[a-z0-9 \-]{0,30}?)" + END,
    ),
    # What the rent is, and what it went up to: "My rent is £950 a month.", "The
    # landlord put the rent up to £1,100.", "I pay $1,800 in rent."
    (
        "rent",
        r"\b(?:my|our|the)\s+rent\s+(?:is|went\s+up\s+to|went\s+down\s+to|is\s+now|has\s+gone\s+up\s+to)\s+"
        + MONEY,
    ),
    ("rent", r"\bput\s+(?:my|our|the)\s+rent\s+(?:up|down)\s+to\s+" + MONEY),
    # What the home costs a month: "The new flat is 820 a month.", "Our place costs
    # £1,200 a month." (a month: "The house was 300,000." is a price, not a rent).
    (
        "rent",
        r"(?:^\W*|\b(?:my|our|the)\s+)(?:new\s+)?(?:flat|place|apartment|house|room|studio)\s+"
        r"(?:is|costs|comes\s+to)\s+(?:now\s+)?(?P<v>[£$€]?\s?\d[\d,]*(?:\.\d{2})?)\s+(?:a|per)\s+month\b",
    ),
    ("rent", r"\b(?:i|we)\s+(?:now\s+)?pay\s+" + MONEY + r"\s+(?:a\s+month\s+)?(?:in|for|of)\s+rent\b"),
    # Whether the user rents or owns their home: "I rent my flat.", "We bought
    # our first house."
    (
        "tenure",
        r"\bi(?:'m|\s+am)?\s+(?:still\s+|currently\s+)?(?P<v>rent|renting)\s+(?:my|our|a|an|the)\s+"
        r"(?:apartment|flat|house|home|place)" + HOME_END,
    ),
    (
        "tenure",
        r"\b(?:i|we)\s+(?:finally\s+|just\s+|now\s+)?(?P<v>bought|own)\s+(?:my|our|a|an|the)\s+"
        r"(?:(?:first|own|new)\s+)?(?:apartment|flat|house|home|place)" + HOME_END,
    ),
    # The user's bank: "I bank with Barclays.", "My bank is Monzo.", "I moved my
    # account to Starling." (a name: "my account to the cloud" is no bank).
    ("bank", SUBJECT + ADV + r"\s+(?:bank|banks)\s+with\s+" + VALUE + END),
    ("bank", r"\bwe" + ADV + r"\s+bank\s+with\s+" + VALUE + END),
    ("bank", r"\bmy\s+bank\s+is\s+(?:now\s+)?" + VALUE + END),
    (
        "bank",
        r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+)?(?:moved|switched|transferred)\s+"
        r"(?:(?:all\s+)?(?:my|our)\s+(?:bank\s+|current\s+)?accounts?|banks?)\s+(?:over\s+|across\s+)?to\s+"
        + VALUE
        + END,
    ),
    # Who provides a service by contract: "My phone plan is with Vodafone.", "I ported
    # my number to Three.", "We switched our internet to BT." (a
    # name: "my number to a friend" is no provider).
    (
        "provider",
        r"\b(?:my|our)\s+" + SERVICE + SERVICE_NOUN + r"\s+is\s+(?:now\s+|currently\s+)?"
        r"(?:with|through|from)\s+" + VALUE + END,
    ),
    # A mortgage or an insurance taken elsewhere: "We remortgaged with Halifax.",
    # "Renewed the car insurance with Direct Line."
    (
        "provider",
        r"\b(?P<attr>remortgaged)\s+(?:with|through|to)\s+" + VALUE + END,
    ),
    (
        "provider",
        r"\b(?:renewed|took\s+out|switched|moved|took)\s+(?:my\s+|our\s+|the\s+)?"
        + SERVICE
        + SERVICE_NOUN
        + r"\s+(?:over\s+)?(?:with|to|through)\s+"
        + VALUE
        + END,
    ),
    (
        "provider",
        r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:ported|moved|switched|transferred|changed)"
        r"\s+(?:my\s+|our\s+)?" + SERVICE + SERVICE_NOUN + r"\s+(?:over\s+)?to\s+" + VALUE + END,
    ),
    # The language spoken at home: "I speak Portuguese at home.", "We speak
    # English at home now." (a name).
    (
        "home_language",
        r"\b(?:i|we)\s+(?:mostly\s+|mainly\s+|now\s+|only\s+)?speak\s+(?P<v>[a-z]+)\s+at\s+home\b",
    ),
    # The language the user programs in: "I code mostly in Java.", "These days I
    # write almost everything in Rust." (a name).
    (
        "code_language",
        r"\bi\s+(?:mostly\s+|mainly\s+|now\s+)?(?:code|program)\s+(?:mostly\s+|mainly\s+)?in\s+"
        + VALUE
        + END,
    ),
    (
        "code_language",
        r"\bi\s+(?:now\s+)?write\s+(?:almost\s+|nearly\s+)?(?:everything|all\s+my\s+code|most\s+of\s+my\s+code)"
        r"\s+in\s+" + VALUE + END,
    ),
    # "I write Kotlin all day now." (a name: "I write poetry all day" is no language).
    (
        "code_language",
        r"\bi\s+(?:now\s+)?write\s+(?P<v>[a-z][a-z0-9+#]{0,20})\s+(?:all\s+day|every\s+day|at\s+work|for\s+a\s+living)\b",
    ),
    # The user's project at work: "My project at work is the billing system.",
    # "I got moved onto the mobile app project."
    (
        "project",
        r"\bmy\s+(?:current\s+|main\s+)?project\s+(?:at\s+work\s+)?is\s+(?:now\s+)?(?:the\s+)?"
        r"(?P<v>[a-z0-9][a-z0-9 .&'\-]{0,40}?)" + END,
    ),
    # "I'm working on the checkout redesign project." (a project named as one).
    (
        "project",
        r"\bi(?:'m|\s+am)\s+(?:now\s+|still\s+|currently\s+)?(?:working\s+on|leading|running|on)\s+the\s+"
        r"(?P<v>[a-z0-9][a-z0-9 .&'\-]{0,40}?)\s+project\b",
    ),
    (
        "project",
        r"\bi(?:'ve|\s+have)?\s+(?:just\s+)?(?:got|been|was)\s+(?:moved|put|assigned|switched)\s+"
        r"(?:on|onto|to)\s+the\s+(?P<v>[a-z0-9][a-z0-9 .&'\-]{0,40}?)\s+project\b",
    ),
    # "They moved me off billing onto the search revamp." (moved off one thing onto another).
    (
        "project",
        r"\b(?:moved|put|switched|transferred)\s+me\s+off\s+[^,.;!?]{1,30}?\s+(?:on|onto|to)\s+the\s+"
        r"(?P<v>[a-z0-9][a-z0-9 .&'\-]{0,40}?)(?:\s+project)?" + END,
    ),
    ("hair_length", r"\bmy\s+hair\s+is\s+(?:\w+\s+)?(?P<v>long|short)\b"),
    (
        "sleep",
        r"\bi\s+(?:usually\s+|normally\s+)?sleep\s+(?:about\s+|around\s+|roughly\s+|only\s+|just\s+)?"
        r"(?P<v>\d+|four|five|six|seven|eight|nine|ten)\s+hours\b",
    ),
    (
        "relation",
        r"\bmy\s+(?:new\s+|line\s+|current\s+|acting\s+)?(?P<attr>"
        + FRIEND
        + r"|[a-z\-]+)(?:'s\s+name)?\s+is\s+(?:now\s+)?"
        r"(?:called\s+|named\s+)?(?P<v>[A-Z][a-z'\-]+(?:\s+[A-Z][a-z'\-]+)?)" + END,
    ),
    # ... said name first: "Victor is my new boss.", "Aisha is my closest friend these days.",
    # "Noor is covering as my manager."
    (
        "relation",
        r"(?:^\W*|[,;:]\s*)(?:(?:and|but|so|now)\s+)?(?!(?:" + NOT_A_PLACE + r"|and|but|so|now)\b)"
        r"(?P<v>[A-Z][a-z'\-]+(?:\s+[A-Z][a-z'\-]+)?)\s+is\s+(?:now\s+)?"
        r"(?:(?:covering|acting|standing\s+in|filling\s+in)\s+as\s+)?my\s+(?:new\s+|line\s+|acting\s+)?"
        r"(?P<attr>" + FRIEND + r"|[a-z\-]+)"
        r"(?=\s*(?:[,.;!?]|$)|\s+(?:now|these\s+days|nowadays|at|from|and|but|while|until)\b)",
    ),
)
