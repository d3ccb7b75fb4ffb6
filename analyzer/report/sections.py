"""The report's sections in their order: the boxes "When to knock", "How to discard"
and "When to take the upcard" open it (above the run's description, no number); the others are numbered by
their place here."""

from __future__ import annotations

from . import equity_sections, knock_sections, rummy_sections, survey_sections
from .answer_sections import DISCARD_BOX, DRAW_BOX, GUIDE_BOX, KNOCK_BOX
from .common import Section

#: The sections shown as boxes at the top (no heading, no number).
BOXES: tuple[Section, ...] = (GUIDE_BOX, KNOCK_BOX, DISCARD_BOX, DRAW_BOX)

SECTIONS: tuple[Section, ...] = (
    *BOXES,
    survey_sections.DEALT,
    *knock_sections.SECTIONS,
    survey_sections.TOURNAMENT,
    survey_sections.VARIANTS,
    *equity_sections.SECTIONS,
    *rummy_sections.SECTIONS,
)

__all__ = ["BOXES", "SECTIONS"]
