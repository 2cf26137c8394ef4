# Ringside - build, test, install.
#
#   make            build everything (installs missing Debian packages first)
#   make run        the bot on a private IRC server (CONFIG=file: with your own)
#   make check      unit tests (plain and with ASan/UBSan) and program tests
#   make bench      performance figures, one `name value unit` per line
#   make bench-check  the same quickly (BENCH_SECONDS=0.2), failing if one is missing
#   make lint       formatting (clang-format) and the layering rules
#   make fuzz       libFuzzer harnesses, FUZZ_SECONDS each (default 60)
#   make install    PREFIX (/usr/local) and DESTDIR are honoured
#
# CFLAGS, CPPFLAGS and LDFLAGS from the user are honoured; WERROR=1 (or CI set
# in the environment) turns warnings into errors.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
CC ?= cc
CFLAGS ?= -O2 -g
FUZZ_SECONDS ?= 60

WARN = -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ifneq ($(CI),)
WERROR ?= 1
endif
ifeq ($(WERROR),1)
WARN += -Werror
endif

# Debian packages: to build and test, and what the bot links with.
PKGS = gcc make pkg-config check libpcre2-dev libsqlite3-dev libircclient-dev libinih-dev \
	libcrypt-dev libssl-dev openssl ngircd inspircd atheme-services python3 python3-yaml
PCRE_CFLAGS = $(shell pkg-config --cflags libpcre2-8 2>/dev/null)
PCRE_LIBS = $(shell pkg-config --libs libpcre2-8 2>/dev/null || echo -lpcre2-8)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
# libircclient has no pkg-config file (docs: irc-notes).
BOT_LIBS = $(shell pkg-config --libs sqlite3 inih libcrypt openssl 2>/dev/null || \
	echo -lsqlite3 -linih -lcrypt -lssl -lcrypto) -lircclient
GAME_LIBS = $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)

ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CPPFLAGS) $(CFLAGS) \
	-Iengine -Iparse -Idb -Igame -Ibot $(PCRE_CFLAGS)

B = build
# The layers, each a folder, dependencies pointing down: engine/ and parse/
# (the core), db/, game/, and the front doors bot/ and sim/ on top. The
# simulator needs the core and, for --replay and its reports, db/ and game/;
# the bot adds IRC. Program mains stay out of the libraries.
CORE_SRC = $(wildcard engine/*.c) $(wildcard parse/*.c)
GAMELIB_SRC = $(wildcard db/*.c) $(wildcard game/*.c)
BOTLIB_SRC = $(GAMELIB_SRC) $(filter-out bot/main.c,$(wildcard bot/*.c))
SIM_SRC = $(wildcard sim/*.c)
TEST_SRC = $(wildcard tests/check_*.c)
LIB_SRC = $(CORE_SRC)

LIB_OBJ = $(CORE_SRC:%.c=$(B)/obj/%.o)
GAMELIB_OBJ = $(GAMELIB_SRC:%.c=$(B)/obj/%.o)
BOTLIB_OBJ = $(BOTLIB_SRC:%.c=$(B)/obj/%.o)
SIM_OBJ = $(SIM_SRC:%.c=$(B)/obj/%.o)
TEST_OBJ = $(TEST_SRC:%.c=$(B)/obj/%.o)
ASAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_LIB_OBJ = $(CORE_SRC:%.c=$(B)/asan/%.o)
ASAN_GAMELIB_OBJ = $(GAMELIB_SRC:%.c=$(B)/asan/%.o)
ASAN_BOTLIB_OBJ = $(BOTLIB_SRC:%.c=$(B)/asan/%.o)
ASAN_TEST_OBJ = $(TEST_SRC:%.c=$(B)/asan/%.o)
ASAN_SIM_OBJ = $(SIM_SRC:%.c=$(B)/asan/%.o)

BOT = $(B)/ringside
SIM = $(B)/ringside-sim
TESTS = $(B)/check_ringside
ASAN_TESTS = $(B)/asan/check_ringside
ASAN_SIM = $(B)/asan/ringside-sim
ASAN_BOT = $(B)/asan/ringside
BENCH = $(B)/ringside-bench
DEPS_STAMP = $(B)/.deps-ok

.PHONY: all run check unit-tests program-tests e2e-tests bench bench-check lint fuzz install \
	uninstall clean deps

all: $(BOT) $(SIM)

deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/deps.sh Makefile
	@sh scripts/deps.sh $(PKGS)
	@mkdir -p $(B) && touch $@

$(B)/obj/%.o: %.c $(wildcard */*.h) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -c -o $@ $<

$(B)/asan/%.o: %.c $(wildcard */*.h) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) $(ASAN_FLAGS) -c -o $@ $<

# The simulator uses the game's commentary and, for --replay, the database:
# no IRC.
$(SIM): $(SIM_OBJ) $(GAMELIB_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(GAME_LIBS) $(PCRE_LIBS) -lm

$(BOT): $(B)/obj/bot/main.o $(BOTLIB_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(BOT_LIBS) $(PCRE_LIBS) -lm

$(ASAN_BOT): $(B)/asan/bot/main.o $(ASAN_BOTLIB_OBJ) $(ASAN_LIB_OBJ)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $^ $(BOT_LIBS) $(PCRE_LIBS) -lm

$(ASAN_SIM): $(ASAN_SIM_OBJ) $(ASAN_GAMELIB_OBJ) $(ASAN_LIB_OBJ)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $^ $(GAME_LIBS) $(PCRE_LIBS) -lm

$(TESTS): $(TEST_OBJ) $(BOTLIB_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(BOT_LIBS) $(PCRE_LIBS) -lm

$(ASAN_TESTS): $(ASAN_TEST_OBJ) $(ASAN_BOTLIB_OBJ) $(ASAN_LIB_OBJ)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(BOT_LIBS) $(PCRE_LIBS) -lm

# The bot on a private ngircd (or alone with CONFIG=file); Ctrl-C stops it.
run: $(BOT)
	@bash scripts/run.sh $(BOT) $(CONFIG)

check: unit-tests program-tests e2e-tests

unit-tests: $(TESTS) $(ASAN_TESTS)
	$(TESTS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(ASAN_TESTS)

program-tests: $(SIM) $(ASAN_SIM) $(B)/ircline-tool
	sh tests/sim_test.sh $(SIM)
	sh tests/sim_test.sh $(ASAN_SIM)
	python3 tests/ircline_test.py $(B)/ircline-tool

# bot/ircline.c (the parser of the server's lines) on the command line, for
# the public parser test vectors (tests/irc-parser-tests).
$(B)/ircline-tool: tests/ircline_tool.c bot/ircline.c $(wildcard */*.h) | $(DEPS_STAMP)
	$(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ tests/ircline_tool.c bot/ircline.c

# A real ngircd on a free loopback port, the bot built with ASan/UBSan, and
# real client connections (tests/e2e); e2e_wire.py also runs ircd-hybrid 8
# (tests/e2e/hybrid.sh prepares it beside ngircd), both at their default
# flood settings. e2e_net.py: TLS, SASL and services accounts on InspIRCd 3
# linked to Atheme, and ngircd over TLS, with certificates made by openssl.
e2e-tests: $(ASAN_BOT) $(SIM)
	python3 tests/e2e/e2e.py $(ASAN_BOT) $(SIM)
	python3 tests/e2e/e2e_bouts.py $(ASAN_BOT) $(SIM)
	python3 tests/e2e/e2e_newcomer.py $(ASAN_BOT) $(SIM)
	python3 tests/e2e/e2e_wire.py $(ASAN_BOT) $(SIM)
	python3 tests/e2e/e2e_net.py $(ASAN_BOT)

$(BENCH): bench/bench.c $(LIB_OBJ) | $(DEPS_STAMP)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(PCRE_LIBS) -lm

$(B)/ringside-bench-bot: bench/bench_bot.c $(BOTLIB_OBJ) $(LIB_OBJ) | $(DEPS_STAMP)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(BOT_LIBS) $(PCRE_LIBS) -lm

# The wire figures come from a real ngircd at its default flood settings and
# the bot at its default pacing (bench/wire_bench.py).
bench: $(BENCH) $(SIM) $(B)/ringside-bench-bot $(BOT)
	@$(BENCH)
	@sh bench/sim_bench.sh $(SIM)
	@$(B)/ringside-bench-bot
	@python3 bench/wire_bench.py $(BOT) $(SIM)

# The benchmarks in a quick mode, failing when a figure is missing (CI runs
# it, so they cannot rot unnoticed); the figures are printed, never judged.
bench-check: $(BENCH) $(SIM) $(B)/ringside-bench-bot $(BOT)
	@BENCH_SECONDS=0.2 SIM_BENCH_SECONDS=0.2 WIRE_BENCH_QUICK=1 $(MAKE) --no-print-directory -s bench \
		> $(B)/bench.txt || { cat $(B)/bench.txt; echo "bench-check: make bench failed"; exit 1; }
	@cat $(B)/bench.txt
	@sh bench/check.sh bench/figures.txt $(B)/bench.txt

lint:
	@sh scripts/deps.sh clang-format
	@sh scripts/lint.sh

FUZZ_CC = clang
FUZZ_FLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -Iengine -Iparse -Idb -Igame -Ibot \
	$(PCRE_CFLAGS) \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZERS = $(patsubst fuzz/%.c,$(B)/fuzz/%,$(wildcard fuzz/fuzz_*.c))

$(B)/fuzz/%: fuzz/%.c $(LIB_SRC) $(BOTLIB_SRC) $(wildcard */*.h) | $(DEPS_STAMP)
	@sh scripts/deps.sh clang libclang-rt-dev
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(LIB_SRC) $(BOTLIB_SRC) $(BOT_LIBS) $(PCRE_LIBS) -lm

fuzz: $(FUZZERS)
	@for f in $(FUZZERS); do \
		name=$$(basename $$f); mkdir -p $(B)/corpus/$$name; \
		echo "fuzz: $$name for $(FUZZ_SECONDS) s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 \
			$(B)/corpus/$$name fuzz/corpus/$$name 2>$(B)/fuzz/$$name.log \
			|| { tail -40 $(B)/fuzz/$$name.log; exit 1; }; \
		grep -E '^#[0-9]+ *DONE' $(B)/fuzz/$$name.log || true; \
	done

install: $(BOT) $(SIM)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(SIM) $(DESTDIR)$(BINDIR)/ringside-sim

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ringside-sim

clean:
	rm -rf $(B)
