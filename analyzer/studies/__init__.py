"""The studies: every question declared once (:class:`~analyzer.studies.study.Study`),
its answer computed, saved and loaded (:class:`~analyzer.studies.answer.Answer`), for the
doors (the report, the command line, the notebook, the web app) to render."""
