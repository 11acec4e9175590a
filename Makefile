# threadgraph: every target sets itself up on a fresh machine (creates .venv).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
# The int8 e5 model beside the checkout (../shared/models); empty means "use the hub".
E5_PATH ?= $(firstword $(wildcard ../shared/models/multilingual-e5-small-int8))
DEMO_ENV := $(if $(E5_PATH),THREADGRAPH_EMBEDDING_MODEL_PATH=$(abspath $(E5_PATH)),)

.PHONY: install demo test bench bench-scale redis-server clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	@echo "Installing threadgraph and its dependencies into $(VENV) (about a minute, ~800 MB)…"
	$(PY) -m pip install --progress-bar on -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

## make demo: ingest the bundled corpora (once), show a scripted conversation, then chat.
demo: $(STAMP)
	$(DEMO_ENV) $(VENV)/bin/threadgraph demo

## make test: the test suite (real Kùzu, LanceDB, fastembed, fake platform servers on 127.0.0.1,
## a real redis-server: installed from Debian's package when missing and run as root, else the
## Redis tests are skipped with the reason).
test: $(STAMP) redis-server
	HF_HUB_OFFLINE=1 $(PY) -m pytest

## make redis-server: install Debian's redis-server when it is missing (root only; the tests start
## their own server on a free 127.0.0.1 port).
redis-server:
	@if command -v redis-server >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing redis-server (Debian package) for the Redis tests"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get install -y -qq redis-server >/dev/null || { apt-get update -qq && apt-get install -y -qq redis-server >/dev/null; } \
	  || echo "redis-server could not be installed: the Redis tests will be skipped"; \
	else echo "redis-server not found (and not root to install it): the Redis tests will be skipped"; fi

## make bench-scale: load test of N workers sharing a real Redis (benchmarks/scale.py; needs redis-server).
bench-scale: $(STAMP) redis-server
	HF_HUB_OFFLINE=1 $(PY) benchmarks/scale.py

## make bench: ingest, answer-latency, evaluation and generalization benchmarks; writes benchmarks/results/.
bench: $(STAMP)
	$(DEMO_ENV) HF_HUB_OFFLINE=1 $(PY) benchmarks/ingest.py
	$(DEMO_ENV) HF_HUB_OFFLINE=1 $(PY) benchmarks/answer.py
	$(DEMO_ENV) HF_HUB_OFFLINE=1 $(PY) benchmarks/eval.py
	$(DEMO_ENV) HF_HUB_OFFLINE=1 $(PY) benchmarks/generalization.py

clean:
	rm -rf $(VENV) data
