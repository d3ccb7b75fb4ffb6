"""The local web app (``analyzer serve``): the advisor, a practice table and the strategy
page (the written knock answer and the report's charts), over a JSON API.  Layer: web
imports gin, report, interop (the layoff search the table lays out hands with) and the
input ranges the CLI and the notebook API share (:mod:`analyzer.core.limits`), so that all
accept the same numbers; nothing imports web."""
