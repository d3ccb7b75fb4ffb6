"""Gin rummy: rules and policies as data, the hand evaluator, the engine, simulations,
studies, game equity, exact enumeration and the position advisor."""
