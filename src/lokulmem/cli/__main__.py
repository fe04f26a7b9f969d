"""``python -m lokulmem.cli``: the ``lokulmem`` command."""

import sys

from . import main

sys.exit(main())
