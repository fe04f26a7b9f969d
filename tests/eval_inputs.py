"""Tiny evaluation inputs for the smoke tests, written by the team in each harness's
input format and built at test time (:func:`write`): they are not evaluation data
and hold nothing of it (the data itself is read only from ``../shared/eval``).

A two-person chat of six turns with five questions (one about nothing said), four
contradiction pairs and three tagged persona sentences: enough for each harness
in ``eval/`` to run end to end on a machine without the shared data (CI).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["write"]


def _turn(speaker: str, dia_id: str, text: str) -> dict[str, str]:
    return {"speaker": speaker, "dia_id": dia_id, "text": text}


def _question(question: str, answer: str, evidence: list[str], category: int) -> dict[str, Any]:
    return {"question": question, "answer": answer, "evidence": evidence, "category": category}


#: One conversation in the chat harness's format (``eval.locomo``).
CHAT: list[dict[str, Any]] = [
    {
        "sample_id": "tiny-1",
        "conversation": {
            "speaker_a": "Rosa",
            "speaker_b": "Tariq",
            "session_1_date_time": "10:00 am on 3 March, 2024",
            "session_1": [
                _turn("Rosa", "D1:1", "Hi Tariq! I just adopted a greyhound named Pepper."),
                _turn("Tariq", "D1:2", "Congrats! Last week I joined St Mary's hospital as a night nurse."),
                _turn(
                    "Rosa", "D1:3", "Amazing. These days I run the children's shelves at the Leeds library."
                ),
            ],
            "session_2_date_time": "6:30 pm on 20 April, 2024",
            "session_2": [
                _turn("Tariq", "D2:1", "I ran my first half marathon last weekend."),
                _turn("Rosa", "D2:2", "Wow! Pepper and I moved to York last month."),
                _turn("Tariq", "D2:3", "Nice, how is it?"),
            ],
        },
        "qa": [
            _question("What is Rosa's dog called?", "Pepper", ["D1:1"], 4),
            _question("Where does Tariq work?", "St Mary's hospital", ["D1:2"], 4),
            _question("Where did Rosa move?", "York", ["D2:2"], 2),
            _question("What race did Tariq run?", "half marathon", ["D2:1"], 4),
            _question("What was the weather like on the moon?", "n/a", [], 3),
        ],
        "observation": {
            "session_1_observation": {
                "Rosa": [
                    ["Rosa adopted a greyhound named Pepper.", "D1:1"],
                    ["Rosa is a librarian in Leeds.", "D1:3"],
                ],
                "Tariq": [["Tariq is a nurse at St Mary's hospital.", "D1:2"]],
            },
            "session_2_observation": {
                "Tariq": [["Tariq ran a half marathon.", "D2:1"]],
                "Rosa": [["Rosa moved to York.", "D2:2"]],
            },
        },
        "session_summary": {},
        "event_summary": {},
    }
]

#: Contradiction pairs in the pair harness's format (``eval.contradiction``).
PAIRS: list[dict[str, Any]] = [
    {
        "earlier": "I live in Boston with my wife.",
        "later": "I live in Chicago with my wife.",
        "contradiction": True,
    },
    {"earlier": "No animal has ever lived in my home.", "later": "I love my dog Rex.", "contradiction": True},
    {
        "earlier": "Swimming laps at dawn relaxes me.",
        "later": "My favorite meal is lasagna.",
        "contradiction": False,
    },
    {
        "earlier": "hey there , lovely evening for it",
        "later": "I work at a bakery downtown.",
        "contradiction": False,
    },
]

#: Tagged sentences in the extraction harness's format (``eval.extraction``).
PERSONA: list[dict[str, Any]] = [
    {
        "triplets": [
            {
                "tokens": ["i", "enjoy", "baking", "bread", "on", "rainy", "weekends"],
                "head": [0],
                "tail": [2, 3],
                "label": "like_activity",
            }
        ]
    },
    {
        "triplets": [
            {
                "tokens": ["i", "follow", "every", "snooker", "final", "on", "tv", "."],
                "head": [0],
                "tail": [3],
                "label": "like_watching",
            }
        ]
    },
    {
        "triplets": [
            {
                "tokens": ["i", "have", "asthma", "so", "i", "cannot", "run", "far", "."],
                "head": [0],
                "tail": [2],
                "label": "health_status",
            }
        ]
    },
]


def write(folder: Path) -> dict[str, Path]:
    """Write the three inputs into ``folder``; their paths by harness name
    (``chat``, ``pairs``, ``persona``)."""
    paths = {
        "chat": folder / "chat.json",
        "pairs": folder / "pairs.jsonl",
        "persona": folder / "persona.jsonl",
    }
    paths["chat"].write_text(json.dumps(CHAT), encoding="utf-8")
    paths["pairs"].write_text("".join(json.dumps(p) + "\n" for p in PAIRS), encoding="utf-8")
    paths["persona"].write_text("".join(json.dumps(p) + "\n" for p in PERSONA), encoding="utf-8")
    return paths
