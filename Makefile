# Two commands do all the set-up on a fresh machine:
#   make demo   - dump what torch.compile does to the bundled example
#   make test   - every test: the whole suite under 3.11 (test-main); the decompiler under
#                 3.8, 3.9, 3.10, 3.12, 3.13 (pyenv's 3.13.0), 3.13-sid (the latest 3.13),
#                 3.14 and 3.15 (test-decompiler-<name>; all of them in a row: test-other-pythons);
#                 tests/torch and tests/cli under 3.14 with torch 2.13.0 (test-torch-3.14)
# Interpreters come from tools/find-python: pyenv, else (3.13-sid, 3.14, 3.15) a CPython
# downloaded once from Debian sid by tools/get-python into ${UNVEIL_CACHE:-~/.cache/unveil},
# which `make clean` keeps. Outside CI a missing interpreter is skipped with a NOTICE; with
# CI=true it is an error. pip's own download cache (~/.cache/pip) is left on: never disable it.
PYTHON311 ?= $(shell tools/find-python 3.11)
VENV      := .venv
PY        := $(VENV)/bin/python
STAMP     := $(VENV)/.installed
# the torch suite under 3.14; PYTHON314 is looked up only when its venv is built
PYTHON314 ?= $(shell tools/find-python 3.14)
VENV314   := .venvs/torch-3.14
WHEELS314 := $(or $(UNVEIL_CACHE),$(HOME)/.cache/unveil)/wheels/cp314
STAMP314  := $(VENV314)/.installed

.PHONY: demo test test-main test-other-pythons test-torch-3.14 _test-torch-3.14 bench clean
# the decompiler suite under each other interpreter is a target of its own (test-decompiler-3.8, ...)
OTHER_PYTHONS := 3.8 3.9 3.10 3.12 3.13 3.13-sid 3.14 3.15
DECOMPILER_TESTS := $(addprefix test-decompiler-,$(OTHER_PYTHONS))
.PHONY: $(DECOMPILER_TESTS)

# One short line per step while it installs (pip itself stays quiet: -q).
$(STAMP): pyproject.toml
	@test -n "$(PYTHON311)" || { echo "Python 3.11 not found (install it or set PYTHON311=...)"; exit 1; }
	@echo "creating $(VENV) (Python 3.11: $(PYTHON311))"
	@$(PYTHON311) -m venv $(VENV)
# torch is pinned: an unpinned torch pulls a multi-gigabyte CUDA build.
	@echo "installing torch 2.13.0 (CPU) and numpy: a few minutes the first time"
	@$(VENV)/bin/pip install -q torch==2.13.0 numpy
	@echo "installing unveil (editable, with its test tools and debugpy)"
	@$(VENV)/bin/pip install -q -e '.[test]' debugpy
	@touch $@

demo: $(STAMP)
	@echo "running examples/seed.py: dumping what torch.compile does into demo_dump/"
	@$(PY) examples/seed.py demo_dump

# The suites run two at a time (this machine class has two cores), longest first; each one's
# output is printed whole when it ends; a failing suite does not stop the others (-k). The
# .venv is made before any of them starts.
test: $(STAMP)
	@echo "running the suites two at a time; each prints its output when it ends"
	@$(MAKE) --no-print-directory -j2 -k --output-sync=target test-main test-torch-3.14 $(DECOMPILER_TESTS)

test-main: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider tests

test-other-pythons:
	tools/test-other-pythons

$(DECOMPILER_TESTS): test-decompiler-%:
	@UNVEIL_OTHER_PYTHONS=$* tools/test-other-pythons

# after .venv: two editable installs of one checkout must not run at once
$(STAMP314): pyproject.toml | $(STAMP)
	@test -n "$(PYTHON314)" || { echo "Python 3.14 not found (install it or set PYTHON314=...)"; exit 1; }
	$(PYTHON314) -m venv $(VENV314)
	@echo "installing torch 2.13.0 for Python 3.14 (about 4.7 GB the first time)"
	# pinned like the 3.11 venv's: the index's cp314 torch is the CUDA build; the tests run it on CPU
	# pip keeps no cache of the index's answers here: the wheels are kept in a folder of ours
	$(VENV314)/bin/pip download -q -d $(WHEELS314) torch==2.13.0 numpy
	$(VENV314)/bin/pip install -q --no-index --find-links $(WHEELS314) torch==2.13.0 numpy
	$(VENV314)/bin/pip install -q -e '.[test]' debugpy
	touch $@

# Outside CI a missing 3.14 is a NOTICE and the suite is skipped; with CI=true it fails.
test-torch-3.14:
	@py=$$(tools/find-python 3.14); \
	if [ -n "$$py" ]; then $(MAKE) --no-print-directory _test-torch-3.14 PYTHON314="$$py"; \
	elif [ "$${CI:-}" = true ]; then echo "ERROR: no Python 3.14 interpreter found (required in CI)" >&2; exit 1; \
	else echo "NOTICE: no Python 3.14 interpreter found; skipping the torch tests under 3.14" >&2; fi

_test-torch-3.14: $(STAMP314)
	@echo "== torch tests under Python $$($(VENV314)/bin/python -c 'import platform; print(platform.python_version())') ($(PYTHON314))"
	$(VENV314)/bin/python -m pytest -q -p no:cacheprovider tests/torch tests/cli

bench: $(STAMP)
	$(PY) bench/corpus.py --every 4

clean:
	rm -rf $(VENV) .venvs demo_dump unveil_dump
