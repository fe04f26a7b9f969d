"""Which typed attribute a question asks about when no cue of :mod:`.asked` reads
it: the attribute of the nearest example question.  Pure (the vectors are given).

The cue table of :mod:`.asked` reads the forms it was written for ("Where do I
live?"); people ask the same thing in other words ("Where's home these days?",
"Who's my boss now?").  Each attribute here has a handful of example questions;
a question about the user (:func:`about_user`) that no cue reads asks for the
attributes of its nearest example when the cosine reaches
``Config.asked_route_similarity``; one as near (within
``Config.asked_route_margin``) a single unrelated attribute asks for both, one as
near two or more asks for none.  The examples are this
library's own, written as data; their vectors are computed once per embedder
(:mod:`lokulmem._engine.routing`).  docs/tuning.md entry 90 has the numbers.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..extraction.lexicon import RELATIONS

__all__ = ["ROUTES", "about_user", "example_questions", "named_relations", "routed_attributes"]

#: (attributes, example questions): the attributes are the user's (``user.<name>``),
#: with those that answer each other together (a job and an employer).
ROUTES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (
        ("residence",),
        (
            "Where do I live?",
            "Which city am I based in?",
            "Where is home for me now?",
            "What part of the country am I in?",
            "Where's my place?",
            "What's my address?",
            "Which town do I live in these days?",
            "Which area do I live in?",
            "What neighbourhood am I in now?",
        ),
    ),
    (("tenure",), ("Do I own my home or rent it?", "Have I bought a house yet?")),
    (
        ("employer", "job"),
        (
            "Where do I work?",
            "Which company am I at?",
            "Who is my employer?",
            "Who am I employed by?",
            "What firm am I with?",
            "Which organisation do I work for?",
        ),
    ),
    (
        ("job", "employer"),
        (
            "What is my job?",
            "What do I do for a living?",
            "What's my line of work?",
            "What is my role at work?",
            "What's my occupation?",
            "How do I make a living?",
            "What is my job title?",
        ),
    ),
    (
        ("household",),
        (
            "Who do I live with?",
            "Do I live alone?",
            "Who shares my home?",
            "Do I have housemates?",
            "Who lives with me?",
            "Who do I share a place with?",
        ),
    ),
    (
        ("work_hours", "work_days", "shift"),
        (
            "How many hours a week do I work?",
            "Am I full-time or part-time?",
            "Which days am I working?",
            "Am I on nights or on days?",
            "What shifts am I on?",
            "What is my work schedule?",
        ),
    ),
    (
        ("work_mode",),
        (
            "Am I working remotely?",
            "Am I in the office or at home for work?",
            "Do I go into the office?",
            "Do I work from home?",
            "Where do I work from?",
            "How many days am I in the office?",
        ),
    ),
    (("work_leave",), ("Am I off work at the moment?", "Am I on leave?", "Am I back at work yet?")),
    (
        ("sleep", "bedtime"),
        ("How much sleep do I get?", "What time do I go to bed?", "When do I go to sleep at night?"),
    ),
    (
        ("commute",),
        ("How do I get to work?", "How do I travel to the office?", "What is my commute like?"),
    ),
    (("name",), ("What is my name?", "What should you call me?", "What do people call me?")),
    (("age",), ("How old am I?", "What age am I now?")),
    (
        ("car",),
        (
            "What car do I drive?",
            "What do I drive these days?",
            "Which vehicle do I own?",
            "What car have I got?",
            "How do I get around?",
            "What do I ride or drive?",
        ),
    ),
    (
        ("diet",),
        (
            "What diet do I follow?",
            "What do I eat?",
            "Do I eat meat?",
            "Am I vegetarian?",
            "Is there any food I avoid?",
            "What are my eating habits?",
            "Is there anything I can't eat?",
            "Do I have any dietary restrictions?",
        ),
    ),
    (
        ("work_team",),
        (
            "Which team am I on at work?",
            "What department am I in?",
            "Which team do I belong to at work?",
            "Which team am I in?",
        ),
    ),
    (("streaming",), ("Which streaming service do I pay for?", "What streaming subscriptions do I have?")),
    (("editor",), ("Which code editor do I use?", "What IDE do I use?")),
    (
        ("gp",),
        (
            "Who is my GP?",
            "Who is my doctor?",
            "Which surgery am I registered with?",
            "Which doctor do I see?",
        ),
    ),
    (("chronotype",), ("Am I a morning person or a night owl?",)),
    (("school",), ("Which school do I go to?", "What school am I at?")),
    (
        ("study",),
        (
            "What do I study?",
            "What course am I taking?",
            "What am I studying at university?",
            "Which language am I learning?",
            "What is my degree in?",
        ),
    ),
    (("rent",), ("How much rent do I pay?", "What does my rent cost each month?")),
    (("weight",), ("How much do I weigh?", "What is my weight now?")),
    (("birthday",), ("When is my birthday?",)),
    (("origin", "birthplace"), ("Where am I from?", "Where was I born?", "Where did I grow up?")),
    (
        ("reading",),
        (
            "What book am I reading?",
            "What am I reading at the moment?",
            "Which novel am I on?",
            "What am I reading now?",
        ),
    ),
    (
        ("watching",),
        ("What show am I watching?", "What series am I into at the moment?", "What am I watching on TV?"),
    ),
    (
        ("team",),
        (
            "Which team do I support?",
            "Which club do I follow?",
            "Who do I support in football?",
            "Which football team do I follow?",
        ),
    ),
    (
        ("bank",),
        (
            "Which bank am I with?",
            "Where do I keep my money?",
            "Who do I bank with?",
            "Where is my current account?",
        ),
    ),
    (("home_language",), ("What language do I speak at home?",)),
    (
        ("code_language",),
        (
            "What programming language do I use?",
            "What language do I code in?",
            "What stack do I write in?",
            "What language do I write at work?",
        ),
    ),
    (
        ("relationship_status",),
        (
            "Am I in a relationship?",
            "Am I single?",
            "Am I married?",
            "Am I seeing anyone?",
            "Who is my partner?",
            "What is my relationship status?",
            "Am I with someone?",
            "Do I have a partner?",
        ),
    ),
    (("platform:phone",), ("What phone do I use?", "What phone have I got?", "What mobile do I have?")),
    (("platform:computer",), ("What computer do I use?", "What laptop am I on?")),
    (("provider:mobile",), ("Which mobile network am I on?", "Who is my mobile provider?")),
    (
        ("provider:internet",),
        ("Who is my internet provider?", "Who do I get broadband from?", "Who provides my internet?"),
    ),
    (("provider:energy",), ("Who supplies my electricity and gas?", "Who is my energy supplier?")),
    (
        ("project",),
        (
            "What project am I working on?",
            "What am I building at the moment?",
            "What am I working on at work?",
        ),
    ),
    (
        ("relation:manager", "relation:boss", "relation:supervisor"),
        (
            "Who is my manager?",
            "Who is my boss?",
            "Who do I report to?",
            "Who's my supervisor?",
            "Who is my line manager?",
            "Who approves my time off?",
        ),
    ),
    (("religion",), ("What is my religion?", "What faith am I?")),
    (("hair_length",), ("How long is my hair?", "How do I wear my hair?")),
)

#: The user as the question's subject or owner ("I", "me", "my", "we", "our").
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|me|my|mine|myself|we|we're|us|our)\b", re.IGNORECASE)
#: A person or animal of the user's named in the question ("my sister", "our dog").
_NAMED = re.compile(r"\b(?:my|our)\s+(?:(\w[\w-]*)\s+)?(\w[\w-]*)", re.IGNORECASE)
_WORD = re.compile(r"[a-z][a-z-]*")


def about_user(text: str) -> bool:
    """Whether ``text`` speaks of the user: it says "I", "me", "my" or "we"."""
    return bool(_FIRST_PERSON.search(text))


def named_relations(text: str) -> frozenset[str]:
    """The relations of the user's that ``text`` names ("sister" in "What does my
    sister do?"): a question about them asks for their attributes, not the user's."""
    words = {w.lower() for m in _NAMED.finditer(text) for w in m.groups() if w}
    singular = {w[:-1] for w in words if w.endswith("s")}
    return frozenset(w for w in words | singular if w in RELATIONS)


@functools.cache
def _route_words(route: int) -> frozenset[str]:
    """The words of a route's example questions (read once per route)."""
    return frozenset(w for q in ROUTES[route][1] for w in _WORD.findall(q.lower()))


def _allowed(route: int, named: frozenset[str]) -> bool:
    """A question that names a relation of the user's ("my manager") is routed only
    to a route whose examples name it too (the manager's, not the user's job)."""
    return not named or not named.isdisjoint(_route_words(route))


@functools.cache
def example_questions() -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Every example question of :data:`ROUTES`, and the index of its route."""
    texts: list[str] = []
    routes: list[int] = []
    for n, (_, questions) in enumerate(ROUTES):
        texts += questions
        routes += [n] * len(questions)
    return tuple(texts), tuple(routes)


def routed_attributes(
    query: npt.NDArray[np.float32],
    examples: npt.NDArray[np.float32],
    routes: Sequence[int],
    *,
    similarity: float,
    margin: float,
    named: frozenset[str] = frozenset(),
) -> tuple[str, ...]:
    """The user's attributes (``user.<name>``) of the route whose example question
    is nearest ``query`` (unit vectors; ``examples`` one row per question of
    ``routes``), if its cosine reaches ``similarity``; else ().  A question as near
    one unrelated route (within ``margin``) asks for either ("Which team am I
    in?": the team at work, or the club), so both routes' attributes are returned;
    nearer than ``margin`` to two or more unrelated routes, it asks for none.
    ``named``: the relations the question names (:func:`named_relations`), which
    only their own routes take."""
    if examples.shape[0] == 0:
        return ()
    cosines = examples @ query
    best: dict[int, float] = {}
    for route, cos in zip(routes, cosines.tolist(), strict=True):
        best[route] = max(best.get(route, -1.0), cos)
    top = max(best, key=best.__getitem__)
    if best[top] < similarity or not _allowed(top, named):
        return ()
    names = set(ROUTES[top][0])
    close = [r for r, c in best.items() if names.isdisjoint(ROUTES[r][0]) and best[top] - c < margin]
    if len(close) > 1 or (close and not _allowed(close[0], named)):
        return ()
    chosen = ROUTES[top][0] + tuple(n for r in close for n in ROUTES[r][0])
    return tuple(f"user.{name}" for name in chosen)
