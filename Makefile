# `make test` is the one test command (README, .ci/run): the Rust suite, then the
# Python package built into a virtual environment (target/pyenv, maturin, numpy, pytest and
# mypy from PyPI), its type check and its pytest suite. Nothing else needs to be installed on
# a fresh machine.
PYTHON ?= python3
PYENV  := target/pyenv
PY     := $(PYENV)/bin/python

.PHONY: test test-rust test-python typecheck pyenv develop wheel wheel-check

test: test-rust test-python

test-rust:
	cargo test --release

$(PY):
	$(PYTHON) -m venv $(PYENV)

pyenv: $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check "maturin>=1.7,<2" numpy pytest pandas tqdm matplotlib "mypy>=1.10"

# Builds the extension (release, into the workspace's target/) and installs it in the venv.
develop: pyenv
	VIRTUAL_ENV=$(abspath $(PYENV)) $(PYENV)/bin/maturin develop --release --quiet

# The package's types: `mypy --strict` on the package and the examples, and `stubtest`, which
# fails when the stub of the compiled module (python/dpbai/_dpbai.pyi) and its classes disagree.
typecheck: develop
	$(PY) -m mypy --strict python/dpbai python/examples
	$(PY) -m mypy.stubtest dpbai

# The Python tests call the CLI binary (target/release/dpbai) to compare seeds and numbers.
test-python: typecheck
	cargo build --release --bin dpbai
	$(PY) -m pytest python/tests python/dpbai --doctest-modules -q

# The abi3 wheel (one file for every CPython >= 3.9 on this platform) into target/wheels.
WHEEL_VENV := target/wheel-venv
WHEEL_INSTALL_LIMIT ?= 30
wheel: pyenv
	rm -f target/wheels/dpbai-*.whl
	$(PYENV)/bin/maturin build --release --quiet --interpreter $(PY) --out target/wheels

# Installs the wheel into a fresh venv with no compiler reachable (CC=false, no cargo on the
# PATH), fails if that takes more than WHEEL_INSTALL_LIMIT seconds, then runs its `dpbai`.
wheel-check: wheel
	rm -rf $(WHEEL_VENV)
	$(PYTHON) -m venv $(WHEEL_VENV)
	@start=$$($(PYTHON) -c 'import time; print(time.time())'); \
	env CC=false CXX=false PATH=$(abspath $(WHEEL_VENV))/bin:/usr/bin:/bin \
	  $(WHEEL_VENV)/bin/pip install --quiet --disable-pip-version-check --no-cache-dir \
	  target/wheels/dpbai-*-abi3-*.whl || exit 1; \
	$(PYTHON) -c "import sys, time; s = time.time() - $$start; \
	print(f'wheel: installed in {s:.1f} s without a compiler (limit $(WHEEL_INSTALL_LIMIT) s)'); \
	sys.exit(s >= $(WHEEL_INSTALL_LIMIT))"
	$(WHEEL_VENV)/bin/dpbai --version
	$(WHEEL_VENV)/bin/python -c "import dpbai; print('import dpbai', dpbai.__version__)"
