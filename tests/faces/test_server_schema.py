"""The web table's protocol: ``docs/web.md`` describes exactly the classes the schema is made of."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from texas42.faces.server.outbound import HTTP_BODIES
from texas42.faces.server.schema import protocol_schema

DOC = Path(__file__).parents[2] / "docs" / "web.md"
HEADING = re.compile(r"^#### `([\w-]+)`$")
FIELD = re.compile(r"^- `(\w+)`")
EVERY = re.compile(r"^- every field of `(\w+)`$")
SECTIONS = ("From the browser", "From the server", "Parts", "HTTP bodies")

Fields = dict[str, set[str]]


def documented(text: str) -> dict[str, Fields]:
    """Each section's headings and their field lines, ``every field of`` lines filled in."""
    messages = text.split("\n## Messages\n", 1)[1].split("\n## ", 1)[0]
    sections: dict[str, Fields] = {name: {} for name in SECTIONS}
    inherits: list[tuple[set[str], str]] = []
    section: Fields = {}
    fields: set[str] = set()
    for line in messages.splitlines():
        if line.startswith("### "):
            section = sections[line[4:]]
        elif heading := HEADING.match(line):
            assert heading[1] not in section, f"{heading[1]} is described twice"
            fields = section[heading[1]] = set()
        elif every := EVERY.match(line):
            inherits.append((fields, every[1]))
        elif field := FIELD.match(line):
            fields.add(field[1])
    classes = {**sections["Parts"], **sections["HTTP bodies"]}
    for into, name in inherits:
        into.update(classes[name])
    return sections


def in_schema(schema: dict[str, Any]) -> tuple[Fields, Fields]:
    """The messages by ``type`` and the other classes by name, each with its field names."""
    messages: Fields = {}
    parts: Fields = {}
    for name, definition in schema["$defs"].items():
        properties = definition.get("properties", {})
        if "const" in properties.get("type", {}):
            messages[properties["type"]["const"]] = set(properties) - {"type"}
        else:
            parts[name] = set(properties)
    return messages, parts


def differences(doc: Fields, schema: Fields) -> list[str]:
    """What the doc says that the schema does not, and the other way round."""
    found = [f"{name}: not in the doc" for name in sorted(schema.keys() - doc.keys())]
    found += [f"{name}: no such class" for name in sorted(doc.keys() - schema.keys())]
    for name in sorted(doc.keys() & schema.keys()):
        found += [f"{name}.{f}: not in the doc" for f in sorted(schema[name] - doc[name])]
        found += [f"{name}.{f}: no such field" for f in sorted(doc[name] - schema[name])]
    return found


def check(text: str) -> list[str]:
    sections = documented(text)
    schema = protocol_schema()
    browser, _ = in_schema(schema["browser"])
    server, parts = in_schema(schema["server"])
    return (
        differences(sections["From the browser"], browser)
        + differences(sections["From the server"], server)
        + differences({**sections["Parts"], **sections["HTTP bodies"]}, parts)
    )


def test_the_doc_describes_every_message_part_and_field_of_the_schema() -> None:
    assert check(DOC.read_text()) == []


def test_a_field_missing_from_the_doc_or_not_in_the_classes_fails() -> None:
    text = DOC.read_text()
    assert "- `trump`: trump in words, or null.\n" in text
    assert check(text.replace("- `trump`: trump in words, or null.\n", "")) == [
        "Hand.trump: not in the doc",
        "LastHand.trump: not in the doc",
    ]
    invented = text.replace("#### `pong`\n", "#### `pong`\n- `at`: when.\n")
    assert check(invented) == ["pong.at: no such field"]
    assert check(text.replace("#### `Failure`", "#### `Refusal`")) == [
        "Failure: not in the doc",
        "Refusal: no such class",
    ]


def test_the_http_bodies_are_documented_as_such() -> None:
    bodies = documented(DOC.read_text())["HTTP bodies"]
    assert {cls.__name__ for cls in HTTP_BODIES} <= bodies.keys()


def test_the_schema_prints_as_json() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "texas42.faces.server.schema"],
        check=True,
        capture_output=True,
        text=True,
    )
    printed = json.loads(done.stdout)
    assert printed == json.loads(json.dumps(protocol_schema()))
    state = printed["server"]["$defs"]["State"]
    assert state["required"] == ["type", "seq", "table", "you", "last", "game", "turn_left"]
    assert printed["server"]["$defs"]["Hand"]["additionalProperties"] is False
