"""The analyzer's version, in a module of its own: the command line, the report and the
web app read it from here without going through the package's lazy API.  It is
pyproject.toml's ``version`` (a test checks that they agree)."""

__version__ = "0.1.0"
