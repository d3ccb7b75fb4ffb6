"""Parsing of ``field=value`` lists and yes/no values, shared by every rules and policy type.

Rules and policies of both games are frozen dataclasses changed from text the same way:
``field=value`` items (``--set knock_limit=7``, ``basic,knock=7``), where a flag takes
yes/no and a number an integer.  Every malformed item raises ``ValueError`` naming it,
so that a typo is never read as a default.

>>> parse_field_values(["knock-limit = 7", "oklahoma=yes"], ["knock_limit", "oklahoma"], "rule")
[('knock_limit', '7'), ('oklahoma', 'yes')]
>>> parse_yes_no("Off", "norepeat")
False
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

_YES = ("yes", "true", "on", "1")
_NO = ("no", "false", "off", "0")


def parse_yes_no(text: str, name: str) -> bool:
    """``yes/true/on/1`` -> True and ``no/false/off/0`` -> False, in any case; anything
    else raises ``ValueError`` naming ``name`` and the token."""
    lowered = text.strip().lower()
    if lowered in _YES:
        return True
    if lowered in _NO:
        return False
    raise ValueError(
        f"bad value {text.strip()!r} for {name}: expected yes or no "
        f"({'/'.join(_YES)} or {'/'.join(_NO)})"
    )


def parse_int(text: str, name: str, low: int | None = None) -> int:
    """An integer written with ASCII digits and an optional sign (not ``1e3``, ``1_000``
    or other scripts' digits), at least ``low`` when given; else ``ValueError`` naming
    ``name`` and the token (cut to 30 characters).  The one integer grammar of every
    ``field=value`` item: rules, policies and the search player."""
    text = text.strip()
    try:
        if not (text.isascii() and text.lstrip("+-").isdigit()):
            raise ValueError
        value = int(text)
    except ValueError:
        shown = text if len(text) <= 30 else text[:27] + "..."
        raise ValueError(f"bad value {shown!r} for {name}: expected an integer") from None
    if low is not None and value < low:
        raise ValueError(f"bad value {value} for {name}: expected an integer >= {low}")
    return value


def split_list(text: str) -> list[str]:
    """The non-empty, stripped items of a comma-separated list."""
    return [item.strip() for item in text.split(",") if item.strip()]


def split_policy_list(text: str) -> list[str]:
    """The policies of a comma-separated list whose policies may carry ``key=value``
    items: a preset name starts a new policy, and ``key=value`` items belong to the
    policy before them (or start one from the default when first).

    >>> split_policy_list("rummy,hold_turns=4, simple ,meld=hold")
    ['rummy,hold_turns=4', 'simple,meld=hold']
    >>> split_policy_list("meld=hold,hold_turns=6,simple")
    ['meld=hold,hold_turns=6', 'simple']
    """
    policies: list[list[str]] = []
    for item in split_list(text):
        if "=" in item and policies:
            policies[-1].append(item)
        else:
            policies.append([item])
    return [",".join(items) for items in policies]


def parse_field_values(
    items: Iterable[str], known: Collection[str], what: str
) -> list[tuple[str, str]]:
    """``(field, value)`` pairs of ``field=value`` items, in order.

    Field names are stripped and ``-`` reads as ``_``; values are stripped.  An item
    without ``=`` or with a field not in ``known`` raises ``ValueError`` naming the item,
    ``what`` (e.g. ``"rule"``) and the known fields; so does a field given twice (one of
    the two is a mistake, and which one cannot be told).
    """
    pairs = []
    given: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in known:
            raise ValueError(
                f"bad {what} {item.strip()!r}: expected field=value with field "
                f"one of {', '.join(known)}"
            )
        refuse_repeat(name, given, item.strip(), what)
        pairs.append((name, value.strip()))
    return pairs


def refuse_repeat(key: str, given: dict[str, str], item: str, what: str) -> None:
    """Note ``item`` (``key=value``) in ``given``; ``ValueError`` naming ``key`` when it
    was given before.

    >>> refuse_repeat("knock", {"knock": "knock=5"}, "knock=7", "policy part")
    Traceback (most recent call last):
    ...
    ValueError: the policy part knock is given twice ('knock=5' and 'knock=7'): give it once
    """
    if key in given:
        raise ValueError(
            f"the {what} {key} is given twice ({given[key]!r} and {item!r}): give it once"
        )
    given[key] = item


def convert_field(name: str, text: str, kind: type) -> object:
    """``text`` as a value of a dataclass field of type ``kind``: yes/no for ``bool``, an
    integer for ``int``, the text itself otherwise."""
    if kind is bool:
        return parse_yes_no(text, name)
    if kind is int:
        return parse_int(text, name)
    return text


__all__ = [
    "convert_field",
    "parse_field_values",
    "parse_int",
    "parse_yes_no",
    "refuse_repeat",
    "split_list",
    "split_policy_list",
]
