"""The attribute rules' patterns for the tools and services a user signs up to:
the streaming service, the code editor, the family doctor.  As data.

Tried after :data:`lokulmem.extraction.attribute_patterns.PATTERNS`' home and
work rules and before the rest (:mod:`.attribute_patterns_life`): "I code in VS
Code" names an editor, not the language a later rule would read.  Each value is
a name from a short list of the services' own names (``STREAMING``,
``EDITORS``) or a practice's name, so "I signed up for Spanish classes" sets
nothing.  The named groups are :mod:`.attribute_patterns`' own.
"""

from __future__ import annotations

from .attribute_fragments import ADV, END, VALUE

__all__ = ["EDITORS", "SERVICE_PATTERNS", "STREAMING"]

#: Streaming services by their names ("Disney+", "Prime Video").
STREAMING = (
    r"netflix|disney\s?\+|disney\s+plus|hulu|prime\s+video|amazon\s+prime|hbo\s+max|apple\s+tv\s?\+?|"
    r"paramount\s?\+|peacock|now\s+tv|britbox|crunchyroll|mubi|youtube\s+premium|iplayer|itvx"
)
#: Code editors by their names.
EDITORS = (
    r"vs\s?code|visual\s+studio\s+code|visual\s+studio|neovim|vim|emacs|sublime(?:\s+text)?|intellij|pycharm|"
    r"webstorm|xcode|zed|cursor|helix|atom|notepad\+\+"
)

SERVICE_PATTERNS: tuple[tuple[str, str], ...] = (
    # "I watch everything on Netflix.", "Cancelled Netflix and signed up for Disney+."
    # (the service signed up to, not the one cancelled).
    (
        "streaming",
        r"\b(?:signed\s+up\s+(?:for|to)|subscribed\s+to|switched\s+(?:over\s+)?to|moved\s+(?:over\s+)?to|"
        r"(?:now\s+)?(?:use|have|got))\s+(?P<v>" + STREAMING + r")(?![\w+])",
    ),
    (
        "streaming",
        r"\bi"
        + ADV
        + r"\s+(?:watch|stream)\s+(?:everything|most\s+things|most\s+stuff|stuff|shows|films|movies|"
        r"tv|it\s+all|all\s+my\s+shows)\s+on\s+(?P<v>" + STREAMING + r")(?![\w+])",
    ),
    # "I code in VS Code.", "Moved over to Neovim a few weeks back.", "I use Emacs."
    (
        "editor",
        r"\b(?:code|program|write\s+code|work)\s+in\s+(?P<v>" + EDITORS + r")(?![\w+])",
    ),
    (
        "editor",
        r"\b(?:moved|switched|changed|went|migrated|converted)\s+(?:over\s+)?to\s+(?P<v>"
        + EDITORS
        + r")(?![\w+])",
    ),
    ("editor", r"\bi" + ADV + r"\s+(?:use|prefer)\s+(?P<v>" + EDITORS + r")(?![\w+])"),
    # The family doctor: "My GP is Dr Shah.", "My doctor is Dr Patel at Greenway
    # Surgery.", "Registered with the Riverside practice after the move."
    (
        "gp",
        r"\bmy\s+(?:gp|family\s+doctor|doctor)\s+is\s+(?:now\s+)?" + VALUE + END,
    ),
    (
        "gp",
        r"\bregistered\s+(?:with|at)\s+(?:the\s+|a\s+new\s+)?(?P<v>[a-z][a-z'\- ]{1,40}?)\s+"
        r"(?:practice|surgery|medical\s+(?:centre|center)|health\s+(?:centre|center))\b",
    ),
)
