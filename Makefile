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
	$(VENV)/bin/lint-imports --no-cache

# `make test` runs its pytest processes at the same time, as much of each waits on its
# database, subprocesses or browser: the SQLite pass in two (the browser tests, then
# test-pure, in one; every other test in the other) and the PostgreSQL pass, with `make lint`
# beside them (mypy keeps one core busy for a minute that would otherwise idle). The first
# SQLite part prints as it goes; the others' output follows (and stays in var/*.log);
# any part failing fails `make test`. Each process keeps a var/ folder of its own (the login
# limits' file cache, the secret key) and a pytest cache of its own, so none clears or counts
# another's limits. `make test-sqlite` and `make test-postgres` run one pass in one process.
SQLITE_SPLIT := tests/browser
test: install
	@mkdir -p var; rm -f var/test-sqlite-browser.status
	@echo "== at once: lint (ruff, mypy, import contracts), SQLite (all but $(SQLITE_SPLIT))," \
		"SQLite ($(SQLITE_SPLIT), then test-pure), PostgreSQL"
	@trap 'trap - INT TERM; kill 0' INT TERM; \
	$(MAKE) --no-print-directory -o install lint > var/lint.log 2>&1 & \
	lint=$$!; \
	$(MAKE) --no-print-directory -o install test-postgres > var/test-postgres.log 2>&1 & \
	postgres=$$!; \
	{ $(MAKE) --no-print-directory -o install test-sqlite SQLITE_PART=browser \
		SQLITE_TESTS="$(SQLITE_SPLIT)" > var/test-sqlite-browser.log 2>&1; \
	echo $$? > var/test-sqlite-browser.status; \
	LEDGER_VAR_DIR="$(CURDIR)/var/test-pure" \
		$(MAKE) --no-print-directory -o install test-pure > var/test-pure.log 2>&1; } & \
	split=$$!; \
	$(MAKE) --no-print-directory -o install test-sqlite SQLITE_PART=rest \
		SQLITE_TESTS="$(addprefix --ignore=,$(SQLITE_SPLIT))"; rest_status=$$?; \
	wait $$lint; lint_status=$$?; \
	wait $$split; pure_status=$$?; split_status=$$(cat var/test-sqlite-browser.status); \
	cat var/lint.log var/test-sqlite-browser.log var/test-pure.log; \
	wait $$postgres; postgres_status=$$?; \
	cat var/test-postgres.log; \
	said() { [ "$$1" = 0 ] && echo passed || echo FAILED; }; \
	postgres_said=$$(said $$postgres_status); \
	grep -q '^!! SKIPPED' var/test-postgres.log && postgres_said=SKIPPED; \
	echo ""; \
	echo "== lint (ruff, ruff format, mypy, import contracts): $$(said $$lint_status)"; \
	echo "== SQLite, all but $(SQLITE_SPLIT): $$(said $$rest_status)"; \
	echo "== SQLite, $(SQLITE_SPLIT): $$(said $$split_status)"; \
	echo "== the engines' pure-Python source (test-pure): $$(said $$pure_status)"; \
	echo "== PostgreSQL: $$postgres_said"; \
	[ $$lint_status = 0 ] && [ $$rest_status = 0 ] && [ $$split_status = 0 ] && \
		[ $$pure_status = 0 ] && [ $$postgres_status = 0 ]

# SQLITE_TESTS: which tests (pytest's arguments; all by default); SQLITE_PART names the var/
# folder and the pytest cache of a part that runs beside others.
SQLITE_TESTS ?=
SQLITE_PART ?=
test-sqlite: install
	@echo "== pytest on SQLite $(SQLITE_TESTS)"
	env -u DATABASE_URL LEDGER_VAR_DIR="$(CURDIR)/var/test-sqlite$(SQLITE_PART:%=-%)" \
		$(VENV)/bin/pytest $(SQLITE_PART:%=-o cache_dir=.pytest_cache/sqlite-%) $(SQLITE_TESTS)

test-postgres: install
	@if $(PY) scripts/pg_available.py "$(TEST_DATABASE_URL)"; then \
		echo "== pytest on PostgreSQL ($(TEST_DATABASE_URL))"; \
		DATABASE_URL="$(TEST_DATABASE_URL)" LEDGER_VAR_DIR="$(CURDIR)/var/test-postgres" \
			LEDGER_TEST_DATABASE_NAME="test_ledger_$$$$" \
			$(VENV)/bin/pytest -o cache_dir=.pytest_cache/postgres; \
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
		tests/games/cardchess tests/games/ergio tests/games/test_strong_bots.py \
		tests/games/test_compiled.py tests/games/test_one_skeleton.py

BENCH_STAMP := $(VENV)/.bench-$(shell sha256sum requirements-bench.txt | cut -c1-12)

$(BENCH_STAMP): requirements-bench.txt $(STAMP)
	$(PY) -m pip install --quiet -r requirements-bench.txt
	@rm -f $(VENV)/.bench-*
	@touch $@

bench: $(BENCH_STAMP) $(COMPILED)
	$(PY) bench/run.py

bench-quick: $(BENCH_STAMP) $(COMPILED)
	$(PY) bench/run.py --quick --output bench/results-quick.json

soak: install
	env -u DATABASE_URL $(VENV)/bin/pytest -m soak
	@if $(PY) scripts/pg_available.py "$(TEST_DATABASE_URL)"; then \
		echo "== soak tests on PostgreSQL ($(TEST_DATABASE_URL))"; \
		DATABASE_URL="$(TEST_DATABASE_URL)" LEDGER_TEST_DATABASE_NAME="test_ledger_soak_$$$$" \
			$(VENV)/bin/pytest -m soak tests/hardening; \
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
