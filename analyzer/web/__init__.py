"""The local web app (``analyzer serve``): the advisor, a practice table and the strategy
charts, over a JSON API.  Layer: web imports gin (and report), and the CLI's input ranges
(``analyzer.cli.options.SEED_MAX``, ``analyzer.cli.advise.MAX_SAMPLES``) so that both
accept the same numbers; nothing imports web."""
