"""Argument checks of the public functions: every error names the Python keyword, the value
and what is allowed (``TypeError`` for a wrong type, ``ValueError`` for a value out of range),
before anything reaches the extension module."""

from __future__ import annotations

import math
import numbers
from typing import Any, Callable, List, Optional

import numpy as np

U64_MAX = 2**64 - 1


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def integer(name: str, value: Any, lo: int, hi: int = U64_MAX) -> int:
    """An integer in ``[lo, hi]`` (``hi`` defaults to 2^64 - 1, the range of a seed)."""
    hi_text = "2^64 - 1" if hi == U64_MAX else str(hi)
    allowed = f"an integer in [{lo}, {hi_text}]"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"invalid {name} = {_show(value)}: must be {allowed}")
    v = int(value)
    if not lo <= v <= hi:
        raise ValueError(f"invalid {name} = {v}: must be {allowed}")
    return v


def opt_integer(name: str, value: Any, lo: int, hi: int = U64_MAX) -> Optional[int]:
    """``None`` or :func:`integer`."""
    return None if value is None else integer(name, value, lo, hi)


def real(name: str, value: Any) -> float:
    """A finite real number (the range is checked by the library, which names ``name`` too)."""
    if isinstance(value, (bool, str, bytes)) or not isinstance(value, numbers.Real):
        raise TypeError(f"invalid {name} = {_show(value)}: must be a finite real number")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"invalid {name} = {v}: must be a finite real number")
    return v


def opt_real(name: str, value: Any) -> Optional[float]:
    """``None`` or :func:`real`."""
    return None if value is None else real(name, value)


def text(name: str, value: Any) -> str:
    """A string."""
    if not isinstance(value, str):
        raise TypeError(f"invalid {name} = {_show(value)}: must be a string")
    return value


def flag(name: str, value: Any) -> bool:
    """A bool."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"invalid {name} = {_show(value)}: must be True or False")
    return bool(value)


def vector(name: str, value: Any, what: str = "arm means", at_least: int = 1) -> List[float]:
    """A 1-D sequence of finite real numbers (a list, tuple or 1-D array), as a list."""
    example = "e.g. [0.9, 0.8]"
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"invalid {name} = {_show(value)}: must be a sequence of {what} ({example}), "
            "not a string"
        )
    try:
        a = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"invalid {name} = {_show(value)}: must be a 1-D sequence of {what} ({example})"
        ) from None
    if a.ndim != 1:
        raise ValueError(
            f"invalid {name}: must be 1-D (a sequence of {what}, {example}); got an array of "
            f"shape {a.shape}"
        )
    if a.size < at_least:
        raise ValueError(f"invalid {name}: must hold at least {at_least} values, got {a.size}")
    bad = np.flatnonzero(~np.isfinite(a))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"invalid {name}[{i}] = {a[i]}: {what} must be finite real numbers"
        )
    out: List[float] = a.tolist()
    return out


def progress(value: Any, desc: str) -> Optional[Callable[[int, int], None]]:
    """``progress=``: ``None``/``False`` (none), a callable ``progress(done, total)``, or
    ``True`` (a tqdm bar when tqdm is installed, else a line on stderr at each call)."""
    if value is None or value is False:
        return None
    if value is True:
        return Bar(desc)
    if callable(value):
        report: Callable[[int, int], None] = value
        return report
    raise TypeError(
        f"invalid progress = {_show(value)}: must be None, True or a callable "
        "progress(done, total)"
    )


class Bar:
    """The ``progress=True`` reporter: a tqdm bar if tqdm is installed, else a line on stderr
    per call. Closed when ``done == total``."""

    def __init__(self, desc: str) -> None:
        self.desc = desc
        self._bar: Any = None
        self._tqdm: Any = None
        try:
            from tqdm.auto import tqdm  # type: ignore[import-not-found, import-untyped, unused-ignore]

            self._tqdm = tqdm
        except ImportError:
            pass

    def __call__(self, done: int, total: int) -> None:
        if self._tqdm is not None:
            if self._bar is None:
                self._bar = self._tqdm(total=total, desc=self.desc)
            self._bar.update(done - self._bar.n)
            if done >= total:
                self._bar.close()
        else:
            import sys

            print(f"{self.desc}: {done}/{total}", file=sys.stderr)
