"""The API page (``/docs``): the app's own OpenAPI schema as one plain HTML page, every
route with its parameters, body, answers and the models they use, styled by the pages'
own stylesheet (no outside script or asset, unlike FastAPI's Swagger page, which loads
from a CDN)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from html import escape
from typing import Any

#: The order of the methods of one path.
_METHODS = ("get", "post", "put", "patch", "delete")


def api_page(schema: dict[str, Any]) -> str:
    """The HTML page describing the OpenAPI ``schema``."""
    info = schema.get("info", {})
    routes = [
        (method, path, operation)
        for path, operations in schema.get("paths", {}).items()
        for method in _METHODS
        if (operation := operations.get(method)) is not None
    ]
    models = schema.get("components", {}).get("schemas", {})
    # the error answers every route shares are listed once, not under every route
    shared = {
        status: answer
        for status, answer in (routes[0][2].get("responses", {}) if routes else {}).items()
        if all(operation.get("responses", {}).get(status) == answer for *_, operation in routes)
    }
    index = "".join(
        f'<li><a href="#{_anchor(method, path)}"><code>{method.upper()} {escape(path)}</code></a>'
        f" {escape(operation.get('summary', ''))}</li>"
        for method, path, operation in routes
    )
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>API · rummy analyzer</title>\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="/favicon.ico">\n'
        '<link rel="stylesheet" href="/static/style.css">\n</head>\n<body>\n'
        '<nav><span class="brand">Gin rummy analyzer</span><a href="/">Advisor</a>\n'
        '<a href="/table">Practice table</a><a href="/rummy">Rummy table</a><a href="/strategy">Strategy</a>'
        '<a class="here" href="/docs">API</a></nav>\n<main class="api-doc">\n'
        f"<h1>{escape(info.get('title', 'API'))} {escape(str(info.get('version', '')))}: "
        "the JSON API</h1>\n"
        f"<p>{_text(info.get('description', ''))}</p>\n"
        '<p class="muted">The same description, machine-readable: '
        '<a href="/openapi.json">/openapi.json</a> (OpenAPI 3).</p>\n'
        f'<h2>Routes</h2>\n<ul id="routes">{index}</ul>\n'
        "<p>Every route may answer:</p>\n"
        + _answers(shared)
        + "".join(_route(method, path, operation, shared) for method, path, operation in routes)
        + '<h2 id="models">Models</h2>\n'
        + "".join(_model(name, model) for name, model in models.items())
        + "</main>\n</body>\n</html>\n"
    )


def _anchor(method: str, path: str) -> str:
    return f"{method}-" + re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-")


def _text(text: str) -> str:
    """Escaped text with its ``code`` spans (reST or Markdown quotes) as code."""
    return re.sub(r"``?([^`]+)``?", r"<code>\1</code>", escape(text)).replace("\n\n", "</p><p>")


def _route(method: str, path: str, operation: dict[str, Any], shared: dict[str, Any]) -> str:
    parts = [
        f'<section class="route" id="{_anchor(method, path)}">',
        f"<h3><code>{method.upper()} {escape(path)}</code></h3>",
        f"<p>{_text(operation.get('summary', ''))}</p>",
    ]
    if operation.get("description"):
        parts.append(f"<p>{_text(operation['description'])}</p>")
    parameters = operation.get("parameters", [])
    if parameters:
        parts.append(
            _table(
                ("parameter", "in", "type", "description"),
                [
                    (
                        f"<code>{escape(p['name'])}</code>"
                        + ("" if p.get("required") else " (optional)"),
                        escape(p.get("in", "")),
                        _type(p.get("schema", {})),
                        _text(p.get("description", p.get("schema", {}).get("description", ""))),
                    )
                    for p in parameters
                ],
            )
        )
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body:
        parts.append(f"<p>Body (JSON): {_type(body.get('schema', {}))}</p>")
    own = {
        status: answer
        for status, answer in operation.get("responses", {}).items()
        if status not in shared
    }
    parts += [_answers(own), "</section>\n"]
    return "\n".join(parts)


def _answers(responses: dict[str, Any]) -> str:
    return _table(
        ("answer", "description"),
        [
            (escape(status), _text(answer.get("description", "")))
            for status, answer in responses.items()
        ],
    )


def _model(name: str, model: dict[str, Any]) -> str:
    required = set(model.get("required", ()))
    rows = [
        (
            f"<code>{escape(field)}</code>" + ("" if field in required else " (optional)"),
            _type(spec),
            _text(spec.get("description", "")),
        )
        for field, spec in model.get("properties", {}).items()
    ]
    intro = f"<p>{_text(model['description'])}</p>" if model.get("description") else ""
    extra = (
        "" if model.get("additionalProperties", True) else '<p class="muted">No other field.</p>'
    )
    return (
        f'<section class="model" id="model-{escape(name)}"><h3>{escape(name)}</h3>{intro}'
        + _table(("field", "type", "description"), rows)
        + extra
        + "</section>\n"
    )


def _type(spec: dict[str, Any]) -> str:
    """A schema's type in words: a model links to it; ranges, lengths, choices and the
    default follow the type."""
    if "$ref" in spec:
        name = spec["$ref"].rsplit("/", 1)[-1]
        return f'<a href="#model-{escape(name)}">{escape(name)}</a>'
    if "anyOf" in spec:
        kinds = [_type(kind) for kind in spec["anyOf"] if kind.get("type") != "null"]
        text = " or ".join(kinds)
        nullable = len(kinds) < len(spec["anyOf"])
        return text + (" or null" if nullable else "") + _default(spec)
    if "enum" in spec:
        choices = ", ".join(f"<code>{escape(json.dumps(v))}</code>" for v in spec["enum"])
        return f"one of {choices}{_default(spec)}"
    kind = spec.get("type", "any")
    if kind == "array":
        text = f"list of {_type(spec.get('items', {}))}"
    elif kind == "object" and not spec.get("properties"):
        text = "object"
    else:
        text = escape(str(kind))
    bounds = [
        f"{symbol} {spec[key]}"
        for key, symbol in (
            ("minimum", "≥"),
            ("exclusiveMinimum", ">"),
            ("maximum", "≤"),
            ("exclusiveMaximum", "<"),
        )
        if key in spec
    ]
    if "maxLength" in spec:
        bounds.append(f"at most {spec['maxLength']} characters")
    if bounds:
        text += f" ({', '.join(bounds)})"
    return text + _default(spec)


def _default(spec: dict[str, Any]) -> str:
    if "default" not in spec or spec["default"] is None:
        return ""
    return f"; default <code>{escape(json.dumps(spec['default']))}</code>"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return (
        f'<div class="scroll"><table class="data"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


__all__ = ["api_page"]
