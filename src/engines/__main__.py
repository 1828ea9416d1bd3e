"""``python -m engines`` runs the ``qipai`` command line."""

import sys

from engines.cli import main

sys.exit(main())
