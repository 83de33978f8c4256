"""`python -m vaultrag` runs the command-line interface."""

from vaultrag.cli.main import main

raise SystemExit(main())
