"""A method's TOML config: read, checked against the method's key table, filled with its
defaults. Every method declares its keys once, as ``{key: (kind, default)}`` tables (a
default of ``None`` makes the key required; a nested table is a section); a key the
table does not know, a missing required key or a value of the wrong kind is refused
before any work, naming the file, the section and the key.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Dict, Mapping, Tuple, Union

import yokai_septet as ys
from yokai_septet import models

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

#: ``{key: (kind, default)}``, or ``{section: {key: (kind, default)}}`` for a section.
Keys = Mapping[str, Union[Tuple[str, Any], Mapping[str, Tuple[str, Any]]]]


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


#: Each kind: (its test, what it expects, for the message).
KINDS = {
    "variant": (lambda v: isinstance(v, str) and v in ys._core.VARIANTS,
                f"one of {list(ys._core.VARIANTS)}"),
    "count": (lambda v: _is_int(v) and v > 0, "a positive integer"),
    "count0": (lambda v: _is_int(v) and v >= 0, "an integer >= 0"),
    "seed": (lambda v: _is_int(v) and 0 <= v < 2**63, "an integer in 0 .. 2**63-1"),
    "rate": (lambda v: _is_number(v) and 0 <= v <= 1, "a number in [0, 1]"),
    "positive": (lambda v: _is_number(v) and v > 0, "a positive number"),
    "number0": (lambda v: _is_number(v) and v >= 0, "a number >= 0"),
    "widths": (lambda v: isinstance(v, list) and bool(v)
               and all(_is_int(w) and w > 0 for w in v),
               "a non-empty list of positive integers"),
    "inputs": (lambda v: v in models.INPUTS, f"one of {list(models.INPUTS)}"),
    "bot": (lambda v: isinstance(v, str) and bool(v), "a bot name"),
    "model": (lambda v: isinstance(v, str) and bool(v),
              "\"shipped\" (the variant's shipped nn model), \"none\" or a model file"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "bots": (lambda v: isinstance(v, list) and bool(v)
             and all(isinstance(b, str) and b for b in v), "a non-empty list of bot names"),
}


def problem(cfg: Mapping[str, Any], keys: Keys, where: str = "") -> str:
    """What is wrong with ``cfg`` against ``keys`` (which key, and why), or ``""``."""
    at = f"[{where}] " if where else ""
    for k in cfg:
        if k not in keys:
            return f"{at}unknown key '{k}' (known: {', '.join(keys)})"
    for k, spec in keys.items():
        if isinstance(spec, Mapping):
            section = cfg.get(k, {})
            if not isinstance(section, dict):
                return f"[{k}] must be a table"
            p = problem(section, spec, k)
            if p:
                return p
            continue
        kind, default = spec
        if k not in cfg:
            if default is None:
                return f"{at}missing key '{k}'"
            continue
        test, want = KINDS[kind]
        if not test(cfg[k]):
            return f"{at}{k} = {cfg[k]!r}, expected {want}"
    return ""


def with_defaults(cfg: Mapping[str, Any], keys: Keys) -> Dict[str, Any]:
    """``cfg`` with every missing key (and section) set to its default."""
    out: Dict[str, Any] = {}
    for k, spec in keys.items():
        if isinstance(spec, Mapping):
            out[k] = with_defaults(cfg.get(k, {}), spec)
        else:
            out[k] = cfg.get(k, spec[1])
    return out


def read(path: Path, keys: Keys, check: Any = None) -> Dict[str, Any]:
    """The config at ``path``, checked and filled with its defaults; exits naming the file
    and what is wrong otherwise. ``check(cfg)``, if given, returns the method's own
    problems with a config already of the right kinds (``""`` when none)."""
    try:
        cfg = tomllib.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        sys.exit(f"{path}: {e}")
    p = problem(cfg, keys)
    if not p:
        cfg = with_defaults(cfg, keys)
        p = check(cfg) if check else ""
    if p:
        sys.exit(f"{path}: {p}")
    return cfg
