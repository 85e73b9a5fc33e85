"""Run the command line as ``python -m carom``."""

import sys

from carom.cli import main

sys.exit(main())
