# Issue 15: `make test` is the one test command (README, .ci/run): the Rust suite, then the
# Python package built into a virtual environment (target/pyenv, maturin and numpy/pytest from
# PyPI) and its pytest suite. Nothing else needs to be installed on a fresh machine.
PYTHON ?= python3
PYENV  := target/pyenv
PY     := $(PYENV)/bin/python

.PHONY: test test-rust test-python pyenv develop

test: test-rust test-python

test-rust:
	cargo test --release

$(PY):
	$(PYTHON) -m venv $(PYENV)

pyenv: $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check "maturin>=1.7,<2" numpy pytest

# Builds the extension (release, into the workspace's target/) and installs it in the venv.
develop: pyenv
	VIRTUAL_ENV=$(abspath $(PYENV)) $(PYENV)/bin/maturin develop --release --quiet

# The Python tests call the CLI binary (target/release/dpbai) to compare seeds and numbers.
test-python: develop
	cargo build --release --bin dpbai
	$(PY) -m pytest python/tests python/dpbai --doctest-modules -q
