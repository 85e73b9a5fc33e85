"""Every endpoint of the OpenAPI schema fuzzed with hypothesis, against the real app.

Bodies are drawn from the schema itself (``app.openapi()``), from arbitrary JSON and
from schema-valid bodies with one field broken; path parameters from any integer or
text; the token is right, wrong or missing. Whatever comes in: never a 500, a refusal
is a 4xx with a one-line ``detail``, and a refused request leaves the database as it
was, byte for byte (every row compared).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carom.web._guard import GuardPolicy
from tests.carom.web._web import AUTH, client, db_dump, new_match
from tests.fuzz_scale import examples

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=10), kids, max_size=4)
    ),
    max_leaves=10,
)


def from_schema(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values that (mostly) satisfy a JSON schema of the subset FastAPI writes."""
    if "$ref" in schema:
        return st.deferred(lambda: from_schema(defs[schema["$ref"].rsplit("/", 1)[-1]], defs))
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "const" in schema:
        return st.just(schema["const"])
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return st.one_of([from_schema(s, defs) for s in schema[key]])
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        required = set(schema.get("required", ()))
        fixed = {k: from_schema(v, defs) for k, v in props.items() if k in required}
        optional = {k: from_schema(v, defs) for k, v in props.items() if k not in required}
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and not props:
            return st.dictionaries(st.text(min_size=1, max_size=8), from_schema(extra, defs),
                                   max_size=3)  # fmt: skip
        return st.fixed_dictionaries(fixed, optional=optional)
    if kind == "array":
        items = from_schema(schema.get("items", {}), defs)
        return st.lists(items, min_size=schema.get("minItems", 0),
                        max_size=schema.get("maxItems", 4))  # fmt: skip
    if kind == "string":
        lo, hi = schema.get("minLength", 0), min(schema.get("maxLength", 30), 30)
        if "pattern" in schema:
            names = st.from_regex(schema["pattern"], fullmatch=True)
            return names.filter(lambda s: lo <= len(s.strip()) and len(s) <= hi)
        return st.text(min_size=lo, max_size=hi)
    if kind == "integer":
        return st.integers(schema.get("minimum"), schema.get("maximum"))
    if kind == "number":
        lo, hi = schema.get("minimum"), schema.get("maximum")
        return st.floats(lo, hi, allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return JSON


@st.composite
def broken(draw: st.DrawFn, valid: st.SearchStrategy[Any]) -> Any:
    """A schema-valid body with one field replaced by arbitrary JSON."""
    body = draw(valid)
    if isinstance(body, dict) and body:
        body = dict(body)
        body[draw(st.sampled_from(sorted(body)))] = draw(JSON)
    return body


def operations(app: Any) -> list[tuple[str, str, dict[str, Any]]]:
    spec = app.openapi()
    return [(method.upper(), path, op) for path, item in spec["paths"].items()
            for method, op in item.items()]  # fmt: skip


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    tmp = tmp_path_factory.mktemp("fuzz")
    with client(tmp, guard=GuardPolicy(free_failures=10**9)) as c:
        new_match(c)
        yield c, tmp / "web.db"


def _request(draw: st.DrawFn, app: Any) -> tuple[str, str, Any, dict[str, str]]:
    spec = app.openapi()
    defs = spec.get("components", {}).get("schemas", {})
    method, path, op = draw(st.sampled_from(operations(app)))
    for param in op.get("parameters", []):
        if param["in"] == "path":
            value = draw(st.integers(-(2**70), 2**70) | st.text(min_size=1, max_size=6)
                         | from_schema(param["schema"], defs))  # fmt: skip
            path = path.replace("{" + param["name"] + "}", _quote(str(value)))
    body: Any = None
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    if content is not None:
        valid = from_schema(content["schema"], defs)
        body = draw(st.one_of(valid, valid, broken(valid), JSON))  # half of them valid
    auth = draw(st.sampled_from([AUTH, {}, {"Authorization": "Bearer wrong-0123456789abcdef"}]))
    return method, path, body, auth


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="") or "x"


@settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_request_makes_a_500_and_refusals_change_nothing(
    live: tuple[TestClient, Path], data: st.DataObject
) -> None:
    c, db = live
    method, path, body, auth = data.draw(st.composite(lambda draw: _request(draw, c.app))())
    before = db_dump(db)
    r = c.request(method, path, content=None if body is None else json.dumps(body),
                  headers=auth | {"content-type": "application/json"})  # fmt: skip
    assert r.status_code < 500, (method, path, body, r.text)
    if r.status_code >= 400:
        detail = r.json()["detail"]
        assert isinstance(detail, str) and detail and "\n" not in detail, r.text
        assert db_dump(db) == before, (method, path, body, r.status_code)
    if method == "POST" and auth is not AUTH:
        assert r.status_code == 401, (path, body, r.status_code)
    if method == "POST" and path.startswith("/api/matches") and r.status_code < 300:
        c.post("/api/matches/close", headers=AUTH)  # the same match back on the table
        new_match(c)


def test_the_schema_names_every_endpoint_and_the_token(live: tuple[TestClient, Path]) -> None:
    c, _ = live
    spec = c.app.openapi()  # type: ignore[attr-defined]
    paths = set(spec["paths"])
    for path in ("/api/health", "/api/state", "/api/matches", "/api/calls", "/api/review",
                 "/api/players/stats", "/api/matches/{match_id}/export.csv"):  # fmt: skip
        assert path in paths
    posts = [op for item in spec["paths"].values() for m, op in item.items() if m == "post"]
    assert posts and all(op.get("security") for op in posts)
    assert re.fullmatch(r"3\.\d+\.\d+", spec["openapi"])


@settings(
    max_examples=examples(80),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    body=st.binary(max_size=200) | JSON.map(lambda v: json.dumps(v).encode()),
    content_type=st.sampled_from(["application/json", "text/plain", "", "multipart/form-data"]),
    auth=st.sampled_from(["", "Bearer ", "Bearer wrong-0123456789abcdef", "Basic YTpi", "bearer"]),
    path=st.sampled_from(
        [
            "/api/calls",
            "/api/matches",
            "/api/matches/close",
            "/api/match-file/parse",
            "/api/match-file/toml",
            "/api/calibration/fit",
            "/api/calibration/save",
        ]
    ),
)
def test_any_bytes_without_the_token_get_401_and_with_it_never_a_500(
    live: tuple[TestClient, Path], body: bytes, content_type: str, auth: str, path: str
) -> None:
    c, db = live
    before = db_dump(db)
    headers = {"content-type": content_type} | ({"authorization": auth} if auth else {})
    r = c.post(path, content=body, headers=headers)
    assert r.status_code == 401, (path, body, r.text)
    assert r.json()["detail"] and db_dump(db) == before
    r = c.post(path, content=body, headers={"content-type": content_type} | AUTH)
    assert r.status_code < 500, (path, body, r.text)
    if r.status_code >= 400:
        detail = r.json()["detail"]
        assert isinstance(detail, str) and detail and "\n" not in detail, r.text
    if c.get("/api/state").json()["match"] is None:  # closed: a match back on the table
        new_match(c)
