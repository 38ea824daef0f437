"""The ``dpbai`` console command of the Python package: the Rust command line, compiled into
the extension module (``dpbai._dpbai.cli_main``), run in this process with the signals of a
native program (Ctrl-C ends it, a closed pipe ends it quietly)."""

from __future__ import annotations

import signal
import sys
from typing import List, Optional


def main(argv: Optional[List[str]] = None) -> None:
    """Runs ``dpbai ARGS...`` (``argv`` defaults to ``sys.argv[1:]``) and exits with its code:
    0 success, 2 bad usage or input, 1 any other failure."""
    from . import _dpbai

    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    args = sys.argv[1:] if argv is None else list(argv)
    sys.stdout.flush()
    sys.exit(_dpbai.cli_main(["dpbai", *args]))


if __name__ == "__main__":  # pragma: no cover - `python -m dpbai._cli`
    main()
