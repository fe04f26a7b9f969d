"""Typed attributes read by rules (``lokulmem.extraction.attributes``)."""

import pytest

from lokulmem.extraction import (
    extract_attribute,
)


def test_attributes_carry_entity_and_value() -> None:
    a = extract_attribute("My sister lives in Paris")
    assert a is not None and (a.key, a.value) == ("sister.residence", "paris")
    b = extract_attribute("I'm no longer at Acme Corp")
    assert b is not None and b.key == "user.employer" and b.negated
    assert extract_attribute("I like pizza") is None  # multi-valued: no conflicts
    assert extract_attribute("I'm at the gym") is None
    assert extract_attribute("I'm on the train.") is None  # "on" a platform only by its name
    assert extract_attribute("I moved my number to a new phone.") is None  # a provider is a name
    assert extract_attribute("My boss wants us back in the office.") is None  # a wish, not an order
    assert extract_attribute("This is home now.") is None  # no place named
    assert extract_attribute("The lake is home now to many birds.") is None
    assert extract_attribute("We relocated to a bigger office.") is None
    assert extract_attribute("I started a pottery course.") is None  # a hobby is no second study
    assert extract_attribute("I'm doing a new degree.") is None
    for way in ("I drive in now and then.", "I drive a lot for work.", "I drive the kids to school."):
        assert extract_attribute(way) is None, way  # how or where one drives, not the car
    for way in ("I teach at a school.", "I teach kids to swim.", "I teach."):
        assert extract_attribute(way) is None, way  # no subject taught: no job named
    for way in ("I take the train to see my mum.", "I'll take the train.", "I'm taking the bus home."):
        assert extract_attribute(way) is None, way  # a trip, not how one gets to work
    assert extract_attribute("The weight limit is 20 kg.") is None  # no one's weight
    assert extract_attribute("We bought a holiday house in Spain.") is None  # not the home
    assert extract_attribute("I retired.") is None  # no job named


@pytest.mark.parametrize(
    ("sentence", "key", "value"),
    [
        ("I live alone.", "user.household", "alone"),
        ("I live alone in a tiny studio.", "user.household", "alone"),
        ("I live with my wife and two kids.", "user.household", "wife"),
        ("I moved into my own flat.", "user.household", "own place"),
        ("I got promoted to senior engineer last month.", "user.job", "senior engineer"),
        ("I moved out into my own apartment last spring.", "user.household", "own place"),
        ("My boyfriend moved in with me in March.", "user.household", "boyfriend"),
        ("I'm a Mac user.", "user.platform:computer", "mac"),
        ("I switched to a Pixel.", "user.platform:phone", "android"),
        ("I'm on a Samsung Galaxy phone.", "user.platform:phone", "android"),
        ("I am on Linux at home.", "user.platform:computer", "linux"),
        ("My phone plan is with Vodafone.", "user.provider:mobile", "vodafone"),
        ("I ported my number to Three.", "user.provider:mobile", "three"),
        ("We switched our broadband to Virgin Media.", "user.provider:internet", "virgin media"),
        ("My electricity supplier is now with Octopus.", "user.provider:energy", "octopus"),
        ("I switched my phone to Android.", "user.platform:phone", "android"),
        ("My company ordered everyone back to the office.", "user.work_mode", "in the office"),
        ("Home for me is a small flat in Leith.", "user.residence", "leith"),
        ("Glasgow is home now, the rain is constant.", "user.residence", "glasgow"),
        ("Just signed the lease on a place in Hull, moving day was Friday.", "user.residence", "hull"),
        ("I rent a room in Oxford near the station.", "user.residence", "oxford"),
        ("We relocated to Seville over the winter.", "user.residence", "seville"),
        ("I'm studying for a law degree.", "user.study", "law"),
        ("I dropped out of law and enrolled in a nursing diploma.", "user.study", "nursing"),
        ("I'm doing a master's in data science.", "user.study", "data science"),
        ("I've been seeing someone called Ravi since April.", "user.relationship_status", "dating"),
        ("I go to bed around midnight.", "user.bedtime", "midnight"),
        ("Since the baby arrived I'm asleep by nine.", "user.bedtime", "9"),
        ("I weigh 92 kilos.", "user.weight", "92 kg"),
        ("Down to 84kg after the summer!", "user.weight", "84 kg"),
        ("My rent is £950 a month.", "user.rent", "£950"),
        ("The landlord put the rent up to £1,100.", "user.rent", "£1,100"),
        ("My office moved so I drive in now.", "user.commute", "drive"),
        ("I drive an old Volvo estate.", "user.car", "old volvo estate"),
        ("Derek retired, so my new manager is Fatima.", "user.relation:manager", "fatima"),
        ("We got a rabbit called Clover.", "user.pet_name:rabbit", "clover"),
        ("I own a hamster called Nibbles.", "user.pet_name:hamster", "nibbles"),
        ("I switched my dev machine to Windows.", "user.platform:computer", "windows"),
        ("I do my coding on Linux.", "user.platform:computer", "linux"),
        ("Now I cycle to work.", "user.commute", "bike"),
        ("I have one sister.", "user.count:sisters", "1"),
        ("I'm an only child.", "user.count:siblings", "0"),
        ("I have a dog named Rex.", "user.pet_name:dog", "rex"),
        ("I got a new job at the library.", "user.employer", "library"),
        ("I switched to studying medicine.", "user.study", "medicine"),
        ("I live near the beach.", "user.residence", "beach"),
        ("I sleep about eight hours a night.", "user.sleep", "8"),
        ("With the twins I sleep 5 hours at most.", "user.sleep", "5"),
        ("We're back in the office four days a week.", "user.work_mode", "in the office"),
        ("I'm back to working from home since the move.", "user.work_mode", "from home"),
        ("Our office moved to King's Cross.", "user.place:office", "king's cross"),
        ("My gym has moved to Elm Street.", "user.place:gym", "elm street"),
        ("I work nights at the hospital.", "user.shift", "night"),
        ("I switched to day shifts.", "user.shift", "day"),
        ("I'm on the early shift this month.", "user.shift", "early"),
        ("I rent a flat with two friends.", "user.tenure", "rent"),
        ("We bought our first home!", "user.tenure", "own"),
        ("My project at work is the billing system.", "user.project", "billing system"),
        ("I got moved onto the mobile app project.", "user.project", "mobile app"),
        ("I'm working on the checkout redesign project.", "user.project", "checkout redesign"),
        # A move said as one, a car bought, a team one was moved to, the way in.
        ("We finally made the move down to Bristol last weekend.", "user.residence", "bristol"),
        ("I bought a second-hand Toyota Yaris.", "user.car", "toyota yaris"),
        ("We just got a new Kia.", "user.car", "kia"),
        ("I got moved to the fraud team in the reorg.", "user.work_team", "fraud"),
        ("I've been getting the tram in.", "user.commute", "tram"),
        ("We speak English at home now so the kids practise.", "user.home_language", "english"),
        # The present perfect holds now; the value is the place's name.
        ("I've lived in Denver my whole adult life.", "user.residence", "denver"),
        ("I have been living in Den Haag since 2019.", "user.residence", "den haag"),
        ("My sister has lived in Dublin for years.", "sister.residence", "dublin"),
        ("My car is a grey Skoda Octavia.", "user.car", "grey skoda octavia"),
        ("I accepted an offer from Bosch and started Monday.", "user.employer", "bosch"),
        # A couple's event sets the status it leads to.
        ("We separated this spring.", "user.relationship_status", "separated"),
        ("Marco and I split up in March.", "user.relationship_status", "single"),
        ("My husband and I got divorced last year.", "user.relationship_status", "divorced"),
        ("We got engaged!", "user.relationship_status", "engaged"),
        ("I accepted a job offer with a startup in Leeds.", "user.employer", "startup"),
        # The subject taught names the job; a commute said while it lasts, or as a habit.
        ("I teach chemistry at a secondary school in Gdansk.", "user.job", "chemistry teacher"),
        ("I teach high school maths now.", "user.job", "high school maths teacher"),
        ("I'm cycling to school instead of driving.", "user.commute", "bike"),
        ("I've been taking the train to the office.", "user.commute", "train"),
        ("Now I take the tram.", "user.commute", "tram"),
        ("I take the bus these days.", "user.commute", "bus"),
        # Letters beyond ASCII are letters: names of places, employers and people.
        ("I live in Zürich.", "user.residence", "zürich"),
        ("São Paulo is home now.", "user.residence", "são paulo"),
        ("My sister lives in Gdańsk.", "sister.residence", "gdańsk"),
        ("I work at Nestlé.", "user.employer", "nestlé"),
        ("My girlfriend is Zoë.", "user.relation:girlfriend", "zoë"),
        # Home told by the home one got; a developer by the short word.
        ("I moved out of the shared flat, got my own place in Neukölln.", "user.residence", "neukölln"),
        ("I'm a backend dev at a fintech startup.", "user.job", "backend dev"),
        ("I retired last year after 30 years as a postman.", "user.job", "retired postman"),
        ("My name's Priyanka.", "user.name", "priyanka"),
        # A grandson is a relation, so his name is a person's.
        ("My grandson lives in Leeds.", "grandson.residence", "leeds"),
        # A weight back up, said with or without "my".
        ("Weight is back up to 93 kg, sadly.", "user.weight", "93 kg"),
        ("My weight is down to 88 kilos.", "user.weight", "88 kg"),
        ("I'm back up to 93 kg.", "user.weight", "93 kg"),
        # A home by its keys or its rent; a job about to start; the place to oneself.
        ("Big day: we got the keys to our first house in Harrogate!", "user.residence", "harrogate"),
        ("I'm renting a one-bed flat in Leeds.", "user.residence", "leeds"),
        ("Handed in my notice at Fieldnote, I start at Canva on Monday.", "user.employer", "canva"),
        ("I'm starting at the BBC next week.", "user.employer", "bbc"),
        ("I start my new job at Arup in May.", "user.employer", "arup"),
        ("I have the place to myself now.", "user.household", "alone"),
        ("I've been getting the train to work.", "user.commute", "train"),
        ("I get the bus to work.", "user.commute", "bus"),
        ("The company now wants us in the office three days a week.", "user.work_mode", "in the office"),
        # A best (or closest) friend is one slot, named first or last.
        ("My best friend is Tom.", "user.relation:best-friend", "tom"),
        ("Aisha is my closest friend these days.", "user.relation:best-friend", "aisha"),
        ("Sandra left, and Victor is my new boss.", "user.relation:boss", "victor"),
        # A degree named alone, and left.
        ("I'm doing a part-time MBA at Warwick.", "user.study", "mba"),
        ("I dropped out of my nursing degree.", "user.study", "nursing"),
        # The machine that replaced another; the book one is reading, by its title.
        ("Finally replaced the ThinkPad with a MacBook Air.", "user.platform:computer", "mac"),
        ("I'm reading The Name of the Wind.", "user.reading", "name of the wind"),
        ("Finished that one, now I'm onto Piranesi.", "user.reading", "piranesi"),
        ("I'm reading Dune to my son at night.", "user.reading", "dune"),
        # Pets counted, and one more of them; a diet one does; a mortgage, an insurance,
        # a team at work.
        ("We have two cats, Salt and Pepper.", "user.count:cats", "2"),
        ("We adopted a third cat last weekend.", "user.count:cats", "3"),
        ("I'm doing keto at the moment.", "user.diet", "keto"),
        ("Our mortgage is with Nationwide.", "user.provider:mortgage", "nationwide"),
        ("We remortgaged with Halifax in the autumn.", "user.provider:mortgage", "halifax"),
        ("Renewed the car insurance with Direct Line.", "user.provider:car-insurance", "direct line"),
        ("I'm on the payments team at work.", "user.work_team", "payments"),
        ("They moved me across to the platform team.", "user.work_team", "platform"),
        ("I sold my old Golf and bought a Kia Niro.", "user.car", "kia niro"),
        # Services by their names: streaming, the code editor, the family doctor.
        ("I watch everything on Netflix.", "user.streaming", "netflix"),
        ("Cancelled Netflix and signed up for Disney+.", "user.streaming", "disney+"),
        ("I code in VS Code.", "user.editor", "vs code"),
        ("Moved over to Neovim a few weeks back.", "user.editor", "neovim"),
        ("My doctor is Dr Patel at Greenway Surgery.", "user.gp", "patel"),
        ("Registered with the Riverside practice after the move.", "user.gp", "riverside"),
        ("I code mostly in Python.", "user.code_language", "python"),
        # The next book; when one works best.
        ("Finally finished War and Peace, started on Middlemarch.", "user.reading", "middlemarch"),
        ("I'm a night owl and work best after 10pm.", "user.chronotype", "night"),
        ("I've become a morning person, up at 5 to write.", "user.chronotype", "morning"),
        ("I put Middlemarch down and started The Overstory.", "user.reading", "overstory"),
        ("I'm watching Severance at the moment.", "user.watching", "severance"),
        ("Finished Severance, now I'm into Slow Horses.", "user.watching", "slow horses"),
        ("I transferred to a midwifery course.", "user.study", "midwifery"),
        ("They moved me off billing onto the search revamp.", "user.project", "search revamp"),
        # A couple's rented or bought home; the home one is in now.
        ("We rent a terraced house in Bristol.", "user.residence", "bristol"),
        ("We've just moved into a house we bought in Cardiff.", "user.residence", "cardiff"),
        ("Finally escaped the city, we're in a cottage outside Bath now.", "user.residence", "bath"),
        ("I'm now living in a flat near Leeds.", "user.residence", "leeds"),
        # The home is not the place: "a flat in Leeds" and "Leeds" are one value.
        ("I live in a small house near York.", "user.residence", "york"),
        # A job joined, said with when; the first and the last day somewhere.
        ("On Monday I join KPMG.", "user.employer", "kpmg"),
        ("I'm joining Arup in May.", "user.employer", "arup"),
        ("I'll be joining Goldman Sachs as an analyst.", "user.employer", "goldman sachs"),
        ("My first day at Canva tomorrow!", "user.employer", "canva"),
        # The new phone; a degree done; a class taught; taken.
        ("My new Pixel 9 arrived today.", "user.platform:phone", "android"),
        ("I finished my masters last month.", "user.study", "masters"),
        ("I teach year 6 at a primary school.", "user.job", "year 6 teacher"),
        ("Deleted the apps, I'm off the market.", "user.relationship_status", "dating"),
        ("I turned 35 on Saturday.", "user.age", "35"),
        # Moved down (up, back …) to a place; the tube; a couple's household.
        ("I moved down to Brighton last month.", "user.residence", "brighton"),
        ("I moved to Lisbon in May.", "user.residence", "lisbon"),  # when is not the place
        ("I moved to Android.", "user.platform:phone", "android"),  # a thing, not a place
        ("I moved over to Neovim.", "user.editor", "neovim"),
        ("I take the tube to work.", "user.commute", "tube"),
        ("I cycle in every day now.", "user.commute", "bike"),
        ("We live with my in-laws.", "user.household", "in-laws"),
        ("We finally got our own place!", "user.household", "own place"),
        # Days a week: a slot of its own beside part-time ("four" and "4" agree).
        ("I work four days a week.", "user.work_days", "4 days a week"),
        ("I'm back to 5 days a week since the promotion.", "user.work_days", "5 days a week"),
        # A stand-in or a qualified manager, a policy from the top, a language one
        # writes all day, a phone upgraded to, a shared house, a team taken up, a
        # home's monthly cost.
        ("Rosa is covering as my manager while Tom is away.", "user.relation:manager", "rosa"),
        ("My line manager is Priya.", "user.relation:manager", "priya"),
        ("Our new CEO wants everyone in the office four days a week.", "user.work_mode", "in the office"),
        ("I write Elixir all day at the new place.", "user.code_language", "elixir"),
        ("I finally upgraded to a Pixel 8.", "user.platform:phone", "android"),
        ("We moved into a flat share in Hackney.", "user.household", "flat share"),
        ("I've started supporting Celtic.", "user.team", "celtic"),
        ("The new flat is £900 a month.", "user.rent", "£900"),
        ("The room is 600 a month.", "user.rent", "600"),
    ],
)
def test_more_single_valued_slots(sentence: str, key: str, value: str) -> None:
    a = extract_attribute(sentence)
    assert a is not None and (a.key, a.value) == (key, value)


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("I used to live in London, now I live in Madrid.", "madrid"),
        ("I used to live in Berlin, but now I live in Lisbon.", "lisbon"),
        ("I used to live in Berlin.", "berlin"),
        ("I used to live in Berlin, now London.", "berlin"),
    ],
)
def test_a_change_in_one_sentence_sets_the_current_value(sentence: str, value: str) -> None:
    a = extract_attribute(sentence)
    assert a is not None and (a.key, a.value) == ("user.residence", value)


@pytest.mark.parametrize(
    ("sentence", "key", "value"),
    [
        ("I'm in Vancouver now, the move went fine.", "user.residence", "vancouver"),
        ("I'm now in New York.", "user.residence", "new york"),
        ("I left Deloitte and joined KPMG.", "user.employer", "kpmg"),
        ("I quit teaching and became a freelance translator.", "user.job", "freelance translator"),
        ("I went vegan in January.", "user.diet", "vegan"),
        ("I've been vegetarian for years.", "user.diet", "vegetarian"),
        ("I go to Kingston University.", "user.school", "kingston university"),
        ("I transferred to Leeds Beckett University.", "user.school", "leeds beckett university"),
        ("I study at the University of Bath.", "user.school", "university of bath"),
        ("I sold the Focus and bought a Tesla Model 3.", "user.car", "tesla model 3"),
    ],
)
def test_a_change_told_with_its_verb_sets_the_slot(sentence: str, key: str, value: str) -> None:
    a = extract_attribute(sentence)
    assert a is not None and (a.key, a.value) == (key, value)


@pytest.mark.parametrize(
    "sentence",
    [
        # A change verb needs its kind of value.
        "I'm in a meeting now.",
        "I became a member of the club.",
        "I go to the gym.",
        "I left early and joined the party.",
        "I go to school by bus.",
        # Things bought, rented, worked on or spoken that are no home, shift,
        # project or language.
        "I bought a house plant.",
        "I rent a car when I travel.",
        "I work out most days.",
        "I'm working on a project.",
        "I speak slowly at home.",
        # A past home is no residence; a count of places is no place; where a car is, no car.
        "I lived in Paris for two years.",
        "I've lived in three countries.",
        "My car is in the garage.",
        # An offer taken from anyone but an employer.
        "I accepted an offer from a buyer for my car.",
        # No couple's event: teams split up, fights break up, parents are not the user.
        "We split up into teams.",
        # A start that is a time or a gym; a friend or a helper named by a pronoun.
        "I start at 9 on Mondays.",
        "I'm onto something here.",
        "I signed up for Spanish classes.",
        "I finished the report, started on Monday.",
        "I'm watching the kids tonight.",
        "They moved me onto the sofa.",
        "I got max points on the quiz.",
        "My doctor is a great listener.",
        "I sold the PS5 and bought a Steam Deck.",
        "I'm reading a lot these days.",
        "I'm starting at a gym near work.",
        "And she is my best friend, always.",
        "This is my new boss.",
        "I have the place to myself this weekend, my parents are away.",
        "We broke up the fight.",
        "My mum and dad divorced when I was six.",
        # A stay somewhere is no home; joining someone, or a club, is no job.
        "We're in a cottage in Devon for the week.",
        "I'm joining Sarah for lunch.",
        "I'm joining Sarah in Paris.",
        "I'm joining the gym next week.",
        "I'm joining a choir in January.",
        "My last day at the beach, sadly.",
        "My new phone case arrived.",
        "I turned 35 pages today.",
        "I go to the gym three days a week.",
        "I moved to a new team.",
        "We just got a new car seat.",
        "I bought a toy car for my nephew.",
        "We bought a new sofa.",
        "I made the move to a bigger flat.",
        "I write poetry every day.",
        "I've started following a vegan diet.",
        "The house was 300,000.",
        "My boss wants us back in the office.",
    ],
)
def test_sentences_that_set_no_slot(sentence: str) -> None:
    assert extract_attribute(sentence) is None


def test_a_day_in_the_office_is_no_work_mode() -> None:
    assert extract_attribute("I'm in the office today.") is None


def test_a_last_day_somewhere_closes_that_employer() -> None:
    a = extract_attribute("My last day at Deloitte today!")
    assert a is not None and (a.key, a.value, a.negated) == ("user.employer", "deloitte", True)


def test_every_device_a_rule_names_has_a_platform() -> None:
    from lokulmem.extraction.attribute_fragments import DEVICE_NAMES
    from lokulmem.extraction.attribute_rules import _PLATFORMS

    assert set(DEVICE_NAMES) == set(_PLATFORMS)


@pytest.mark.parametrize(
    ("sentence", "key", "value", "negated"),
    [
        ("Home for me is Bristol, near the harbour.", "user.residence", "bristol", False),
        ("Newcastle really feels like home now.", "user.residence", "newcastle", False),
        ("I moved from Leeds to Newcastle two years ago.", "user.residence", "newcastle", False),
        ("I moved to York three months ago, love it", "user.residence", "york", False),
        ("I rent a studio above a bakery in Hackney.", "user.residence", "hackney", False),
        ("Completed on our first house in Walthamstow on Friday!", "user.residence", "walthamstow", False),
        ("I'm a postwoman in Hull.", "user.job", "postwoman", False),
        ("I cycle everywhere.", "user.commute", "bike", False),
        ("We bank with Santander.", "user.bank", "santander", False),
        ("I moved all our accounts across to Monzo in the summer.", "user.bank", "monzo", False),
        ("Kieran and I called it quits over Christmas.", "user.relationship_status", "single", False),
        ("Handed in my dissertation, the MA is done!", "user.study", "ma", True),
        ("Met someone at a wedding, we've been on four dates.", "user.relationship_status", "dating", False),
        ("I'm an air traffic controller at Gatwick.", "user.job", "air traffic controller", False),
        ("They've made me head chef, the old one left for London.", "user.job", "head chef", False),
        ("I ride my bike to work along the canal path.", "user.commute", "bike", False),
        ("Someone nicked my bike, so it's the 38 bus for now.", "user.commute", "bus", False),
    ],
)
def test_slots_the_eighth_set_told(sentence: str, key: str, value: str, negated: bool) -> None:
    """Forms the eighth and ninth knowledge-update sets found unread (docs/tuning.md
    entries 81 and 82)."""
    a = extract_attribute(sentence)
    assert a is not None and (a.key, a.value, a.negated) == (key, value, negated)


@pytest.mark.parametrize(
    "sentence",
    [
        "This really feels like home.",
        "Home for me is a state of mind.",
        "We split up at work.",
        "The show is done.",
    ],
)
def test_forms_near_them_set_no_slot(sentence: str) -> None:
    assert extract_attribute(sentence) is None


@pytest.mark.parametrize(
    ("sentence", "key", "value"),
    [
        ("I've been a paramedic for eight years.", "user.job", "paramedic"),
        ("My sister has been a nurse since 2010.", "sister.job", "nurse"),
        ("I was a chef for years, these days I run a bakery.", "user.job", "bakery owner"),
        ("I run a small coffee shop.", "user.job", "coffee shop owner"),
        ("I own a B&B in Whitby.", "user.job", "b&b owner"),
        ("I'm renting a room in a house share in Peckham.", "user.residence", "peckham"),
        ("Moved into my own one-bed in Brixton at the weekend.", "user.residence", "brixton"),
        ("Ngozi and I have been married since 2015.", "user.relationship_status", "married"),
        ("I'm off work with stress at the moment.", "user.work_leave", "off work"),
        ("I'm on maternity leave until spring.", "user.work_leave", "on maternity leave"),
        ("I've been signed off for a month.", "user.work_leave", "signed off"),
        ("Back at work this week on a phased return.", "user.work_leave", "back"),
        ("First week back at work after maternity leave.", "user.work_leave", "back"),
        ("My shift pattern is four on, four off.", "user.shift", "four"),
        ("I'm on straight days now, nine to five.", "user.shift", "straight"),
    ],
)
def test_slots_the_tenth_set_told(sentence: str, key: str, value: str) -> None:
    """Forms the tenth knowledge-update set found unread (docs/tuning.md entry 84)."""
    a = extract_attribute(sentence)
    assert a is not None and (a.key, a.value) == (key, value)


@pytest.mark.parametrize(
    "sentence",
    [
        "I run a tight ship.",  # no business
        "I run a marathon every year.",
        "I've been a bit of a mess.",  # no job word
        "She's back at work.",  # someone else
        "I've been a fan of theirs for years.",
        "My shifts are a nightmare.",
        "My rota is a mess.",
        "I joined a gym near my office.",  # where the gym is names no employer
        "Sam and I got together for lunch last week.",  # friends meeting, no couple
        "It is our boxer.",  # no name
    ],
)
def test_forms_near_the_tenth_sets_slots_set_none(sentence: str) -> None:
    assert extract_attribute(sentence) is None


@pytest.mark.parametrize(
    ("sentence", "key", "value"),
    [
        ("Ife and I have been together four years.", "user.relationship_status", "together"),
        ("My brother has retrained as a paramedic.", "brother.job", "paramedic"),
        ("I'm retraining as a nurse.", "user.job", "nurse"),
        ("Biscuit is our Maine Coon.", "user.pet_name:cat", "biscuit"),  # a pet told by its breed
        ("Our greyhound is called Dottie.", "user.pet_name:dog", "dottie"),
        ("We have a Labrador called Bramble.", "user.pet_name:dog", "bramble"),
    ],
)
def test_slots_the_eleventh_set_told(sentence: str, key: str, value: str) -> None:
    """Forms the eleventh knowledge-update set found unread (docs/tuning.md entry 85)."""
    a = extract_attribute(sentence)
    assert a is not None and (a.key, a.value) == (key, value)
