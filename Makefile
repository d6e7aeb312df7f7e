# The README's two commands. Both need only Python 3.11+ on the machine.
#   make demo   create .venv, install simkit, run the default sweep, say where the report is
#   make test   create .venv with the dev extras, run the whole test suite
#   make docs   build the documentation site into site/ (warnings are errors)
#   make mutants  break each rule of tests/mutants/<game>.toml in a scratch copy: the tests must go red
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test docs mutants

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# stamp files: reinstall only when pyproject.toml changes
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/simkit sweep
	@echo "simkit is installed in $(VENV): run it as $(BIN)/simkit, or first: . $(BIN)/activate"

# pytest exits 5 when it collects no tests; make treats that as the failure it is. On every core
# (pytest-xdist), each game's tests in one worker so that its engine is compiled once (tests/conftest.py)
test: $(VENV)/.installed-dev
	$(BIN)/python -m pytest -q -n auto --dist loadgroup

# not part of `make test` or CI: every mutant recompiles its game's engine (see tests/mutants/run.py).
# `make mutants RANDOM=40 SEED=7` draws 40 mutants per game from its rule code instead of the
# hand-written ones; GAMES=set_sail limits either mode to some games, JOBS=1 runs one at a time.
JOBS ?= 2
mutants: $(VENV)/.installed-dev
	$(BIN)/python tests/mutants/run.py $(GAMES) --jobs $(JOBS) $(if $(RANDOM),--random $(RANDOM) --seed $(or $(SEED),0))

docs: $(VENV)/.installed-dev
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site
	@echo "the documentation site is in site/ (open site/index.html)"
