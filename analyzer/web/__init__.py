"""The local web app (``analyzer serve``): the advisor, a practice table and the strategy
charts, over a JSON API.  Layer: web imports gin (and report); nothing imports web."""
