"""schemathesis against the published OpenAPI schema: no input gives a 5xx, every response
matches the schema (status codes, content types, bodies)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from meadhall.server.app import create_app

DB = Path(tempfile.mkdtemp(prefix="meadhall-schema-")) / "tables.sqlite3"
APP = create_app(DB, bot_delay=0)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
_table: dict[str, str] = {}


def known_table() -> dict[str, str]:
    """One real table, so that generated requests reach past the 404 of an unknown id."""
    if not _table:
        t = APP.state.tables.create("toy", {"heroes": ["ada", "bo"]}, 5)
        _table.update(id=t.row.id, token=t.row.tokens["ada"])
    return _table


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_error_and_schema_conformance(case: schemathesis.Case) -> None:
    t = known_table()
    if "table_id" in (case.path_parameters or {}):
        case.path_parameters["table_id"] = t["id"]
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {t['token']}"}
    case.call_and_validate(checks=CHECKS)
