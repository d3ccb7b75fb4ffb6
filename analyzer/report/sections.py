"""The report's sections in their order: the boxes "When to knock" and "How to
discard" open it (above the run's description, no number); the others are numbered by
their place here."""

from __future__ import annotations

from . import equity_sections, knock_sections, rummy_sections
from .common import Section

#: The sections shown as boxes at the top (no heading, no number).
BOXES: tuple[Section, ...] = ()

SECTIONS: tuple[Section, ...] = (
    *BOXES,
    *knock_sections.SECTIONS,
    *equity_sections.SECTIONS,
    *rummy_sections.SECTIONS,
)

__all__ = ["BOXES", "SECTIONS"]
