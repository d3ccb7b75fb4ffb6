"""An advisor service that notes how each run ended, and a clock that makes a run's time
its number of batches (shared by the web tests)."""

from __future__ import annotations

import threading

from analyzer.web.advisor_service import AdvisorService, AdvisorStopped


class Recording(AdvisorService):
    """The real service, noting how each run ended."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.ends = []

    def run(self, *args, **kwargs):
        try:
            result = super().run(*args, **kwargs)
        except AdvisorStopped as error:
            self.ends.append(str(error))
            raise
        self.ends.append("answered")
        return result


class SteppingClock:
    """A stand-in for the ``time`` module of :mod:`analyzer.web.advisor_service`: each
    reading of ``monotonic()`` is ``step`` seconds after the last.  A run reads it when
    it starts, before its first batch and after each batch, so a run of ``k`` batches
    (256 samples each) takes ``(k + 1) * step`` seconds by it, however fast the machine:
    whether it finishes within a time limit is decided, not raced."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self._lock = threading.Lock()

    def monotonic(self) -> float:
        with self._lock:
            self.now += self.step
            return self.now


def slow_clock(monkeypatch, step):
    """The advisor service's clock replaced by a :class:`SteppingClock` of ``step``."""
    clock = SteppingClock(step)
    monkeypatch.setattr("analyzer.web.advisor_service.time", clock)
    return clock
