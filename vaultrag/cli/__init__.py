"""The command line: `main` parses and dispatches (vaultrag.cli.main), one module per group of commands beside it."""
