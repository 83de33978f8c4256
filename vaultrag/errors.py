"""Errors a person can act on (environment problems), as opposed to bugs."""


class UserFacingError(Exception):
    """A problem in the user's environment, with a message that says what to do.

    The CLI prints the message without a traceback and exits with status 2; the GUI shows it once.
    """


class VaultNotFound(UserFacingError):
    """The vault path does not exist or is not a readable folder."""


class IndexTooNew(UserFacingError):
    """The index was written by a newer vaultrag; we refuse to touch it."""


class ModelUnavailable(UserFacingError):
    """An embedding or reranking model cannot be loaded (package missing, bad path)."""


class ScopeError(UserFacingError):
    """A search scope names a folder, tag or note that the index does not know."""


class IndexOutdated(UserFacingError):
    """The index needs migrations that a read-only open cannot apply (a writable open applies them)."""


class IndexBusy(UserFacingError):
    """Another process is writing this index (one writer per index)."""


class BadQuestion(UserFacingError):
    """A question (or a query option) that cannot be searched as given."""
