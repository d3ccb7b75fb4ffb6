"""Bridges to other gin rummy harnesses: the EAAI framework (:mod:`.eaai`, a JSON-lines
agent protocol plus a Java adapter shipped under ``java/``) and OpenSpiel
(:mod:`.openspiel`, needs ``pyspiel`` from the ``bench`` extra)."""
