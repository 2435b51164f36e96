"""Optional dependencies: a missing one is reported with the extra that installs it."""

from __future__ import annotations


def missing_extra(error: ModuleNotFoundError, extra: str, feature: str) -> ModuleNotFoundError:
    """The error to raise (``from error``) when ``feature`` cannot import an optional
    dependency: it names the missing module and the extra of yokai-septet to install."""
    top = (error.name or "a module").split(".")[0]
    return ModuleNotFoundError(
        f'{feature} needs {top}, which is not installed: pip install ".[{extra}]" in the '
        f'yokai-septet clone (after the first release: pip install "yokai-septet[{extra}]")',
        name=error.name,
    )
