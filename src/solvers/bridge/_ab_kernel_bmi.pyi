"""Type stubs of the LZCNT/BMI build of the double-dummy search (see ``_ab_kernel_bmi.pyx``)."""

from solvers.bridge._ab_kernel import *  # noqa: F403
