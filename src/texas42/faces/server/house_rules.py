"""House rules kept by name: a group saves its rules ("Grandma's rules") and picks them again in
the lobby, next to the presets.

`read_house_rules` checks what a browser sent (a name of 1 to `NAME_LENGTH` printable
characters, and rules `Rules.parse` takes) and refuses anything else with a `HouseRulesError`
whose text says what was wrong; storage keeps the latest `HOUSE_RULES_KEPT` names.
"""

from __future__ import annotations

import json
from typing import Any

from texas42.core.errors import Texas42Error
from texas42.core.rules import Rules
from texas42.faces.server import outbound as out
from texas42.faces.server.storage import HOUSE_RULES_KEPT

NAME_LENGTH = 40
"""The longest name house rules may be saved under."""
RULES_LENGTH = 600
"""The longest rules string taken, as for a new table."""
BODY_BYTES = 4096


class HouseRulesError(Texas42Error):
    """Why house rules were not saved; nothing was."""


def read_house_rules(body: bytes) -> tuple[str, Rules]:
    """The name (its spaces tidied) and the rules of a ``POST /api/house-rules`` body."""
    if len(body) > BODY_BYTES:
        raise HouseRulesError(f"a request is at most {BODY_BYTES} bytes")
    try:
        data: Any = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise HouseRulesError('send JSON: {"name": "...", "rules": "..."}') from None
    if not isinstance(data, dict) or set(data) != {"name", "rules"}:
        raise HouseRulesError('send exactly two fields: {"name": "...", "rules": "..."}')
    name, rules = data["name"], data["rules"]
    if not isinstance(name, str) or not isinstance(rules, str):
        raise HouseRulesError("name and rules are strings")
    name = " ".join(name.split())
    if not 1 <= len(name) <= NAME_LENGTH or not name.isprintable():
        raise HouseRulesError(f"a name is 1 to {NAME_LENGTH} printable characters")
    if len(rules) > RULES_LENGTH:
        raise HouseRulesError(f"rules are at most {RULES_LENGTH} characters")
    try:
        parsed = Rules.parse(rules)
    except Texas42Error as exc:
        raise HouseRulesError(f"rules: {exc}") from None
    return name, parsed


def house_rules_payload(name: str, rules: str, saved: float) -> out.HouseRules:
    """Saved house rules as the lobby shows them, in words too. Rules saved by an older
    server that this one no longer reads are left out by the caller (`house_rules_list`)."""
    return out.HouseRules(
        name=name, rules=rules, rules_text=Rules.parse(rules).describe(), saved=saved
    )


def house_rules_list(rows: list[tuple[str, str, float]]) -> out.HouseRulesList:
    """Every saved name whose rules this server reads, latest first."""
    kept = []
    for name, rules, saved in rows:
        try:
            kept.append(house_rules_payload(name, rules, saved))
        except Texas42Error:
            continue
    return out.HouseRulesList(house_rules=kept)


__all__ = [
    "HOUSE_RULES_KEPT",
    "HouseRulesError",
    "house_rules_list",
    "house_rules_payload",
    "read_house_rules",
]
