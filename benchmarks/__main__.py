"""``python -m benchmarks [--quick] [--only NAME ...]``: pin each library to one thread, run."""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"  # before NumPy or torch are imported, so that both use one thread

from benchmarks.run import main  # noqa: E402

main()
