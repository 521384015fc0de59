# Two commands do all the set-up on a fresh machine:
#   make demo   - dump what torch.compile does to the bundled example
#   make test   - every test: the whole suite under 3.11, the decompiler under 3.8-3.13
PYTHON311 ?= $(shell tools/find-python 3.11)
VENV      := .venv
PY        := $(VENV)/bin/python
STAMP     := $(VENV)/.installed

.PHONY: demo test test-main test-other-pythons bench clean

$(STAMP): pyproject.toml
	@test -n "$(PYTHON311)" || { echo "Python 3.11 not found (install it or set PYTHON311=...)"; exit 1; }
	$(PYTHON311) -m venv $(VENV)
	# torch is pinned: an unpinned torch pulls a multi-gigabyte CUDA build.
	$(VENV)/bin/pip install -q torch==2.13.0 numpy
	$(VENV)/bin/pip install -q -e '.[test]' debugpy
	touch $@

demo: $(STAMP)
	$(PY) examples/seed.py demo_dump

test: test-main test-other-pythons

test-main: $(STAMP)
	$(PY) -m pytest -q tests

test-other-pythons:
	tools/test-other-pythons

bench: $(STAMP)
	$(PY) bench/corpus.py --every 4

clean:
	rm -rf $(VENV) .venvs demo_dump unveil_dump
