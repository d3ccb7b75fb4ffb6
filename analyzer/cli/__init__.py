"""The ``analyzer`` command line (click)."""

from .main import cli

__all__ = ["cli"]
