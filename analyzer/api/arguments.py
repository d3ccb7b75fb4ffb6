"""The notebook API's arguments: rules and policies by name or object, counts and seeds
checked with the command line's ranges (:mod:`analyzer.core.limits`) before any work,
each error naming the argument as the caller wrote it, and the labels of a result's
title line."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pandas as pd

from ..core.limits import check_count, check_seed
from ..core.progress import Progress, bar_progress
from ..gin.model.policies import Policy, parse_policy
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..gin.model.rules import Rules, resolve_rules
from ..gin.play.players import SearchPolicy, format_player
from ..rummy.rules import RummyRules
from ..rummy.rules import resolve_rules as resolve_rummy_rules
from ..studies.study import GIN, Rulebook

RulesLike = Rules | str
PolicyLike = Policy | str
#: A policy or the search player, as an object or by name or string form.
PlayerLike = Policy | SearchPolicy | str
ProgressLike = bool | Progress | None


def rules(name: str = "standard", **fields: Any) -> Rules:
    """The rules preset ``name`` with ``fields`` changed (validated).

    >>> rules("oklahoma").target, rules(gin_bonus=20).gin_bonus
    (150, 20)
    """
    check_text(name, "name")
    return dataclasses.replace(resolve_rules(name), **fields)


def rummy_rules(name: str = "standard", **fields: Any) -> RummyRules:
    """The plain-rummy rules preset ``name`` with ``fields`` changed (validated).

    >>> rummy_rules("seed004", players=3).max_run
    4
    """
    check_text(name, "name")
    return resolve_rummy_rules(name).replace(**fields)


def policy(text: str = "basic", **fields: Any) -> Policy:
    """The policy preset (or string form) ``text`` with ``fields`` (by their string-form
    keys) changed; ``knock`` may be a number (a constant threshold).

    >>> from analyzer.gin.model.policies import format_policy
    >>> format_policy(policy("simple", knock=8))
    'draw=meld,discard=random,knock=8,norepeat=yes'
    """
    check_text(text, "text")
    base = parse_policy(text)
    knock = fields.pop("knock", None)
    if knock is not None:
        base = base.with_knock(knock)
    return base.changed(**fields)


def check_text(value: object, name: str, none: bool = False) -> None:
    if not (isinstance(value, str) or (none and value is None)):
        raise TypeError(f"{name} must be a string{' or None' if none else ''}, got {value!r}")


def chosen_rules(value: RulesLike, name: str = "rules") -> Rules:
    """Rules given as an object or a preset name; ``TypeError`` naming ``name`` else."""
    if isinstance(value, Rules):
        return value
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a rules preset name or a Rules object, got {value!r}")
    return rules(value)


def chosen_policy(value: PolicyLike, name: str) -> Policy:
    """A policy given as an object, a preset name or a string form; ``TypeError``
    naming the argument ``name`` else."""
    if isinstance(value, Policy):
        return value
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be a policy name, a policy string form or a Policy, got {value!r}"
        )
    return policy(value)


def listed(value: object, name: str, what: str) -> list[Any]:
    """A list of ``what`` given as a list or tuple (a single string is refused: it would
    be read one character at a time); ``TypeError`` naming ``name`` else."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, range)):
        hint = f" (write [{value!r}])" if isinstance(value, str) else ""
        raise TypeError(f"{name} must be a list of {what}, got {value!r}{hint}")
    if not value:
        raise ValueError(f"{name} is empty: give at least one of the {what}")
    return list(value)


def check_progress(progress: object) -> None:
    if not (progress is None or isinstance(progress, bool) or callable(progress)):
        raise TypeError(f"progress must be True, False, None or a callable, got {progress!r}")


def check_run(seed: object, progress: object = None, **counts: object) -> list[int]:
    """The seed, the progress argument and each count of deals or games (1-10**12); the
    seed and the counts as plain ``int`` (numpy integers are accepted)."""
    checked = [check_seed(seed)]
    check_progress(progress)
    checked += [check_count(value, name) for name, value in counts.items()]
    return checked


@contextmanager
def progress_to(progress: ProgressLike, unit: str) -> Iterator[Progress | None]:
    """``None``, the caller's callable, or (``True``) a tqdm bar that adopts the total the
    study announces."""
    if progress is None or progress is False:
        yield None
        return
    if callable(progress):
        yield progress
        return
    from tqdm.auto import tqdm

    with tqdm(unit=unit, unit_scale=True, leave=False) as bar:
        yield bar_progress(bar)


def rule_presets() -> pd.DataFrame:
    """One row per rules preset: its name, a one-sentence note and every field."""
    from ..gin.model.describe import RULE_PRESET_NOTES

    return pd.DataFrame(
        [
            {"preset": name, "note": RULE_PRESET_NOTES.get(name, ""), **preset.describe()}
            for name, preset in RULE_PRESETS.items()
        ]
    )


def policies() -> pd.DataFrame:
    """One row per policy preset: its name, string form, a plain-English sentence and its
    kind (stochastic, tracks cards, reads the opponent, searches, replica of ...)."""
    from ..report.explain import policy_presets_table

    return pd.DataFrame(policy_presets_table())


def rules_name(given: object, chosen: Any, rulebook: Rulebook = GIN) -> str:
    """How a title names the rules: the preset name given, the preset equal to a rules
    object, or ``custom``."""
    if isinstance(given, str):
        return given
    presets = rulebook.presets().items()
    return next((name for name, preset in presets if preset == chosen), "custom")


def rules_label(given: object, chosen: Rules) -> str:
    """:func:`rules_name` with ``rules`` after it: ``standard rules``, ``custom rules``."""
    return f"{rules_name(given, chosen)} rules"


def policy_label(given: object, chosen: Policy | SearchPolicy) -> str:
    """How a title names a player: as given by name, else its preset name or string form."""
    return given if isinstance(given, str) else format_player(chosen)


def count_label(count: int, unit: str, seed: int | None = None) -> str:
    """``1,000 deals, seed 1``."""
    plural = unit if count == 1 else f"{unit}s"
    return f"{count:,} {plural}" + ("" if seed is None else f", seed {seed}")
