import pytest

from lokulmem.extraction.lexicon import PET_KINDS
from lokulmem.retrieval.asked import asked_attributes, asked_types


@pytest.mark.parametrize(
    ("question", "keys"),
    [
        ("Where do I live?", {"user.residence"}),
        ("Where do I live now, and could my sister visit?", {"user.residence"}),
        ("Where does my brother live these days?", {"brother.residence"}),
        ("What's my home town?", {"user.residence"}),
        ("Where is home for me?", {"user.residence"}),
        ("Where is home plate?", set()),
        ("Am I in a relationship?", {"user.relationship_status"}),
        ("Is my brother in a relationship?", {"brother.relationship_status"}),
        ("Am I still with my husband?", {"user.relationship_status"}),
        ("Which mobile network am I on?", {"user.provider:mobile"}),
        ("Who is my internet provider?", {"user.provider:internet"}),
        ("What's my sister's energy supplier?", {"sister.provider:energy"}),
        ("What am I studying?", {"user.study"}),
        ("How much do I weigh?", {"user.weight"}),
        ("What time do I go to bed?", {"user.bedtime"}),
        ("How much is my rent?", {"user.rent"}),
        ("What phone have I got?", {"user.platform:phone"}),
        ("What operating system do I code on?", {"user.platform:computer"}),
        ("Am I still with the same company?", set()),
        ("What does my sister do?", {"sister.job", "sister.employer"}),
        ("What is my job?", {"user.job", "user.employer"}),
        ("What do I do for a living?", {"user.job", "user.employer"}),
        ("What did I do for a living?", {"user.job", "user.employer"}),
        ("what do i do", {"user.job", "user.employer"}),
        ("What do I do on Sundays?", set()),  # a pastime, not a job
        ("Where do I work out?", set()),  # a gym, not an employer
        ("Where do I work these days?", {"user.employer", "user.job"}),
        ("Who do I live with?", {"user.household"}),
        ("Does my brother live alone?", {"brother.household"}),
        # The hours and the shift pattern answer each other.
        ("How many hours do I work a week?", {"user.work_hours", "user.shift", "user.work_days"}),
        ("Do I work part-time?", {"user.work_hours", "user.shift", "user.work_days"}),
        ("Where do I work from?", {"user.work_mode"}),
        ("How long do I sleep?", {"user.sleep"}),
        ("How do I get to work?", {"user.commute"}),
        ("Who do I work with?", set()),
        ("What's my dog called?", {"user.pet_name:dog"}),
        ("Do I have any pets?", {f"user.pet_name:{k}" for k in PET_KINDS}),
        ("What pets does my sister have?", {f"sister.pet_name:{k}" for k in PET_KINDS}),
        ("Is my dog allowed on the sofa?", set()),
        ("Who do I work for?", {"user.employer", "user.job"}),
        ("What is my sister's job?", {"sister.job", "sister.employer"}),
        ("What's my partner's name?", {"partner.name"}),
        ("How old is my dog?", {"dog.age"}),
        ("What car do I drive?", {"user.car"}),
        ("Where was I born?", {"user.birthplace"}),
        ("When is my birthday?", {"user.birthday"}),
        ("Who is my best friend?", {"user.relation:best-friend"}),
        ("Who's my closest friend?", {"user.relation:best-friend"}),
        ("Am I studying anything?", {"user.study"}),
        ("What book am I reading?", {"user.reading"}),
        ("What's my current book?", {"user.reading"}),
        ("What level am I at work?", {"user.job", "user.employer"}),
        ("How many cats do I have?", {"user.count:cats"}),
        ("Which streaming service do I use?", {"user.streaming"}),
        ("Which editor do I use?", {"user.editor"}),
        ("Who is my GP?", {"user.gp"}),
        ("When do I work best?", {"user.chronotype"}),
        ("What show am I watching?", {"user.watching"}),
        ("What dog do I have?", {"user.pet_name:dog"}),
        ("Am I on a diet?", {"user.diet"}),
        ("Do I have any dietary needs?", {"user.diet"}),
        # Yes-no questions, "what have I got", places and favourites.
        ("Am I vegetarian?", {"user.diet"}),
        ("Do I eat meat?", {"user.diet"}),
        ("What car have I got?", {"user.car"}),
        ("Do I have a dog?", {"user.pet_name:dog", "user.count:dogs"}),
        ("Do I have children?", {"user.count:kids", "user.count:children"}),
        ("Do I have a girlfriend?", {"user.relation:girlfriend", "user.relationship_status"}),
        ("Which bank do I use?", {"user.bank"}),
        ("What team do I support?", {"user.team"}),
        ("What shift am I on?", {"user.shift"}),
        ("Which gym do I go to?", {"user.place:gym"}),
        ("Where is my office?", {"user.place:office"}),
        ("What language do I speak at home?", {"user.home_language"}),
        ("What programming language do I use?", {"user.code_language"}),
        ("What's my favourite band?", {"user.favorite:band"}),
        ("What broadband do I have?", {"user.provider:internet"}),
        ("How many days a week do I work?", {"user.work_days", "user.work_hours"}),
        ("What is my favourite thing to do on weekends?", set()),  # no thing the rules name
        ("Any plans for the bank holiday?", set()),
        ("Which team am I on at work?", {"user.work_team"}),
        ("Who is our mortgage with?", {"user.provider:mortgage"}),
        ("Who is my car insurance with?", {"user.provider:car-insurance"}),
        ("Where does Priya live?", set()),  # a name, not a relation: no typed slot
        ("Who is my wife?", {"user.relation:wife", "user.relationship_status"}),
        ("Who is my manager?", {"user.relation:manager"}),
        ("Am I off work?", {"user.work_leave"}),
        ("Where do we live?", {"user.residence"}),  # "we" and "our" are the user's too
        ("Who do we bank with?", {"user.bank"}),
        ("What's our cat called?", {"user.pet_name:cat"}),
        ("Where does our son go to school?", {"son.school"}),
        ("Who is my partner?", {"user.relation:partner", "user.relationship_status"}),
        ("What hours do I work?", {"user.shift", "user.work_hours", "user.work_days"}),
        ("Am I still on maternity leave?", {"user.work_leave"}),
        ("What's the capital of Peru?", set()),
        ("", set()),
    ],
)
def test_the_attribute_a_question_asks_for(question: str, keys: set[str]) -> None:
    assert asked_attributes(question) == keys


@pytest.mark.parametrize(
    ("request_", "kinds"),
    [
        ("Tell me about my family.", {"relational"}),
        ("Tell me about my family and my work", {"relational", "profession"}),
        ("What do you know about me?", {"identity"}),
        ("What are my hobbies besides running?", {"preference"}),
        ("What are my plans?", {"temporal"}),
        ("How do I fix my bike?", set()),
    ],
)
def test_the_memory_types_a_request_asks_about(request_: str, kinds: set[str]) -> None:
    assert asked_types(request_) == kinds
