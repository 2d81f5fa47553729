# Spieltisch — make (build) · make run · make test · make check · make bench · make fuzz · make install
#
# Every target that needs Debian packages installs the missing ones first
# (deploy/deps.sh), so a fresh machine needs nothing but make.

CC       ?= cc
CXX      ?= c++
PKGS     := fcgi sqlite3 libpq libctemplate libsodium jansson hyphen libseccomp icu-uc icu-i18n
WARN     := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes
CFLAGS   ?= -O2 -g
# libpq's header is in a directory of its own (pkg-config libpq).
PQ_INC   := $(shell pkg-config --cflags-only-I libpq 2>/dev/null || echo -I/usr/include/postgresql)
override CFLAGS += -std=c11 $(WARN) -D_DEFAULT_SOURCE -Irules -Icgi -Icgi/engine -Icgi/cmd $(PQ_INC) -MMD -MP
CXXFLAGS ?= -O2 -g
override CXXFLAGS += -std=c++11 -Wall -Wextra -Icgi -Icgi/engine -Icgi/cmd -MMD -MP
# libunistring has no pkg-config file: -lunistring by hand.
LDLIBS   := -lfcgi -lsqlite3 -lpq -lctemplate -lsodium -ljansson -lhyphen -lseccomp -licui18n -licuuc \
	    -lunistring -lpthread -lm

B        := build
RULES    := $(wildcard rules/*.c)
CGI_C    := $(filter-out cgi/main.c,$(wildcard cgi/*.c cgi/*/*.c))
CGI_CC   := $(wildcard cgi/*.cc)
UNIT     := $(wildcard tests/unit/test_*.c)
ITEST    := $(wildcard tests/integration/test_*.c)

OBJ_R    := $(RULES:%.c=$(B)/%.o)
OBJ_C    := $(CGI_C:%.c=$(B)/%.o) $(CGI_CC:%.cc=$(B)/%.o)
UNIT_BIN := $(UNIT:tests/unit/%.c=$(B)/tests/%)
# The unit tests that take longest, left out of `make check` (make test runs
# them; run-each.sh prints every binary's seconds). test_leak runs in `make
# check` too, over fewer positions (LEAK_POSITIONS).
SLOW_UNIT  := $(B)/tests/test_pairing $(B)/tests/test_lexicon
QUICK_UNIT = $(filter-out $(SLOW_UNIT),$(UNIT_RUN))
IT_BIN   := $(ITEST:tests/integration/%.c=$(B)/tests/%)
# Every run of the unit binaries starts with the longest (two at a time, so
# that none of them runs alone at the end while a core waits).
LONG_UNIT  := $(addprefix $(B)/tests/,test_pairing test_leak test_replay test_bots test_lexicon \
	test_json test_drehwurm test_dna test_play test_store)
UNIT_RUN   := $(filter $(UNIT_BIN),$(LONG_UNIT)) $(filter-out $(LONG_UNIT),$(UNIT_BIN))
# make test runs each unit binary once, under ASan+UBSan (asan), which
# counts as its run; a plain (-O2) run only where it tests more: test_leak
# over 1500 positions per game (300 under ASan), test_sandbox's fork
# refused (ASan's filter lets clone through). `make unit` runs them all.
PLAIN_UNIT := $(B)/tests/test_leak $(B)/tests/test_sandbox

# The message catalogs (docs/i18n.md): templates/po/<code>.po, compiled for
# the workers to build/locale/<code>.mo.
PO       := templates/po
LANGS    := en
MO       := $(LANGS:%=$(B)/locale/%.mo)

PREFIX   ?= /usr/local
DESTDIR  ?=

.PHONY: all deps deps-test deps-bench run test check quick-unit unit unit-plain unit-bins itest-bins sim-check perft-check docs-check i18n-check asan sanitized-run itest browser \
	bench fuzz fuzz-check install clean

all: $(B)/spieltisch $(MO)

$(B)/locale/%.mo: $(PO)/%.po
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

deps:
	@sh deploy/deps.sh build run
deps-test:
	@sh deploy/deps.sh build run test
deps-bench:
	@sh deploy/deps.sh build run bench

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@
$(B)/%.o: %.cc
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(B)/libst.a: $(OBJ_R) $(OBJ_C)
	@rm -f $@
	ar rcs $@ $^

$(B)/spieltisch: $(B)/cgi/main.o $(B)/libst.a
	$(CXX) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Each test's source is compiled to an object of its own and then linked:
# a change in the library relinks the test binaries (a tenth of a second
# each) without compiling their sources again, and the integration tests'
# harness is compiled once, not into each of them.
$(B)/tests/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -c $< -o $@
$(B)/tests/%.o: tests/integration/%.c tests/integration/harness.h tests/integration/suite.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -c $< -o $@
.SECONDARY: $(UNIT_BIN:%=%.o) $(IT_BIN:%=%.o) $(B)/tests/harness.o

# (test_pg_statements, which prepares the store's statements on a
# PostgreSQL server, needs nothing more: libpq is in LDLIBS.)
$(B)/tests/%: tests/unit/%.c $(B)/tests/%.o $(B)/libst.a
	$(CC) $(LDFLAGS) -o $@ $(B)/tests/$*.o $(B)/libst.a $(LDLIBS) -lcmocka -lstdc++ -lcurl

# Integration tests share the harness (tests/integration/harness.[ch]) and
# suite.h.
$(B)/tests/%: tests/integration/%.c $(B)/tests/%.o $(B)/tests/harness.o $(B)/libst.a
	$(CC) $(LDFLAGS) -o $@ $(B)/tests/$*.o $(B)/tests/harness.o $(B)/libst.a \
		$(LDLIBS) -lcmocka -lstdc++ -lcurl

run: deps all
	@sh deploy/run.sh

# Everything: the build, then three lanes side by side (tests/phases.sh,
# docs/reliability.md "make test"): browser and itest, which wait on
# servers and Chromium much of the time; the test binaries, pg-check (the
# store's tests on a throw-away PostgreSQL), the plain unit runs, the
# checks, sim-check and fuzz-check; asan. The last two lanes keep the cores
# busy meanwhile (under nice). Each phase prints its output whole when it
# ends, with its wall and CPU seconds.
test: deps-test
	@MAKE="$(MAKE)" sh tests/phases.sh
	@echo "make test: all suites passed"

# The test binaries alone (tests/phases.sh builds them with the program).
unit-bins: $(UNIT_BIN)
itest-bins: $(IT_BIN)

unit: $(UNIT_BIN)
	@sh tests/run-each.sh $(UNIT_RUN)

unit-plain: $(PLAIN_UNIT)
	@sh tests/run-each.sh $(PLAIN_UNIT)

# The unit tests that open a store (tmpdb.h: the store's and the engine's)
# once more on PostgreSQL, on a throw-away cluster (docs/storage.md, "The
# PostgreSQL backend").
PG_UNIT  := $(patsubst tests/unit/%.c,$(B)/tests/%,$(shell grep -l 'tmpdb\.h"' $(UNIT)))
# … and the check that every statement of the store prepares there.
PG_UNIT  += $(B)/tests/test_pg_statements
pg-check: $(PG_UNIT)
	@sh tests/pg/check.sh $(PG_UNIT)

# The quick tier for the edit-compile-test loop, under a minute on a quiet
# two-core machine (docs/reliability.md "make check"): the build, the catalogs, the move
# docs, the perft tables and signatures, and the unit tests but the slowest.
# The build two files at a time, then the checks in turn (the unit tests two
# binaries at a time).
check: deps-test
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory -j2 all $(QUICK_UNIT) && \
	$(MAKE) --no-print-directory docs-check i18n-check perft-check quick-unit && \
	echo "make check: the quick tier passed in $$(( $$(date +%s) - start )) s (make test runs everything)"

quick-unit: $(QUICK_UNIT)
	@LEAK_POSITIONS=$${LEAK_POSITIONS:-100} sh tests/run-each.sh $(QUICK_UNIT)

# The simulators: thousands of random parties per game and player count.
sim-check: $(B)/spieltisch
	@sh tests/sim-check.sh $(B)/spieltisch

# Behaviour proofs: perft tables and sim signatures as checked in (docs/perft.md).
perft-check: $(B)/spieltisch
	@sh tests/perft/check.sh $(B)/spieltisch

# The move docs carry every game's table of verbs as the game has it.
docs-check: $(B)/spieltisch
	@sh tests/docs-check.sh $(B)/spieltisch

# Every message in German has its English and the other way round, with the
# same arguments (docs/i18n.md); then the check itself, on a broken catalog.
i18n-check: deps-test
	@sh tests/i18n-check.sh $(LANGS)
	@sh tests/i18n-check-test.sh

# The unit tests and the simulators once more under ASan + UBSan + LeakSanitizer,
# built two files at a time; the leak check walks fewer positions there (it
# is here for the memory, its breadth is the plain run's). Line tables only
# (-g1): the sanitizers' reports name function, file and line all the same,
# and the build takes a quarter less time than with full debug information.
ASAN_FLAGS := -O1 -g1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
asan:
	@$(MAKE) --no-print-directory -j2 B=$(B)/asan \
		CFLAGS="$(ASAN_FLAGS)" CXXFLAGS="$(ASAN_FLAGS)" \
		LDFLAGS="-fsanitize=address,undefined" SIM_GAMES=small \
		sanitized-run

sanitized-run: $(UNIT_BIN) $(B)/spieltisch
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp LEAK_POSITIONS=300 \
		sh tests/run-each.sh $(UNIT_RUN)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		SIM_GAMES=small sh tests/sim-check.sh $(B)/spieltisch

itest: $(B)/spieltisch $(IT_BIN)
	@sh tests/run-each.sh $(IT_BIN)

browser: $(B)/spieltisch
	@sh tests/browser/run.sh

fuzz-check:
	@if [ -f tests/fuzz/run.sh ]; then sh tests/fuzz/run.sh check; fi

fuzz: deps-test
	@sh tests/fuzz/run.sh long

# Not part of `make test`: minutes of load through nginx (docs/benchmarks.md).
bench: deps-bench all $(B)/bench/hello $(B)/bench/gen $(B)/bench/live
	@B=$(B) sh tests/bench/bench.sh

$(B)/bench/hello: tests/bench/hello.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -lfcgi

$(B)/bench/live: tests/bench/live.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -lpthread

$(B)/bench/pageprof: tests/bench/pageprof.c $(B)/libst.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libst.a $(LDLIBS) -lstdc++

$(B)/bench/gen: tests/bench/gen.c $(B)/libst.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libst.a $(LDLIBS) -lstdc++

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/spieltisch
	install -m 755 $(B)/spieltisch $(DESTDIR)$(PREFIX)/bin/spieltisch
	cp -R templates static schema $(DESTDIR)$(PREFIX)/share/spieltisch/
	cp -R $(B)/locale $(DESTDIR)$(PREFIX)/share/spieltisch/

# The German lexicon compiled once (cgi/lexfile.h, docs/storage.md):
# libhyphen's loader runs here, seconds, and the word list is folded and
# sorted here, instead of at every server start; the server maps the files
# (a missing or stale one makes it read its source, logged). Rebuilt when a
# source or the file format changes, not at every relink. A source not
# installed: no file.
HYPH_DIC   := $(wildcard /usr/share/hyphen/hyph_de_DE.dic)
WORDS_LIST := $(wildcard /usr/share/dict/ngerman)
LEXFILES   := $(if $(HYPH_DIC),$(B)/lexicon/hyph_de_DE.hyd) $(if $(WORDS_LIST),$(B)/lexicon/ngerman.wds)
.PHONY: install-lexicon
all: $(LEXFILES)
itest browser: $(LEXFILES)
install: install-lexicon
$(B)/lexicon/hyph_de_DE.hyd: $(HYPH_DIC) cgi/lexfile.c cgi/lexfile.h | $(B)/spieltisch
	@mkdir -p $(dir $@)
	$(B)/spieltisch lexicon hyph $(HYPH_DIC) $@
$(B)/lexicon/ngerman.wds: $(WORDS_LIST) cgi/lexfile.c cgi/lexfile.h cgi/lexicon.c | $(B)/spieltisch
	@mkdir -p $(dir $@)
	$(B)/spieltisch lexicon words $(WORDS_LIST) $@
# Server start with and without the compiled patterns (docs/benchmarks.md).
$(B)/bench/startup: tests/bench/startup.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<
install-lexicon: all
	@if [ -n "$(strip $(LEXFILES))" ]; then \
		install -d $(DESTDIR)$(PREFIX)/share/spieltisch/lexicon && \
		install -m 644 $(LEXFILES) $(DESTDIR)$(PREFIX)/share/spieltisch/lexicon/; fi

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
