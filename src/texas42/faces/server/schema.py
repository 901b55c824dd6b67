"""The web table's protocol as JSON Schema, generated from its classes.

``browser`` is what a browser may send (`texas42.faces.server.messages`), ``server`` what the
server sends (`texas42.faces.server.outbound`): its WebSocket messages, and in its ``$defs`` the
parts they are made of and the HTTP bodies. ``docs/web.md`` describes the same classes, and a
test holds it to this schema. ``python -m texas42.faces.server.schema`` prints it for the
browser's authors.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter

from texas42.faces.server.messages import BROWSER_MESSAGES
from texas42.faces.server.outbound import HttpBody, ServerMessage


def protocol_schema() -> dict[str, Any]:
    """The schema of both directions: every message, part and HTTP body, by class name."""
    sent: TypeAdapter[ServerMessage | HttpBody] = TypeAdapter(ServerMessage | HttpBody)
    return {
        "browser": BROWSER_MESSAGES.json_schema(),
        "server": sent.json_schema(mode="serialization"),
    }


if __name__ == "__main__":
    print(json.dumps(protocol_schema(), indent=2))
