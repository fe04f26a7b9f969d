"""Static lookup tables for the rule-based NER (PRD §6: "regex + static lookup").

Small on purpose: each list is what a chat about one's own life tends to use.
"""

from __future__ import annotations

import re

#: The letters of Latin-script languages as a character-class range, lower case (the
#: rules that use it match case-insensitively): "Zürich", "Gdańsk", "São Paulo" and
#: "Zoë" are names like "Munich" and "Zoe".
LATIN_LETTERS = "a-zß-öø-ÿĀ-ž"

FIRST_NAMES = frozenset(
    """
    aaron abby adam adrian aisha alan alex alexander alice alicia amanda amber amelia amy
    ana andrea andrew angela anna anne anthony ari arjun ashley ava ben benjamin beth bob
    brandon brian caleb camila carl carlos caroline carol chris christina christopher
    claire clara daniel david deborah diana diego dylan elena eli elijah elizabeth ella
    emily emma eric ethan eva evan fatima felix fiona frank gabriel george grace hannah
    harry hassan helen henry isaac isabella jack jacob james jane jason jennifer jessica
    joanna joe john jonathan jordan jose joseph joshua julia julian justin karen kate
    katie kevin kim laura lauren leo liam lily linda lisa lucas lucy luis luke maria mark
    martin mary matthew max maya megan melanie mia michael michelle mike mohammed nancy
    natalie nate nathan nick nina noah olivia omar oscar paul peter priya rachel raj
    rebecca richard robert rose ryan sam samantha samuel sara sarah scott sean sofia sophia
    sophie steve steven susan thomas tim tom tyler victoria william yuki zoe
    """.split()
)

PLACES = frozenset(
    """
    amsterdam athens atlanta austin bangkok barcelona beijing berlin boston brussels
    budapest buenos cairo cape chicago copenhagen dallas delhi denver dubai dublin
    edinburgh florence frankfurt geneva hamburg helsinki hong houston istanbul jakarta
    kyoto lagos lisbon london los madrid manchester melbourne mexico miami milan montreal
    moscow mumbai munich nairobi naples new oslo paris philadelphia portland prague rome
    san santiago seattle seoul shanghai singapore stockholm sydney taipei tokyo toronto
    vancouver vienna warsaw washington zurich
    africa america argentina asia australia austria belgium brazil canada chile china
    colombia croatia cuba denmark egypt england europe finland france germany greece
    hungary iceland india indonesia ireland israel italy japan kenya korea mexico morocco
    netherlands nigeria norway pakistan peru philippines poland portugal russia scotland
    spain sweden switzerland thailand turkey uk ukraine usa us vietnam wales
    california texas florida york ohio oregon bavaria ontario quebec
    """.split()
)

ORG_SUFFIXES = frozenset(
    """
    inc inc. corp corp. corporation ltd ltd. llc gmbh ag co co. company labs lab group
    university college school hospital bank foundation institute technologies systems
    studios partners
    """.split()
)

MONTHS = (
    "january february march april may june july august september october november december"
    " jan feb mar apr jun jul aug sep sept oct nov dec"
).split()
WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
#: Month name → number: full names, their three-letter forms ("jun", "sep") and "sept".
MONTH_NUMBERS = {name[:n]: i for i, name in enumerate(MONTHS[:12], start=1) for n in (3, len(name))} | {
    "sept": 9
}
#: A regex alternation of :data:`MONTH_NUMBERS`, longest first.
MONTH_PATTERN = "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True))

#: Small numbers in words and their figures ("four" and "4" are one value).
SMALL_NUMBERS = {
    w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine ten".split())
}

NUMBER_WORDS = frozenset(
    """
    two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
    twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million dozen
    """.split()
)

# Capitalised words that are not names: sentence glue, pronouns, interjections.
NOT_PROPER = (
    frozenset(
        """
    i i'm i've i'd i'll im ive id ill the a an and but or so if then my mine me we our
    you your he she they it this that these those there here what when where why how who
    which yes no ok okay oh hey hi hello thanks thank please sorry well also just really
    actually honestly anyway btw lol haha wow yeah yep nope maybe sure great good nice
    cool awesome god mom dad mum mommy daddy grandma grandpa
    """.split()
    )
    | frozenset(MONTHS)
    | frozenset(WEEKDAYS)
)

RELATIONS = frozenset(
    """
    wife husband partner spouse boyfriend girlfriend fiance fiancee fiancé fiancée son
    daughter kid kids child children baby mom mother dad father mum parents parent
    brother sister sibling siblings cousin aunt uncle niece nephew grandma grandmother
    grandpa grandfather grandparents friend friends bestie buddy roommate neighbor
    neighbour colleague coworker co-worker cofounder co-founder boss manager mentor
    teacher therapist doctor dog cat pet puppy kitten family
    grandson granddaughter grandchild grandchildren grandkid grandkids grandad granddad
    gran granny nan nana nanna stepson stepdaughter stepmom stepmum stepdad stepfather stepmother
    flatmate housemate teammate classmate
    """.split()
)

EXCLUSIVE_RELATIONS = frozenset(
    """
    wife husband partner spouse boyfriend girlfriend fiance fiancee fiancé fiancée boss
    manager therapist cofounder co-founder best-friend
    """.split()
)

#: Businesses one may run or own (``job_business``: "I run a bakery" is one's work).
#: Longer names first, so "coffee shop" wins over "shop"; "b&b" is one word here.
BUSINESSES: tuple[str, ...] = tuple(
    sorted(
        (
            "coffee shop",
            "tea room",
            "bakery",
            "café",
            "cafe",
            "shop",
            "pub",
            "bar",
            "restaurant",
            "bistro",
            "salon",
            "barbershop",
            "barbers",
            "business",
            "company",
            "startup",
            "start-up",
            "consultancy",
            "agency",
            "studio",
            "gym",
            "nursery",
            "farm",
            "b&b",
            "guesthouse",
            "hotel",
            "bookshop",
            "florist",
            "florists",
            "garage",
            "practice",
            "clinic",
            "firm",
            "stall",
            "takeaway",
            "chippy",
            "brewery",
            "vineyard",
            "kennels",
            "cattery",
            "deli",
            "boutique",
            "hostel",
            "campsite",
        ),
        key=len,
        reverse=True,
    )
)
JOB_WORDS = frozenset(
    """
    engineer developer dev programmer designer manager director teacher professor nurse
    doctor physician surgeon lawyer attorney accountant analyst scientist researcher
    student consultant architect artist writer author editor journalist chef cook
    baker barista driver pilot mechanic electrician plumber carpenter farmer musician
    singer actor actress photographer therapist counselor counsellor psychologist
    pharmacist dentist veterinarian vet founder ceo cto cfo coo entrepreneur freelancer
    intern officer agent salesperson marketer recruiter librarian firefighter soldier
    police policeman policewoman paramedic technician administrator assistant
    secretary clerk cashier waiter waitress bartender tutor coach trainer translator
    economist banker broker investor lecturer principal pastor priest owner lead
    specialist coordinator representative supervisor volunteer retiree retired
    unemployed homemaker postman postwoman postie binman fireman fisherman handyman
    tradesman salesman saleswoman carer midwife gardener cleaner childminder nanny
    hairdresser barber butcher builder roofer labourer porter receptionist paralegal
    solicitor barrister optician radiographer physio physiotherapist dietitian
    nutritionist surveyor courier controller dispatcher inspector auditor steward
    stewardess
    """.split()
)

#: Car makes, and the words for a car: what a car bought in place of another is
#: called ("I sold the Focus and bought a Tesla Model 3").
CAR_WORDS = frozenset(
    """
    car cars van suv hatchback estate saloon sedan pickup truck convertible hybrid ev
    toyota honda ford volkswagen vw audi bmw mercedes skoda seat kia hyundai nissan mazda
    tesla volvo peugeot renault citroen fiat mini vauxhall opel subaru jeep lexus porsche
    jaguar land rover range polestar byd mg dacia suzuki mitsubishi chevrolet chevy dodge
    cupra alfa lancia saab smart genesis rivian
    """.split()
)

#: Breeds a pet is named by ("Biscuit is our Maine Coon", "we have a greyhound
#: called Dottie"), and the kind each is: the ``pet_name`` slot of that kind.
PET_BREEDS: dict[str, str] = {
    **dict.fromkeys(
        (
            "maine coon",
            "siamese",
            "ragdoll",
            "persian",
            "bengal",
            "sphynx",
            "british shorthair",
            "burmese",
            "tabby",
        ),
        "cat",
    ),
    **dict.fromkeys(
        (
            "labrador",
            "labradoodle",
            "cockapoo",
            "spaniel",
            "cocker spaniel",
            "springer spaniel",
            "retriever",
            "golden retriever",
            "collie",
            "border collie",
            "terrier",
            "jack russell",
            "poodle",
            "dachshund",
            "beagle",
            "greyhound",
            "whippet",
            "lurcher",
            "pug",
            "husky",
            "corgi",
            "schnauzer",
            "staffie",
            "staffy",
            "bulldog",
            "french bulldog",
            "frenchie",
            "alsatian",
            "german shepherd",
            "chihuahua",
            "shih tzu",
            "boxer",
            "rottweiler",
            "dalmatian",
            "vizsla",
            "weimaraner",
            "sheepdog",
            "great dane",
            "dobermann",
            "doberman",
        ),
        "dog",
    ),
}

#: The animals the ``pet_name`` rules qualify a pet by ("my dog is called Rex").
PET_KINDS: tuple[str, ...] = (
    "dog",
    "cat",
    "puppy",
    "kitten",
    "parrot",
    "horse",
    "rabbit",
    "hamster",
    "bird",
    "turtle",
)
DIETS = frozenset("vegetarian vegan pescatarian carnivore keto gluten-free lactose-intolerant".split())
RELATIONSHIP_STATUSES = frozenset("married single divorced engaged widowed separated dating".split())

#: Function words left out of cluster labels and other key-term lists.
STOPWORDS = frozenset(
    """
    a an the and or but if then so of in on at to for from by with about as into over under
    is am are was were be been being has have had do does did doing will would can could
    shall should may might must not no nor very too also just really quite still now
    i me my mine we us our you your he him his she her they them their it its this that
    these those there here what when where why how who whom which than some any all each
    every both few more most other such own same only again ever never always often
    user user's likes like loves love lives live works work prefers prefer uses use
    """.split()
)


# -- quotes ---------------------------------------------------------------------
def normalise_quotes(text: str) -> str:
    """Typographic apostrophes as ASCII (``I’m`` → ``I'm``), so every rule sees one form."""
    return text.replace("’", "'")


# -- stop words: one list per use, each with what it leaves out --------------------
#: Words that carry no topic in a question or request.
QUERY_STOPWORDS = frozenset(
    """
    a an the and or but if then so of in on at to for from by with about as into over under
    what when where who whom whose why how which did does do doing done was were is are am be
    been being has have had will would can could shall should may might must not no nor
    any some tell know think remember say said please ever one ones get got let lets also
    much many lot lots way yes ok okay hey hi hello thanks thank very too just really quite
    i me my mine you your yours we our us he him his she her they them their it its this that
    these those there here than all each every both few more most other such own same only
    kind sort thing things something anything
    """.split()
)

#: Words that are no attribute value: function words, pronouns, verbs of liking,
#: frequency words (comparing two values of one attribute).
VALUE_STOPWORDS = frozenset(
    "the a an and or but to of in on at for with is are was were be been am user user's "
    "i my me it this that do does did really very so just also like likes love loves enjoy "
    "enjoys prefer prefers has have had any all at you your yours we our us he him his she her "
    "they them their "
    # How often is not what: "every day" / "never", "twice" / "never".
    "every day daily always often usually once twice times lot lots much".split()
)

#: Words that name no topic (contradiction stage 1c: do two sentences share a topic?).
TOPIC_STOPWORDS = frozenset(
    """
    user user's that this with have has had from about into what when where they them their there
    been being were will would could should really very just also still every always never often
    anymore longer used stopped quit gave switched moved changed started lately these days now
    recently previously before instead last year month week time much more some lot lots
    """.split()
)

#: Words that tell a state changed or holds now ("now", "switched", "no longer"), and
#: the verbs of moving a thing to another place or provider ("migrated my notes to",
#: "ported my number to", "transferred to a midwifery course", "traded in", "traded
#: the Focus in", "gone over to Vodafone"): a newer
#: memory saying one outranks an older one on the same subject
#: (lokulmem.retrieval.newer).
CHANGE_MARKERS = re.compile(
    r"\b(?:now|nowadays|these days|currently|anymore|any more|no longer|instead|"
    r"switched|moved|changed|new|started|quit|left|stopped|became|become|promoted|"
    r"replaced|upgraded|cancell?ed|gave up|broke up|split up|took up|turned|"
    r"relocated|transferred|migrated|ported|swapped|traded in|traded(?:\s+[\w']+){1,3}?\s+in\s+for|"
    r"part-exchanged|(?:gone|going)\s+over\s+to|retrained|re-trained)\b",
    re.IGNORECASE,
)

#: Words that say an old value was replaced ("… now instead of …", "switched",
#: "no longer"): read with the other change words by :func:`tells_change` (a
#: sentence saying one, with content words the nearest stored fact lacks, is news,
#: not a restatement of it: ``Config.novelty_change_words``).  "It turns
#: out" (or chat's bare "Turns out") corrects what was believed ("It turns out I'm
#: allergic to peanuts." after "I'm allergic to nothing."); a state outgrown ("I've
#: outgrown the peanut allergy") is over.
REPLACEMENT_MARKERS = re.compile(
    r"\b(?:instead|rather than|no longer|anymore|any more|no more|switched|changed|replaced|"
    r"outgrown|outgrew|grown out of|grew out of)\b"
    r"|\b(?:it|that) turn(?:s|ed) out\b|(?:^|[,;:]\s*)turns out\b",
    re.IGNORECASE,
)

#: Irregular past tenses: a dropped "I" explains one opening a sentence ("Went to
#: the market.": ``elided``), and the third-person rewrite leaves it as it is ("I
#: withdrew" → "User withdrew": ``rewrite``).
IRREGULAR_PAST = frozenset(
    """
    went got had made took saw met bought sold ran began found thought felt left came gave
    won lost spent kept wrote drove flew ate drank built taught caught brought heard grew
    became broke chose fell forgot held led paid sent slept spoke stood woke wore did knew
    rode swam sang threw told withdrew understood said sat meant
    """.split()
)

#: Past-tense verbs that end a state or set a new value ("cut out caffeine", "went up
#: to 48k", "passed away", "outgrown the allergy"), and a habit not kept for long
#: ("haven't meditated in months"): a newer memory saying one may take the place of
#: an older state it follows (lokulmem.retrieval.newer, inheritance only;
#: docs/tuning.md entries 47, 70 and 75).
#: Not "finished", "signed up", "bought" or a bare "up to": in real dialogue they
#: tell of events ("just finished a jigsaw", "bought concert tickets", "woke up to snow").
STATE_CHANGES = re.compile(
    r"\b(?:cut out|cut (?:[\w']+ )?(?:hair )?(?:short|back|down)|got rid of|"
    r"went (?:up|down)|raised|lowered|increased|decreased|passed away|died|put down|put to sleep|"
    r"(?:had to|have to|had) (?:say|said) goodbye to|(?:step|stepped|stepping) (?:back|down) from|"
    r"rehomed|ditched|binned|"
    r"outgrown|outgrew|didn't last|did not last|"
    # What was waited for came: "finally got an allotment plot", "Arlo was born on the 3rd".
    r"finally (?:got|had|bought|passed|moved|found|heard|landed|received|signed)|"
    r"(?:was|were) born|gave birth|had (?:a|the|our|her|his|their) baby|"
    # "We're expecting!" (a baby: not "expecting a call"), "passed my driving test".
    r"(?:are|is|'re|'s|am|'m) expecting(?=\s*(?:[!.,;]|$)|\s+(?:a baby|our|my|her|his|their|twins|again)\b)|"
    r"passed (?:my|her|his|their|the|\w+'s) (?:driving |theory )?test|"
    r"(?:is|are) (?:all |finally )?over(?!\s+(?:there|here|the|to|at|in|on|for|by|again)\b))\b"
    r"|\b(?:up|down) to (?:[£$€]\s?)?\d"
    r"|\b(?:haven't|have not|hasn't|has not)\s+[a-z]+(?:ed|en|ne|un|wum)\s+(?:[a-z]+\s+){0,3}?"
    r"(?:in|for)\s+(?:months|years|ages|weeks|a while|a long time|a year|over a year)\b",
    re.IGNORECASE,
)


#: Words that say a state ended, without a new value ("User has stopped teaching
#: piano.", "User has gone off parkrun.", "Saving days are over.", "The Fiesta
#: finally died."): a memory saying
#: one in the old fact's words leaves the new value, if the message gave one, to
#: its other memories (lokulmem.retrieval.carry; docs/tuning.md entry 86).  Not
#: "now", "switched" or "new": a memory saying those holds the new value itself.
ENDED_MARKERS = re.compile(
    r"\b(?:no longer|anymore|any more|no more|stopped|quit|gave up|given up|"
    r"(?:gone|went) off|cancell?ed|dropped|ended|broke up|split up|moved out|done with|"
    r"(?:is|are) (?:all |finally )?over|"
    # A thing that is gone: "The Fiesta finally died.", "My bike was nicked."
    r"died|passed away|broke down|(?:was|got|been) (?:stolen|nicked|written off|totall?ed))\b",
    re.IGNORECASE,
)


def tells_change(text: str) -> bool:
    """Whether ``text`` says a state changed or holds now (``CHANGE_MARKERS``), that a
    value was replaced (``REPLACEMENT_MARKERS``) or tells a new value
    (``STATE_CHANGES``): what keeps a sentence from backing the old value, and what
    lets a newer memory take an older one's place in recall."""
    return any(p.search(text) for p in (CHANGE_MARKERS, REPLACEMENT_MARKERS, STATE_CHANGES))


def tells_replacement(text: str) -> bool:
    """Whether ``text`` says that a value was replaced (``REPLACEMENT_MARKERS``) or
    ended (``ENDED_MARKERS``), or tells a new value (``STATE_CHANGES``): a change
    told without leaning on "now", "new" or "started" (:func:`tells_change` reads
    those too), which real dialogue says of everything."""
    return any(p.search(text) for p in (REPLACEMENT_MARKERS, ENDED_MARKERS, STATE_CHANGES))


#: Short function words left out of contradiction key tokens.
SHORT_STOPWORDS = frozenset(
    "the and for but not you are was one two can did get got its our out now own".split()
)
#: Intensifiers and fillers that add no content to a feeling ("I'm so excited too").
FEELING_FILLERS = frozenset(
    "so super really pretty kinda kind of totally quite bit little too still now again lately "
    "such feel feels feeling felt am is was were be been getting got".split()
)


# -- negation ---------------------------------------------------------------------
#: Negators and words of dislike, stripped before comparing values (attributes).
NEGATION = re.compile(
    r"\b(?:not|no|never|don't|doesn't|didn't|isn't|aren't|wasn't|won't|can't|cannot|"
    r"no longer|anymore|hate|hates|dislike|dislikes)\b|n't\b",
    re.IGNORECASE,
)

#: What is still to be done, or only meant: "User needs to finish the redesign by
#: Friday.", "User is going to apply."  A sentence that says it was done ("User
#: shipped the redesign.") is news after such a fact, not the fact said again.
UNDONE = re.compile(
    r"\b(?:needs? to|has to|have to|must|wants? to|plans? to|planning to|(?:is|are|am) going to|"
    r"will|hopes? to|hoping to|(?:is|are|am) trying to|intends? to|(?:is|are|am) about to|"
    r"should|would like to)\b",
    re.IGNORECASE,
)

#: Negators that flip the valence of the next words (VADER-style).
NEGATION_WORDS = frozenset(
    "not no never isn't aren't wasn't weren't don't doesn't didn't can't cannot won't "
    "wouldn't shouldn't nothing nobody none hardly".split()
)

#: A first-person negation ("I don't", "I'm not"): a negated preference (features).
SELF_NEGATION = re.compile(
    r"\bi\s+(?:don'?t|do not|never|won'?t|can'?t|cannot|didn'?t|did not|no longer|"
    r"wouldn'?t|hardly ever|rarely)\b|\bi'?m\s+not\b|\bi\s+am\s+not\b",
    re.IGNORECASE,
)

#: A negator right before a marker ("I won't quit"): the change is denied (contradiction).
NEGATED_BEFORE = re.compile(
    r"\b(?:not|never|won't|wouldn't|don't|didn't|can't|cannot|couldn't|no)\s+(?:\w+\s+)?$"
)


#: Verbs of lasting facts that often follow "and" with the subject left out ("I
#: live in Berlin and work at Acme"): a second fact (sentences) whose verb agrees
#: with the user (rewrite).
SHARED_SUBJECT_VERBS = (
    "work|works|live|study|teach|love|like|enjoy|hate|prefer|play|own|have|speak|drive|use|want|"
    "need|coach|manage|volunteer|practice|practise|run|write|cook"
)
