"""Players and drivers: hands as objects, search, simulation of hands and games, replay, the advisor."""
