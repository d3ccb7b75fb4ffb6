"""An advisor service that notes how each run ended (shared by the web tests)."""

from __future__ import annotations

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
