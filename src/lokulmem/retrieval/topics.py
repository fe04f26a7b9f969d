"""Which typed attribute an untyped memory speaks of: the attribute of its nearest
example statement.  Pure (the vectors are given).

The attribute rules of :mod:`lokulmem.extraction.attributes` type the forms they
were written for ("I take the bus to work."); people tell the same thing in
others ("My bike got stolen so I'm on the bus every morning now."), and the
memory is stored with no attribute.  A question that asks for the attribute (a
cue of :mod:`.asked`, or :mod:`.routing`) then finds the older, typed fact and
not the newer word on it.  Each attribute here has a handful of example
statements in the stored third person ("User takes the bus to work."); when a
question asks for an attribute, a candidate with no attribute whose content
vector is nearest an example of that attribute
(:func:`.routing.routed_attributes` reads the statements as it reads the
questions: the cosine reaching ``Config.asked_topic_similarity``, with
``Config.asked_topic_margin`` as its margin) counts as speaking of it: it gets the asked
attribute's bonus and evidence, and a newer one stands above an older typed fact
of the slot (:mod:`.newer`).  A hint is only read at recall, for the attribute a
question asks about: it sets no attribute, closes nothing and is not stored.
The examples are this library's own, written as data; their vectors are
computed once per embedder (:mod:`lokulmem._engine.routing`).  docs/tuning.md
entry 93 has the numbers.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from .routing import ROUTES

__all__ = ["STATEMENTS", "example_statements"]

#: The first attribute of a route of :data:`.routing.ROUTES` → example statements
#: about it, as memories store them (the user is "User").
STATEMENTS: Mapping[str, tuple[str, ...]] = {
    "residence": (
        "User lives in a flat in the city centre.",
        "User moved to a new town last month.",
        "User and User's partner bought a house in a village and moved there.",
        "User's home is now in another part of the city.",
    ),
    "tenure": ("User owns User's home.", "User rents User's flat from a landlord."),
    "employer": (
        "User works for a bank.",
        "User left User's company and joined a startup.",
        "User handed in User's notice and starts at a new firm next week.",
        "User's new employer is a charity.",
    ),
    "job": (
        "User works as a nurse.",
        "User is retraining as an electrician.",
        "User changed careers and is a teacher now.",
        "User quit User's profession for a different line of work.",
        "User was promoted and has a new job title.",
    ),
    "household": (
        "User lives with User's partner.",
        "User's flatmate moved out and User lives on User's own now.",
        "User's brother moved in with User.",
        "User shares a house with friends.",
    ),
    "work_hours": (
        "User works part-time.",
        "User is on night shifts at work.",
        "User went back to working full-time hours.",
        "User works three days a week now.",
    ),
    "work_mode": (
        "User works from home.",
        "User is back in the office most days.",
        "User's company went hybrid, with office days twice a week.",
        "User's team is fully remote now.",
    ),
    "work_leave": ("User is off work on sick leave.", "User went back to work after parental leave."),
    "sleep": (
        "User sleeps about seven hours a night.",
        "User barely sleeps since the baby arrived.",
        "User goes to bed late and gets little sleep.",
    ),
    "commute": (
        "User takes the bus to work.",
        "User drives to the office every day.",
        "User cycles in to work.",
        "User gets the train into work now.",
        "User walks to the office.",
    ),
    "name": ("User's name is Sam.", "User goes by a nickname now."),
    "age": ("User turned forty this year.", "User is twenty-eight years old."),
    "car": (
        "User drives a hatchback.",
        "User sold User's old car and bought an electric one.",
        "User's car was written off and User got a replacement.",
        "User got rid of the car and has a motorbike now.",
    ),
    "diet": (
        "User is vegetarian.",
        "User stopped eating meat.",
        "User has gone vegan.",
        "User avoids gluten.",
        "User cut sugar out of User's diet.",
    ),
    "work_team": (
        "User is on the design team at work.",
        "User was moved to a different team at work.",
        "User joined another department after the reorganisation.",
    ),
    "streaming": (
        "User subscribes to a streaming service.",
        "User cancelled one streaming service for another.",
    ),
    "editor": ("User codes in a different editor now.", "User switched code editors."),
    "gp": (
        "User is registered with a GP surgery in town.",
        "User changed doctors and sees a new GP.",
        "User's doctor retired and User sees another one.",
    ),
    "chronotype": ("User is a morning person.", "User has become a night owl."),
    "school": ("User goes to a secondary school nearby.", "User changed schools this year."),
    "study": (
        "User is studying for a degree.",
        "User is taking an evening course.",
        "User dropped one course and enrolled in another.",
        "User is learning a new language at classes.",
    ),
    "rent": (
        "User pays rent every month for the flat.",
        "User's landlord raised the rent.",
        "User's new flat costs more each month.",
    ),
    "weight": ("User has lost weight and is down a few kilos.", "User has put on weight recently."),
    "birthday": ("User's birthday is in the spring.",),
    "origin": ("User grew up in a small town abroad.", "User was born in another country."),
    "reading": (
        "User is reading a novel.",
        "User gave up on one book and started another.",
        "User is halfway through a thriller.",
    ),
    "watching": (
        "User is watching a TV series.",
        "User finished one show and started another.",
        "User is binge-watching a drama.",
    ),
    "team": (
        "User supports a football club.",
        "User follows a different team now.",
        "User has switched to supporting another club.",
    ),
    "bank": (
        "User banks with a high street bank.",
        "User moved User's account to an online bank.",
        "User switched banks.",
    ),
    "home_language": ("User speaks a different language at home.",),
    "code_language": (
        "User programs mostly in one language.",
        "User's team rewrote everything in a new programming language.",
        "User writes code in a different language at work now.",
    ),
    "relationship_status": (
        "User is dating someone.",
        "User broke up with User's partner.",
        "User got engaged.",
        "User got married.",
        "User is single again.",
    ),
    "platform:phone": ("User uses a smartphone.", "User got a new phone.", "User switched phone brands."),
    "platform:computer": ("User works on a laptop.", "User switched to a different computer."),
    "provider:mobile": (
        "User's mobile network is one provider.",
        "User moved User's phone contract to another network.",
    ),
    "provider:internet": (
        "User's broadband comes from one provider.",
        "User switched internet provider.",
        "User's home internet is with a new company.",
    ),
    "provider:energy": ("User's electricity comes from one supplier.", "User switched energy supplier."),
    "project": ("User is working on a project at work.", "User was moved onto a different project."),
    "relation:manager": (
        "User's manager is someone new.",
        "User's boss left and someone else took over.",
        "User reports to a different person now.",
    ),
    "religion": ("User converted to a different faith.",),
    "hair_length": ("User cut User's hair short.", "User is growing User's hair long."),
}


@functools.cache
def example_statements() -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Every example statement of :data:`STATEMENTS`, and the index in
    :data:`.routing.ROUTES` of the route whose first attribute it speaks of."""
    index = {names[0]: n for n, (names, _) in enumerate(ROUTES)}
    texts: list[str] = []
    routes: list[int] = []
    for name, statements in STATEMENTS.items():
        texts += statements
        routes += [index[name]] * len(statements)
    return tuple(texts), tuple(routes)
