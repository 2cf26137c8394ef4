# Ringside - build, test, install.
#
#   make            build everything (installs missing Debian packages first)
#   make run        the bot on a private IRC server and its web pages (CONFIG=file:
#                   with your own); Ctrl-C stops the bot, the server stays
#   make stop       ends the bot, its web pages and make run's IRC server
#   make check-fast the inner loop: the unit tests (plain build) and the
#                   simulator's golden transcripts, in under a minute
#                   (CK_RUN_SUITE=name build/check_ringside: one suite)
#   make check      every test: unit tests (plain and with ASan/UBSan),
#                   program, installation and end-to-end tests, run at the
#                   same time by tests/parallel.py (about 3 minutes here when
#                   built, 4.5 from clean; it builds with BUILD_JOBS=2 jobs
#                   unless given -j)
#   make bench      performance figures, one `name value unit` per line
#   make bench-check  the same quickly (BENCH_SECONDS=0.2), failing if one is missing
#   make bench-peers  the bot's CPU per command and memory beside Eggdrop's (minutes)
#   make lint       formatting (clang-format), the layering rules, cppcheck
#                   and shellcheck, with no finding
#   make complexity every product function within 80 lines and complexity 25
#   make fuzz       libFuzzer harnesses, FUZZ_SECONDS each (default 60)
#   make install    the programs, man pages, example and service configuration
#                   and the systemd unit; PREFIX (/usr/local), DESTDIR, BINDIR,
#                   MANDIR, DOCDIR, UNITDIR and SYSCONFDIR (/etc) are honoured
#   make uninstall  removes what make install installed (with the same variables)
#   make deb        a Debian package in build/deb/ (dpkg-buildpackage, lintian)
#   make deb-check  builds it, and installs, starts, stops and purges it where
#                   systemd runs (says plainly when it cannot)
#
# CFLAGS, CPPFLAGS and LDFLAGS from the user are honoured; WERROR=1 (or CI set
# in the environment) turns warnings into errors.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/ringside
UNITDIR ?= $(PREFIX)/lib/systemd/system
# The service's configuration is /etc/ringside/ringside.conf whatever PREFIX;
# its database is in the unit's StateDirectory, /var/lib/ringside.
SYSCONFDIR ?= /etc
STATEDIR = /var/lib/ringside
# The programs `make install` installs from build/, by name.
INSTALL_PROGRAMS = ringside ringside-sim ringside-web
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
	libcrypt-dev libssl-dev openssl ngircd inspircd atheme-services python3 python3-yaml \
	libmicrohttpd-dev chromium postgresql libpq-dev
# What the install test (man pages) and make deb need besides.
INSTALL_TEST_PKGS = man-db groff-base
DEB_PKGS = build-essential debhelper dpkg-dev fakeroot lintian
PCRE_CFLAGS = $(shell pkg-config --cflags libpcre2-8 2>/dev/null)
PCRE_LIBS = $(shell pkg-config --libs libpcre2-8 2>/dev/null || echo -lpcre2-8)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
# libircclient has no pkg-config file (docs: irc-notes).
# OpenSSL is not linked: bot/tls.c loads it for a TLS connection only (its headers,
# libssl-dev, are still needed to build).
BOT_LIBS = $(shell pkg-config --libs sqlite3 inih libcrypt 2>/dev/null || \
	echo -lsqlite3 -linih -lcrypt) -lircclient
GAME_LIBS = $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)
WEB_LIBS = $(shell pkg-config --libs libmicrohttpd sqlite3 inih 2>/dev/null || \
	echo -lmicrohttpd -lsqlite3 -linih) -pthread
# libpq's header for db/'s PostgreSQL backend (db/sql_pg.c), which loads
# the library itself (dlopen) when a PostgreSQL database is opened: not
# linked, so the programs on SQLite do not load it and what it needs.
PQ_CFLAGS = $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)

ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CPPFLAGS) $(CFLAGS) \
	-Iengine -Iutil -Iparse -Idb -Igame -Ibot -Iweb $(PCRE_CFLAGS) $(PQ_CFLAGS)

B = build
# The layers, each a folder, dependencies pointing down: engine/ and parse/
# (the core), db/, game/, and the front doors bot/, sim/ and web/ on top.
# The simulator needs the core and, for --replay and its reports, db/ and
# game/; the bot adds IRC; the web server HTTP. Program mains stay out of the
# libraries.
CORE_SRC = $(wildcard engine/*.c) $(wildcard util/*.c) $(wildcard parse/*.c)
GAMELIB_SRC = $(wildcard db/*.c) $(wildcard game/*.c)
BOTLIB_SRC = $(GAMELIB_SRC) $(filter-out bot/main.c,$(wildcard bot/*.c))
SIM_SRC = $(wildcard sim/*.c)
WEB_SRC = $(wildcard web/*.c)
WEBLIB_SRC = $(filter-out web/main.c,$(WEB_SRC))
TEST_SRC = $(wildcard tests/check_*.c)
LIB_SRC = $(CORE_SRC)

LIB_OBJ = $(CORE_SRC:%.c=$(B)/obj/%.o)
GAMELIB_OBJ = $(GAMELIB_SRC:%.c=$(B)/obj/%.o)
BOTLIB_OBJ = $(BOTLIB_SRC:%.c=$(B)/obj/%.o)
SIM_OBJ = $(SIM_SRC:%.c=$(B)/obj/%.o)
WEB_OBJ = $(WEB_SRC:%.c=$(B)/obj/%.o)
WEBLIB_OBJ = $(WEBLIB_SRC:%.c=$(B)/obj/%.o)
ASAN_WEB_OBJ = $(WEB_SRC:%.c=$(B)/asan/%.o)
TEST_OBJ = $(TEST_SRC:%.c=$(B)/obj/%.o)
ASAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_LIB_OBJ = $(CORE_SRC:%.c=$(B)/asan/%.o)
ASAN_GAMELIB_OBJ = $(GAMELIB_SRC:%.c=$(B)/asan/%.o)
ASAN_BOTLIB_OBJ = $(BOTLIB_SRC:%.c=$(B)/asan/%.o)
ASAN_TEST_OBJ = $(TEST_SRC:%.c=$(B)/asan/%.o)
ASAN_SIM_OBJ = $(SIM_SRC:%.c=$(B)/asan/%.o)

BOT = $(B)/ringside
SIM = $(B)/ringside-sim
WEB = $(B)/ringside-web
ASAN_WEB = $(B)/asan/ringside-web
WEBGEN = $(B)/ringside-webgen
TESTS = $(B)/check_ringside
ASAN_TESTS = $(B)/asan/check_ringside
ASAN_SIM = $(B)/asan/ringside-sim
ASAN_BOT = $(B)/asan/ringside
BENCH = $(B)/ringside-bench
DEPS_STAMP = $(B)/.deps-ok

.PHONY: all run stop check check-fast check-programs complexity unit-tests program-tests e2e-tests install-tests bench bench-check bench-peers lint \
	fuzz install uninstall dist-files print-install-programs deb deb-check clean deps

all: $(BOT) $(SIM) $(WEB)

deps: $(DEPS_STAMP)
# NO_DEPS=1 (the Debian package's build, whose Build-Depends say what it
# needs) never calls apt-get.
$(DEPS_STAMP): scripts/deps.sh Makefile
ifneq ($(NO_DEPS),1)
	@sh scripts/deps.sh $(PKGS)
endif
	@mkdir -p $(B) && touch $@

# Each object depends on the headers it includes, as the compiler lists them
# (-MMD writes build/.../x.d beside x.o; -MP adds an empty rule for each
# header, so a removed header is not an error): touching one header rebuilds
# only the objects that include it. An object whose .d is missing (an older
# build) is rebuilt once, through the empty rule for .d files.
DEPFLAGS = -MMD -MP

$(B)/obj/%.o: %.c $(B)/obj/%.d | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/asan/%.o: %.c $(B)/asan/%.d | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) $(ASAN_FLAGS) $(DEPFLAGS) -c -o $@ $<

OBJ_SRC = $(CORE_SRC) $(BOTLIB_SRC) bot/main.c $(SIM_SRC) $(WEB_SRC) $(TEST_SRC)
DEP_FILES = $(OBJ_SRC:%.c=$(B)/obj/%.d) $(OBJ_SRC:%.c=$(B)/asan/%.d)
$(DEP_FILES):
-include $(wildcard $(DEP_FILES))
# db/sql_pg.c builds db/schema_pg.sql in (.incbin), which -MMD cannot see.
$(B)/obj/db/sql_pg.o $(B)/asan/db/sql_pg.o: db/schema_pg.sql

# The simulator uses the game's commentary and, for --replay, the database:
# no IRC.
$(SIM): $(SIM_OBJ) $(GAMELIB_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(GAME_LIBS) $(PCRE_LIBS) -lm

# The web server: the game's pages over HTTP, reading the database only.
$(WEB): $(WEB_OBJ) $(GAMELIB_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(WEB_LIBS) $(PCRE_LIBS) -lm

$(ASAN_WEB): $(ASAN_WEB_OBJ) $(ASAN_GAMELIB_OBJ) $(ASAN_LIB_OBJ)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $^ $(WEB_LIBS) $(PCRE_LIBS) -lm

# A database of real bouts for the web tests and benchmark, made through
# game/ (tests/web/gen.c).
$(WEBGEN): tests/web/gen.c $(GAMELIB_OBJ) $(LIB_OBJ) | $(DEPS_STAMP)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(GAME_LIBS) $(PCRE_LIBS) -lm

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

# The bot on a private ngircd (or alone with CONFIG=file). Ctrl-C stops the
# bot and its web pages; the IRC server keeps running (players stay
# connected) and the next make run uses it. make stop ends all three.
run: $(BOT) $(WEB)
	@bash scripts/run.sh $(BOT) $(WEB) $(CONFIG)

stop:
	@bash scripts/stop.sh $(BOT)

# The tests as jobs of tests/parallel.py, which runs them at the same time
# (each suite on its own servers, ports and temporary folders), prints each
# one's output whole when it ends and fails when one fails. The longest come
# first. The end-to-end suites mostly wait on IRC pacing, so they overlap
# well; e2e.py, the longest, runs as three parts (E2E_ONLY), and e2e_wire.py
# runs its 9 scenario jobs at once (E2E_JOBS).
# Check's per-test timeout (4 s) times 4 in the unit jobs, which run in the
# parallel run with the end-to-end suites: the ASan builds of the
# random-bout tests take 3-5 s alone on a loaded two-core machine (a
# timeout there is the machine, not the test).
SANITIZE = ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 CK_TIMEOUT_MULTIPLIER=4
UNIT_JOB = 'unit: CK_TIMEOUT_MULTIPLIER=4 $(TESTS)'
SIM_JOB = 'sim: sh tests/sim_test.sh $(SIM)'
UNIT_JOBS = 'unit-asan: $(SANITIZE) $(ASAN_TESTS)' $(UNIT_JOB)
# The statement layer's suite again on a real PostgreSQL that tests/pg.sh
# starts in a temporary folder (Unix socket only) and stops after; and the
# game's suites that open a database (tests/pg_suites.sh), each test on a
# fresh schema of one such server.
PG_JOBS = 'sql-pg: sh tests/pg.sh run env CK_RUN_SUITE=sql $(SANITIZE) $(ASAN_TESTS)' \
	'game-pg: sh tests/pg.sh run sh tests/pg_suites.sh env $(SANITIZE) $(ASAN_TESTS)'
# ringside --migrate-to: a database of real bouts (ringside-webgen) copied
# into PostgreSQL and every bout replayed from it, and the refusals.
PG_JOBS += 'migrate-pg: sh tests/pg.sh run env $(SANITIZE) python3 tests/migrate_test.py $(ASAN_BOT) $(WEBGEN)'
# The web pages scale out: two ringside-web on a PostgreSQL copy of webgen's
# file and one on the file, every page the same, the game's writes followed.
PG_JOBS += 'web-pg: sh tests/pg.sh run python3 tests/web/pg_pages_test.py $(ASAN_BOT) $(ASAN_WEB) $(WEBGEN)'
# Failover (issue 29): the lease suite on PostgreSQL (one holder a network,
# a dropped session), and tests/e2e/e2e_failover.py: two bots of one
# network on one PostgreSQL and ngircd, kill -9 mid-bout, a session the
# server drops, and the SQLite flavour (PATH.lock).
PG_JOBS += 'lease-pg: sh tests/pg.sh run env CK_RUN_SUITE=lease $(SANITIZE) $(ASAN_TESTS)' \
	'e2e_failover: sh tests/pg.sh run python3 tests/e2e/e2e_failover.py $(E2E_ARGS)'
# Bouts between two networks (issue 29): db/notify.c's suite on PostgreSQL,
# and tests/e2e/e2e_cross.py: bots of two networks on ngircd and InspIRCd 3.
PG_JOBS += 'notify-pg: sh tests/pg.sh run env CK_RUN_SUITE=notify $(SANITIZE) $(ASAN_TESTS)' \
	'e2e_cross: sh tests/pg.sh run python3 tests/e2e/e2e_cross.py $(E2E_ARGS)'
# Several bots at once (issue 29): tests/e2e/e2e_cluster.py, three bots on
# ngircd and InspIRCd 3 with kill -9, pg_ctl restart and a host cut off
# through tests/e2e/blackhole.py (it starts its own server with pg.sh, one
# that listens on 127.0.0.1 too).
PG_JOBS += 'e2e_cluster: python3 tests/e2e/e2e_cluster.py $(E2E_ARGS)'
# A remote player whose bot is down (issue 29): tests/e2e/e2e_grace_x.py,
# the other network's bot killed mid-bout, back within rejoin_grace or not.
PG_JOBS += 'e2e_grace_x: sh tests/pg.sh run python3 tests/e2e/e2e_grace_x.py $(E2E_ARGS)'
PROGRAM_JOBS = 'sim-asan: sh tests/sim_test.sh $(ASAN_SIM)' \
	'web: python3 tests/web/web_test.py $(ASAN_WEB) $(WEBGEN) $(SIM)' \
	'web-attack: python3 tests/web/attack_test.py $(ASAN_WEB) $(WEBGEN)' \
	'web-pages: python3 tests/web/pages_test.py $(ASAN_WEB) $(WEBGEN)' \
	'web-network: python3 tests/web/network_test.py $(ASAN_WEB) $(WEBGEN)' \
	'web-threads: python3 tests/web/threads_test.py $(ASAN_WEB) $(WEBGEN)' \
	$(SIM_JOB) 'ircline: python3 tests/ircline_test.py $(B)/ircline-tool' \
	'run: bash tests/run_test.sh $(BOT) $(WEB)'
INSTALL_JOBS = 'install: sh tests/install_test.sh'
# A real ngircd on a free loopback port, the bot built with ASan/UBSan, and
# real client connections (tests/e2e; e2e_duel.py: live duels, a yield and a
# kill -9 mid-duel; e2e_orders.py: the command limit's replies, orders said
# in the channel, forfeit yes, bare orders finding their bout; e2e_quiet.py:
# long answers in private, a duel's line a round, report in a channel, SUGAR
# RAY's table; e2e_predict.py: three spectators' predictions across a kill
# -9); two fast players again on InspIRCd 3 (its fake lag at
# its defaults); e2e_wire.py also runs ircd-hybrid 8
# (tests/e2e/hybrid.sh prepares it beside ngircd), both at their default
# flood settings. e2e_net.py: TLS, SASL and services accounts on InspIRCd 3
# linked to Atheme, and ngircd over TLS, with certificates made by openssl.
# e2e_weight.py: on plain ngircd the relay hands libircclient the socket; OpenSSL
# is loaded only over TLS.
E2E_ARGS = $(ASAN_BOT) $(SIM)
E2E_SUITES = 'e2e_wire: E2E_JOBS=9 python3 tests/e2e/e2e_wire.py $(E2E_ARGS)' \
	'e2e 1-5: E2E_ONLY=1,2,3,4,5 python3 tests/e2e/e2e.py $(E2E_ARGS)' \
	'e2e 6-10: E2E_ONLY=6,7,8,9,10 python3 tests/e2e/e2e.py $(E2E_ARGS)' \
	'e2e 11-16: E2E_ONLY=11,12,13,14,15,16 python3 tests/e2e/e2e.py $(E2E_ARGS)' \
	'e2e_newcomer inspircd: E2E_SERVER=inspircd E2E_ONLY=2,3 python3 tests/e2e/e2e_newcomer.py $(E2E_ARGS)' \
	'e2e_net: python3 tests/e2e/e2e_net.py $(ASAN_BOT)' \
	'e2e_caps: python3 tests/e2e/e2e_caps.py $(ASAN_BOT)' \
	'e2e_caps2: python3 tests/e2e/e2e_caps2.py $(ASAN_BOT)' \
	'e2e_weight: python3 tests/e2e/e2e_weight.py $(ASAN_BOT)' \
	'e2e_newcomer: python3 tests/e2e/e2e_newcomer.py $(E2E_ARGS)' \
	'e2e_replies: python3 tests/e2e/e2e_replies.py $(E2E_ARGS)' \
	'e2e_bouts: python3 tests/e2e/e2e_bouts.py $(E2E_ARGS)' \
	'e2e_duel: python3 tests/e2e/e2e_duel.py $(E2E_ARGS)' \
	'e2e_orders: python3 tests/e2e/e2e_orders.py $(E2E_ARGS)' \
	'e2e_quiet: python3 tests/e2e/e2e_quiet.py $(E2E_ARGS)' \
	'e2e_integrity: python3 tests/e2e/e2e_integrity.py $(E2E_ARGS)' \
	'e2e_auth: python3 tests/e2e/e2e_auth.py $(E2E_ARGS)' \
	'e2e_league: python3 tests/e2e/e2e_league.py $(E2E_ARGS)' \
	'e2e_restart: python3 tests/e2e/e2e_restart.py $(E2E_ARGS)' \
	'e2e_pace: python3 tests/e2e/e2e_pace.py $(E2E_ARGS)' \
	'e2e_ratings: python3 tests/e2e/e2e_ratings.py $(E2E_ARGS)' \
	'e2e_season: python3 tests/e2e/e2e_season.py $(E2E_ARGS)' \
	'e2e_predict: python3 tests/e2e/e2e_predict.py $(E2E_ARGS)' \
	'e2e_tournament: python3 tests/e2e/e2e_tournament.py $(E2E_ARGS)' \
	'e2e_policy: python3 tests/e2e/e2e_policy.py $(E2E_ARGS)' \
	'e2e_network: python3 tests/e2e/e2e_network.py $(E2E_ARGS)'
# What must be ready before the jobs start, once: the installation test's
# packages, ircd-hybrid unpacked beside ngircd (tests/e2e/hybrid.sh).
INSTALL_PREPARE = @sh scripts/deps.sh $(INSTALL_TEST_PKGS)
E2E_PREPARE = @sh tests/e2e/hybrid.sh >/dev/null
PARALLEL = python3 tests/parallel.py

# What make check runs, built first with BUILD_JOBS jobs unless make was
# given -j itself (make check-fast too).
CHECK_PROGRAMS = $(TESTS) $(ASAN_TESTS) $(SIM) $(ASAN_SIM) $(ASAN_WEB) $(WEBGEN) \
	$(B)/ircline-tool $(addprefix $(B)/,$(INSTALL_PROGRAMS)) $(ASAN_BOT)
BUILD_JOBS ?= 2
BUILD = $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(BUILD_JOBS))
check-programs: $(CHECK_PROGRAMS)

check:
	@$(BUILD) check-programs
	$(INSTALL_PREPARE)
	$(E2E_PREPARE)
	@$(PARALLEL) $(E2E_SUITES) $(UNIT_JOBS) $(PG_JOBS) $(PROGRAM_JOBS) $(INSTALL_JOBS)

# The inner loop: the unit tests (plain build) and the simulator's golden
# transcripts, in well under a minute.
check-fast:
	@$(BUILD) $(TESTS) $(SIM)
	@$(PARALLEL) $(UNIT_JOB) $(SIM_JOB)

unit-tests: $(TESTS) $(ASAN_TESTS)
	@$(PARALLEL) $(UNIT_JOBS)

program-tests: $(SIM) $(ASAN_SIM) $(ASAN_WEB) $(WEBGEN) $(B)/ircline-tool $(BOT) $(WEB)
	@$(PARALLEL) $(PROGRAM_JOBS)

# bot/ircline.c (the parser of the server's lines) on the command line, for
# the public parser test vectors (tests/irc-parser-tests).
$(B)/ircline-tool: tests/ircline_tool.c bot/ircline.c bot/multiline.c bot/sts.c $(wildcard */*.h) \
		| $(DEPS_STAMP)
	$(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ tests/ircline_tool.c bot/ircline.c \
		bot/multiline.c bot/sts.c

# make install and make uninstall into a scratch DESTDIR (exactly the
# expected files, modes and nothing left), the man pages through man -l,
# ringside --check-config on good and broken files, a new database's modes
# under umask 000.
install-tests: $(addprefix $(B)/,$(INSTALL_PROGRAMS))
	$(INSTALL_PREPARE)
	sh tests/install_test.sh

e2e-tests: $(ASAN_BOT) $(SIM)
	$(E2E_PREPARE)
	@$(PARALLEL) $(E2E_SUITES)

$(BENCH): bench/bench.c $(GAMELIB_OBJ) $(LIB_OBJ) | $(DEPS_STAMP)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(GAME_LIBS) $(PCRE_LIBS) -lm

# An HTTP client with keep-alive connections (bench/web_bench.sh runs it).
$(B)/ringside-bench-web: bench/bench_web.c $(GAMELIB_OBJ) $(LIB_OBJ) | $(DEPS_STAMP)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(GAME_LIBS) $(PCRE_LIBS) -lm

# bench/quiet_io.h: the game's io of the two benchmarks that drive game/.
$(B)/ringside-bench-bot: bench/bench_bot.c bench/quiet_io.h $(BOTLIB_OBJ) $(LIB_OBJ) | $(DEPS_STAMP)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter-out %.h,$^) $(BOT_LIBS) $(PCRE_LIBS) -lm

# The PostgreSQL figures beside SQLite's (bench/bench_pg.c), on a server
# tests/pg.sh starts and stops, as make check's PostgreSQL jobs do.
$(B)/ringside-bench-pg: bench/bench_pg.c bench/quiet_io.h $(GAMELIB_OBJ) $(LIB_OBJ) | $(DEPS_STAMP)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter-out %.h,$^) $(GAME_LIBS) $(PCRE_LIBS) -lm

# The wire figures come from a real ngircd at its default flood settings and
# the bot at its default pacing (bench/wire_bench.py); the cluster's from two
# bots on two servers sharing one PostgreSQL (bench/cluster_bench.py).
bench: $(BENCH) $(SIM) $(B)/ringside-bench-bot $(BOT) $(WEB) $(WEBGEN) $(B)/ringside-bench-web \
		$(B)/ringside-bench-pg
	@$(BENCH)
	@sh bench/sim_bench.sh $(SIM)
	@$(B)/ringside-bench-bot
	@python3 bench/wire_bench.py $(BOT) $(SIM)
	@sh bench/web_bench.sh $(WEB) $(WEBGEN) $(B)/ringside-bench-web
	@sh tests/pg.sh run $(B)/ringside-bench-pg $(B)/ringside-bench-bot
	@sh tests/pg.sh run python3 bench/cluster_bench.py $(BOT) $(SIM)

# The benchmarks in a quick mode, failing when a figure is missing (CI runs
# it, so they cannot rot unnoticed); the figures are printed, never judged.
bench-check: $(BENCH) $(SIM) $(B)/ringside-bench-bot $(BOT) $(WEB) $(WEBGEN) $(B)/ringside-bench-web \
		$(B)/ringside-bench-pg
	@BENCH_SECONDS=0.2 SIM_BENCH_SECONDS=0.2 WIRE_BENCH_QUICK=1 $(MAKE) --no-print-directory -s bench \
		> $(B)/bench.txt || { cat $(B)/bench.txt; echo "bench-check: make bench failed"; exit 1; }
	@cat $(B)/bench.txt
	@sh bench/check.sh bench/figures.txt $(B)/bench.txt

# The bot's weight beside Eggdrop's on one ngircd (bench/peers_bench.py):
# CPU per command and private memory. Eggdrop is installed for it alone,
# and it takes minutes, so it is neither in bench nor in bench-check.
bench-peers: $(BOT) $(B)/ringside-bench-bot | $(DEPS_STAMP)
	@sh scripts/deps.sh eggdrop
	@python3 bench/peers_bench.py $(BOT)

# pmccabe too, for scripts/complexity.sh (make complexity).
lint:
	@sh scripts/deps.sh clang-format cppcheck shellcheck pmccabe
	@sh scripts/lint.sh

# Every product function within 80 lines and complexity 25 (pmccabe).
complexity:
	@sh scripts/deps.sh pmccabe
	@sh scripts/complexity.sh

FUZZ_CC = clang
FUZZ_FLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -Iengine -Iutil -Iparse -Idb -Igame -Ibot -Iweb \
	$(PCRE_CFLAGS) $(PQ_CFLAGS) \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZERS = $(patsubst fuzz/%.c,$(B)/fuzz/%,$(wildcard fuzz/fuzz_*.c))

$(B)/fuzz/%: fuzz/%.c $(LIB_SRC) $(BOTLIB_SRC) $(wildcard */*.h) | $(DEPS_STAMP)
	@sh scripts/deps.sh clang libclang-rt-dev
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(LIB_SRC) $(BOTLIB_SRC) $(BOT_LIBS) $(PCRE_LIBS) -lm

# The web server's parsers: linked with web/ (not bot/).
$(B)/fuzz/fuzz_route: fuzz/fuzz_route.c $(LIB_SRC) $(GAMELIB_SRC) $(WEBLIB_SRC) $(wildcard */*.h) \
		| $(DEPS_STAMP)
	@sh scripts/deps.sh clang libclang-rt-dev
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(LIB_SRC) $(GAMELIB_SRC) $(WEBLIB_SRC) $(WEB_LIBS) \
		$(PCRE_LIBS) -lm

fuzz: $(FUZZERS)
	@for f in $(FUZZERS); do \
		name=$$(basename $$f); mkdir -p $(B)/corpus/$$name; \
		echo "fuzz: $$name for $(FUZZ_SECONDS) s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 \
			$(B)/corpus/$$name fuzz/corpus/$$name 2>$(B)/fuzz/$$name.log \
			|| { tail -40 $(B)/fuzz/$$name.log; exit 1; }; \
		grep -E '^#[0-9]+[[:space:]]*DONE' $(B)/fuzz/$$name.log || true; \
	done

# The unit and the service's configuration, with this install's paths: the
# example configuration with its database in the state directory.
MAN_PAGES = $(wildcard man/*.[1-8])
INSTALL_SED = -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
	-e 's|@STATEDIR@|$(STATEDIR)|g'
dist-files:
	@mkdir -p $(B)/dist
	sed $(INSTALL_SED) dist/ringside.service.in > $(B)/dist/ringside.service
	sh scripts/service-conf.sh config/ringside.conf.example $(SYSCONFDIR) $(STATEDIR) \
		> $(B)/dist/ringside.conf

# An edited configuration is never overwritten, nor removed by uninstall.
# Installing as root into the real system (no DESTDIR) also creates the
# system user and gives it the configuration (scripts/install-user.sh).
install: $(addprefix $(B)/,$(INSTALL_PROGRAMS)) dist-files
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/ringside
	for p in $(INSTALL_PROGRAMS); do install -m 755 $(B)/$$p $(DESTDIR)$(BINDIR)/$$p || exit 1; done
	for m in $(MAN_PAGES); do \
		s=$${m##*.}; install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s/ || exit 1; done
	install -m 644 config/ringside.conf.example config/large-network.conf.example \
		$(DESTDIR)$(DOCDIR)/examples/
	install -m 644 $(B)/dist/ringside.service $(DESTDIR)$(UNITDIR)/ringside.service
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/ringside/ringside.conf ]; then \
		echo "install: kept $(DESTDIR)$(SYSCONFDIR)/ringside/ringside.conf (already there)"; \
	else \
		echo "install -m 640 $(B)/dist/ringside.conf $(DESTDIR)$(SYSCONFDIR)/ringside/ringside.conf"; \
		install -m 640 $(B)/dist/ringside.conf $(DESTDIR)$(SYSCONFDIR)/ringside/ringside.conf; \
	fi
	@if [ -z "$(DESTDIR)" ]; then sh scripts/install-user.sh $(SYSCONFDIR)/ringside/ringside.conf; fi

uninstall: dist-files
	for p in $(INSTALL_PROGRAMS); do rm -f $(DESTDIR)$(BINDIR)/$$p; done
	for m in $(MAN_PAGES); do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done
	rm -f $(DESTDIR)$(DOCDIR)/examples/ringside.conf.example \
		$(DESTDIR)$(DOCDIR)/examples/large-network.conf.example $(DESTDIR)$(UNITDIR)/ringside.service
	@conf=$(DESTDIR)$(SYSCONFDIR)/ringside/ringside.conf; \
	if [ -e $$conf ] && ! cmp -s $$conf $(B)/dist/ringside.conf; then \
		echo "uninstall: kept $$conf (edited; remove it by hand)"; \
	else echo "rm -f $$conf"; rm -f $$conf; fi
	@for d in $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) $(DESTDIR)$(SYSCONFDIR)/ringside; do \
		rmdir $$d 2>/dev/null || true; done
	@if [ -z "$(DESTDIR)" ] && getent passwd ringside >/dev/null 2>&1; then \
		echo "uninstall: kept the user ringside and $(STATEDIR) (the database);" \
			"remove them with: deluser --system ringside && delgroup --system ringside && rm -rf $(STATEDIR)"; fi

# For tests/install_test.sh: the programs make install installs.
print-install-programs:
	@echo $(INSTALL_PROGRAMS)

# The Debian package, built from a copy of this tree in build/deb/ with
# dpkg-buildpackage and debhelper, then checked with lintian.
deb:
	@sh scripts/deps.sh $(DEB_PKGS) $(PKGS)
	sh scripts/deb.sh build

# The package installed, started under systemd, stopped and purged: only
# where systemd is PID 1 (otherwise it says that it skipped).
deb-check: deb
	sh tests/deb_test.sh

clean:
	rm -rf $(B)
