"""`python -m vaultrag` runs the command-line interface."""

from vaultrag.cli import main

raise SystemExit(main())
