"""Optional dependencies: a missing one is reported with the extra that installs it."""

from __future__ import annotations

from ._core import MissingExtraError


def missing_extra(error: ModuleNotFoundError, extra: str, feature: str) -> MissingExtraError:
    """The error to raise (``from error``) when ``feature`` cannot import an optional
    dependency: it names the missing module and the extra of yokai-septet to install (a
    ``yokai_septet.MissingExtraError``, so also a ``ModuleNotFoundError``)."""
    top = (error.name or "a module").split(".")[0]
    return MissingExtraError(
        f'{feature} needs {top}, which is not installed: pip install ".[{extra}]" in the '
        f'yokai-septet clone (after the first release: pip install "yokai-septet[{extra}]")',
        name=error.name,
    )
