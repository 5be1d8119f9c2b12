# `make run` and `make test` do all their set-up themselves (see README.md).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell sha256sum requirements.txt | cut -c1-12)
HOST ?= 127.0.0.1
PORT ?= 8000
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres
export TEST_DATABASE_URL

.PHONY: install run test lint test-sqlite test-postgres test-pure soak bench bench-quick messages clean

# The engine modules listed in games/compiled.py are compiled with mypyc (gcc and Python's
# headers), again whenever a source under games/ changes.
COMPILED := build/mypyc/compiled-from
ENGINE_SOURCES := $(shell find games -name '*.py')

install: $(STAMP) $(COMPILED)

$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	@rm -f $(VENV)/.installed-*
	@touch $@

$(COMPILED): $(STAMP) $(ENGINE_SOURCES)
	@mkdir -p build
	@echo "== compiling the engines' hot modules with mypyc (games/compiled.py)"
	@$(PY) scripts/compile_engines.py > build/mypyc.log 2>&1 || \
		{ cat build/mypyc.log; echo "!! mypyc could not compile the engines: see above"; exit 1; }

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo --demo --password pisa-demo-2026
	@echo ""
	@echo "  Club ledger: http://$(HOST):$(PORT)/"
	@echo "  Demo login:  demo / pisa-demo-2026   (demo mode, this machine only; admin: http://$(HOST):$(PORT)/admin/)"
	@echo ""
	$(PY) -m ledger.serve --host $(HOST) --port $(PORT) --workers 1

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

test: lint test-sqlite test-postgres test-pure

test-sqlite: install
	@echo "== pytest on SQLite"
	env -u DATABASE_URL $(VENV)/bin/pytest

test-postgres: install
	@if $(PY) scripts/pg_available.py "$(TEST_DATABASE_URL)"; then \
		echo "== pytest on PostgreSQL ($(TEST_DATABASE_URL))"; \
		DATABASE_URL="$(TEST_DATABASE_URL)" $(VENV)/bin/pytest; \
	elif [ "$(REQUIRE_POSTGRES)" = "1" ]; then \
		echo "!! PostgreSQL at $(TEST_DATABASE_URL) does not answer and REQUIRE_POSTGRES=1"; exit 1; \
	else \
		echo ""; \
		echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"; \
		echo "!! SKIPPED: the PostgreSQL run. No server answers at $(TEST_DATABASE_URL)."; \
		echo "!! Start one, or set TEST_DATABASE_URL; REQUIRE_POSTGRES=1 makes this an error."; \
		echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"; \
	fi

# The compiled engine modules' tests again, on their plain Python source.
test-pure: install
	@echo "== pytest on the engines' pure-Python source (ENGINES_PURE_PYTHON=1)"
	ENGINES_PURE_PYTHON=1 env -u DATABASE_URL $(VENV)/bin/pytest tests/games/sanmarco \
		tests/games/test_compiled.py tests/games/test_one_skeleton.py

BENCH_STAMP := $(VENV)/.bench-$(shell sha256sum requirements-bench.txt | cut -c1-12)

$(BENCH_STAMP): requirements-bench.txt $(STAMP)
	$(PY) -m pip install --quiet -r requirements-bench.txt
	@rm -f $(VENV)/.bench-*
	@touch $@

bench: $(BENCH_STAMP)
	$(PY) bench/run.py

bench-quick: $(BENCH_STAMP)
	$(PY) bench/run.py --quick --output bench/results-quick.json

soak: install
	env -u DATABASE_URL $(VENV)/bin/pytest -m soak
	@if $(PY) scripts/pg_available.py "$(TEST_DATABASE_URL)"; then \
		echo "== soak tests on PostgreSQL ($(TEST_DATABASE_URL))"; \
		DATABASE_URL="$(TEST_DATABASE_URL)" $(VENV)/bin/pytest -m soak tests/hardening; \
	else \
		echo "!! PostgreSQL at $(TEST_DATABASE_URL) does not answer: its soak tests were not run"; \
	fi

messages: install
	$(PY) manage.py makemessages -l it -l en --no-obsolete -i '.venv/*' -i 'var/*' -i 'games/*'
	$(PY) manage.py compilemessages -i .venv

clean:
	rm -rf $(VENV) var build .pytest_cache .mypy_cache .ruff_cache
	find games -name '*.so' -delete

# A long schemathesis run against every API operation (FUZZ_API_EXAMPLES per operation and
# role, random each run); the suite runs a small fixed sample of the same test.
FUZZ_API_EXAMPLES ?= 300
.PHONY: fuzz-api
fuzz-api: install
	env -u DATABASE_URL FUZZ_API_EXAMPLES=$(FUZZ_API_EXAMPLES) $(VENV)/bin/pytest -p no:cacheprovider tests/hardening/test_api_schema.py
