"""The API page (``/docs``): built from the app's own OpenAPI schema, it lists every
route, every parameter and every model, and loads nothing from outside the server."""

import re
from html import escape
from html.parser import HTMLParser

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient

from analyzer.web.app import create_app

from .conftest import BASE_URL


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    results = tmp_path_factory.mktemp("api-page") / "results"
    with TestClient(create_app(results, warm_up=False), base_url=BASE_URL) as test_client:
        yield test_client


class Links(HTMLParser):
    """Every address the page refers to (links, scripts, stylesheets, images)."""

    def __init__(self):
        super().__init__()
        self.addresses = []

    def handle_starttag(self, tag, attrs):
        self.addresses += [value for name, value in attrs if name in ("href", "src") and value]


def test_docs_lists_every_route_parameter_and_model(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    schema = client.get("/openapi.json").json()
    text = page.text
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert f"<code>{method.upper()} {path}</code>" in text, (method, path)
            assert escape(operation["summary"]) in text
            for parameter in operation.get("parameters", []):
                assert f"<code>{parameter['name']}</code>" in text
    for name, model in schema["components"]["schemas"].items():
        assert f'id="model-{name}"' in text
        for field in model.get("properties", {}):
            assert f"<code>{field}</code>" in text, (name, field)
    # the ranges a user can get wrong are stated, as in the schema
    assert "integer (≥ 2, ≤ 31) or null" in text  # the position's stock
    assert "/docs" not in schema["paths"]  # a page, not an API route


def test_docs_loads_nothing_from_outside_and_every_anchor_exists(client):
    text = client.get("/docs").text
    parser = Links()
    parser.feed(text)
    assert parser.addresses
    for address in parser.addresses:
        assert not re.match(r"[a-z]+:|//", address), address  # no CDN, no other host
        if address.startswith("#"):
            assert f'id="{address[1:]}"' in text, address
        else:
            assert client.get(address).status_code == 200, address


def test_every_page_links_the_api_page(client):
    for path in ("/", "/table", "/rummy", "/strategy"):
        assert '<a href="/docs">API</a>' in client.get(path).text
    assert '<a class="here" href="/docs">API</a>' in client.get("/docs").text
