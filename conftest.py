"""Collection from the repository root (``testpaths`` include the package for doctests):
without the ``web`` extra the web app's modules cannot be imported, so they are skipped."""

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("fastapi") else ["analyzer/web/app.py"]
