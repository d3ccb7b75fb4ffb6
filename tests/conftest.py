import os

import matplotlib
from hypothesis import settings

matplotlib.use("Agg")
os.environ.setdefault("MPLBACKEND", "Agg")
# the suite compiles the advisor's and plain rummy's kernels in its own tests
os.environ["ANALYZER_WARM_BESIDE"] = "0"

# A test run's verdict should not depend on the run: the property tests draw the same
# examples every time (derived from each test), unless HYPOTHESIS_PROFILE=explore asks
# for fresh random ones (and more of them) to hunt for new counterexamples.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False, max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
