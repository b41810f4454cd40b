# netsim - packet-level discrete-event network simulator.
# `make` builds ./netsim plainly and incrementally (an edit recompiles its
# file and relinks: seconds); `make release` builds the optimised ./netsim
# (link-time and profile-guided optimisation, below), which `make bench`
# and `make install` use; `make test` runs every test; `make run` runs the
# bundled scenario; `make deps` installs the Debian packages it needs
# (`make run` and `make test` do so only for what is missing);
# `make fuzz` builds the libFuzzer harnesses (clang), `make fuzz-smoke`
# runs each for FUZZ_TIME seconds; `make fuzz-cli` fuzzes the command line
# and its files for FUZZ_TIME seconds (python3 only); `make install PREFIX=/usr/local
# DESTDIR=` installs netsim, netsim-plot, the man pages, the bash
# completion and the bundled scenarios, `make uninstall` removes them;
# `make figures` redraws docs/figures/.

PKGS     := gsl sqlite3 inih libpcap
CC       ?= cc
OPT      ?= -O2
# clang: a check that only the invariants build evaluates names its helper
# in INVARIANT's sizeof otherwise, which clang calls unneeded
CC_CLANG := $(shell $(CC) --version 2>/dev/null | grep -q clang && echo -Wno-unneeded-internal-declaration)
CFLAGS   += -std=c11 $(OPT) -g -Wall -Wextra -Wmissing-prototypes -Werror -D_GNU_SOURCE -I. $(shell pkg-config --cflags $(PKGS) 2>/dev/null) $(CC_CLANG) $(WEXTRA)
# A netsim process starts in 3.3 ms instead of 6.8 (/bin/true: 2.3;
# medians of 40 on a 2-core Debian VM; a sweep starts one per run): GSL,
# SQLite and inih are linked from their archives where they are
# installed (Debian's -dev packages ship them), and libpcap is not linked
# at all: sim/pcap_lib.c opens it when a capture needs it, as its
# dependencies were most of the load. STATIC_LIBS= links the three
# dynamically.
STATIC_LIBS ?= $(if $(filter-out /%,$(foreach l,gsl gslcblas sqlite3 inih,$(shell $(CC) -print-file-name=lib$(l).a))),,1)
ifeq ($(STATIC_LIBS),1)
LDLIBS   += -Wl,-Bstatic -lgsl -lgslcblas -lsqlite3 -linih -Wl,-Bdynamic -lm
else
LDLIBS   += $(shell pkg-config --libs gsl sqlite3 inih 2>/dev/null || echo -lgsl -lgslcblas -lm -lsqlite3 -linih) -lm
endif
BUILD    ?= build
# Commands are not echoed; a line says what is built. V=1 shows them.
ifeq ($(V),1)
Q        :=
say      := @:
else
Q        := @
say      := @printf '  %-6s %s\n'
endif
# The release build (`make release`): link-time optimisation (4-7 % less
# time on the benchmarks; the objects carry both LTO bytecode and ordinary
# code, fat, so that the test programs link them without LTO) and profile
# guidance: tools/pgo-build builds the sources once instrumented, runs that
# netsim over a short piece of every bundled workload (tools/pgo-train),
# and builds them again in build/pgo for the counts it wrote. No result
# moves (tools/fingerprint holds); w1 and tcp_drs take 17-29 % less time.
# It is done again only when a source, the Makefile or the training
# changed, and takes about a minute on 2 cores. A build with EXTRA_MODELS
# is released without profile guidance unless RELEASE_PGO=1 is given (a
# variant being written may not run yet, and training runs it). The plain
# build, the sanitizer and the fuzz builds use neither: PGO and LTO are
# empty unless set (PGO=1 is what release passes).
LTO      ?=
PGO      ?=
RELEASE_LTO ?= -flto=auto -ffat-lto-objects
RELEASE_PGO ?= $(if $(EXTRA_MODELS),,1)
RELEASE  := PGO=$(RELEASE_PGO) LTO="$(RELEASE_LTO)"
ifeq ($(PGO),gen)
PGO_FLAGS := -fprofile-generate -fprofile-update=single
else ifeq ($(PGO),use)
PGO_FLAGS := -fprofile-use -fprofile-partial-training -Wno-missing-profile
endif

LIB_SRC  := $(filter-out cli/main.c,$(wildcard sim/*.c load/*.c sinks/*.c cli/*.c drill/*.c models/*.c models/*/*.c)) kcompat/glue.c
# Variants kept out of the tree: every .c of each folder in EXTRA_MODELS
# is built into netsim (docs/adding-a-variant.md).
EXTRA_MODELS ?=
EXTRA_SRC := $(foreach d,$(EXTRA_MODELS),$(sort $(wildcard $(d)/*.c)))
EXTRA_OBJ := $(patsubst %.c,$(BUILD)/extra/%.o,$(notdir $(EXTRA_SRC)))
# The files that register a variant (sim/variant.h), in this order in
# the generated table.
VARIANT_RE  := ^VARIANT *[(]
VARIANT_SRC := $(shell grep -l '$(VARIANT_RE)' $(sort $(wildcard models/*/*.c)) $(EXTRA_SRC) /dev/null)
# Linux trees whose congestion-control modules are built in, unmodified,
# as tcp.cc variants NAME@LABEL (kcompat/, docs/kernel-source.md):
# KSRC=DIR or KSRC="LABEL=DIR LABEL=DIR ...". kcompat/ksrc-build compiles
# them (each tree one object, BUILD/kc/tree_N.o) and writes the variants'
# table, BUILD/kc/kvariants.c. Without KSRC none of it is built or linked:
# kcompat/glue.c is compiled into the library (so that it always
# compiles), but nothing calls it and the linker leaves it out.
KSRC     ?=
ifneq ($(strip $(KSRC)),)
KC_DIR      := $(BUILD)/kc
KC_TREE_OBJ := $(patsubst %,$(KC_DIR)/tree_%.o,$(shell seq 0 $$(($(words $(KSRC)) - 1))))
KC_OBJ      := $(KC_DIR)/kvariants.o $(KC_TREE_OBJ)
VARIANT_SRC += $(KC_DIR)/kvariants.c
KC_TREE_DIRS := $(foreach w,$(KSRC),$(lastword $(subst =, ,$(w)))/net/ipv4)
endif
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o) $(EXTRA_OBJ) $(BUILD)/gen/variants.o $(KC_OBJ)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
NETSIM   ?= netsim

# libpcap-dev: netsim run --pcap; tshark: the capture test (tests/scenario/pcap.sh,
# which skips, saying so, without it)
DEB_PKGS := libgsl-dev libsqlite3-dev libinih-dev sqlite3 gnuplot-nox libcmocka-dev pkg-config parallel perl \
	    mandoc man-db python3 libpcap-dev tshark
# What `make run` and `make test` need, each with its Debian package:
# libraries by their pkg-config name, then the commands the tests call
# (prove is perl's; man and tshark are optional, their tests say so and skip).
NEED_PC  := gsl:libgsl-dev sqlite3:libsqlite3-dev inih:libinih-dev cmocka:libcmocka-dev libpcap:libpcap-dev
NEED_CMD := pkg-config:pkg-config sqlite3:sqlite3 gnuplot:gnuplot-nox perl:perl prove:perl parallel:parallel \
	    mandoc:mandoc python3:python3

.PHONY: all release bench-release deps need-deps run test unit check-asan check-physics check-arith check-kdiff check-ksrc bench plots figures clean fuzz fuzz-bin fuzz-smoke fuzz-cli install uninstall FORCE
all: $(NETSIM)

release:
	@$(MAKE) --no-print-directory $(RELEASE) all

ifeq ($(PGO),1)
$(NETSIM): $(BUILD)/gen/version.h FORCE
	+@MAKE="$(MAKE)" tools/pgo-build $(BUILD)/pgo $@ "$(CC) $(CFLAGS) $(LTO) $(LDLIBS) $(KSRC)" $(BUILD)/gen/version.h \
	  $(EXTRA_MODELS) $(KC_TREE_DIRS)
else
$(NETSIM): $(BUILD)/cli/main.o $(BUILD)/libnetsim.a
	$(say) LINK $@
	$(Q)$(CC) $(CFLAGS) $(LTO) $(PGO_FLAGS) -o $@ $^ $(LDLIBS)
endif

$(BUILD)/libnetsim.a: $(LIB_OBJ)
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) $(LTO) $(PGO_FLAGS) -MMD -MP -c -o $@ $<

# The variant table, written again on every make and replaced only when
# it changed, so that a variant file added or removed (or EXTRA_MODELS
# changed) rebuilds it and nothing else.
$(BUILD)/gen/variants.c: FORCE
	@mkdir -p $(dir $@)
	@tools/gen-variants $(VARIANT_SRC) > $@.tmp && { cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; }

# The version `netsim --version` prints: git describe of this tree, or
# the VERSION file of a release tarball; written again on every make and
# replaced only when it changed.
$(BUILD)/gen/version.h: FORCE
	@mkdir -p $(dir $@)
	@v=$$( { [ -e .git ] && git describe --always --dirty 2>/dev/null; } || cat VERSION 2>/dev/null || echo unknown); \
	  printf '#define NETSIM_VERSION "%s"\n' "$$v" > $@.tmp && { cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; }

$(BUILD)/cli/main.o: $(BUILD)/gen/version.h
$(BUILD)/cli/main.o: CFLAGS += -include $(BUILD)/gen/version.h

ifneq ($(strip $(KSRC)),)
# the modules' build, which does nothing while its inputs are unchanged
$(KC_DIR)/kvariants.c: FORCE
	@mkdir -p $(dir $@)
	@kcompat/ksrc-build $(KC_DIR) "$(CC)" "$(KSRC)"
$(KC_TREE_OBJ): $(KC_DIR)/kvariants.c
	@test -e $@
$(BUILD)/gen/variants.c: $(KC_DIR)/kvariants.c
$(KC_DIR)/kvariants.o: $(KC_DIR)/kvariants.c
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) $(LTO) $(PGO_FLAGS) -MMD -MP -c -o $@ $<
endif

$(BUILD)/gen/variants.o: $(BUILD)/gen/variants.c
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) $(LTO) $(PGO_FLAGS) -MMD -MP -c -o $@ $<

vpath %.c $(EXTRA_MODELS)
$(BUILD)/extra/%.o: %.c
	@mkdir -p $(dir $@)
	@tools/check-includes . $(EXTRA_MODELS)
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) $(LTO) $(PGO_FLAGS) -MMD -MP -c -o $@ $<

FORCE:

# The test programs link the library ./netsim was built from: with profile
# guidance that is the optimised one tools/pgo-build left in $(BUILD)/pgo,
# so that `make test` after `make` compiles no source a third time (the
# objects carry ordinary code beside their LTO bytecode).
ifeq ($(PGO),1)
TEST_LIB := $(BUILD)/pgo/libnetsim.a
$(TEST_LIB): $(NETSIM)
	@test -e $@
else
TEST_LIB := $(BUILD)/libnetsim.a
endif

$(BUILD)/tests/%: tests/%.c $(TEST_LIB)
	@mkdir -p $(dir $@)
	$(say) LINK $@
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(TEST_LIB) $(LDLIBS) -lcmocka

-include $(LIB_OBJ:.o=.d) $(BUILD)/cli/main.d

deps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

# Only what is missing, and apt-get only on Debian: with the libraries and
# commands installed, another distribution builds and tests without root.
need-deps:
	@missing=""; \
	for p in $(NEED_PC); do pkg-config --exists $${p%%:*} 2>/dev/null || missing="$$missing $${p#*:}"; done; \
	for c in $(NEED_CMD); do command -v $${c%%:*} >/dev/null 2>&1 || missing="$$missing $${c#*:}"; done; \
	[ -n "$$missing" ] || exit 0; \
	missing=$$(printf '%s\n' $$missing | sort -u | tr '\n' ' ' | sed 's/ $$//'); \
	if command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory deps DEB_PKGS="$$missing"; \
	else \
	  echo "make: missing $$missing (Debian's package names): install them with your package manager" >&2; exit 1; \
	fi

run: need-deps
	@$(MAKE) --no-print-directory all
	./$(NETSIM) run scenarios/default.ini -o results/default.db
	@echo "plot of this run (old against new):"
	@tools/plot results/default.db --by-flow --run $$(sqlite3 results/default.db 'select max(id) from run') \
	  -o results/default_throughput.png

unit: $(TEST_BIN) $(NETSIM)

# the walls of the tree first: an include across one fails the build, and
# once the objects are built, a call across one (tools/check-links: the
# engine calls nothing of load/, models/, sinks/ or cli/, a model nothing
# of cli/) in the objects the tests link
test: need-deps
	@tools/check-includes . $(EXTRA_MODELS)
	@$(MAKE) --no-print-directory unit
	@tools/check-links $(dir $(TEST_LIB)) $(EXTRA_MODELS)
	@tests/run.sh $(BUILD) ./$(NETSIM)

check-asan:
	$(MAKE) BUILD=build-asan NETSIM=netsim-asan LTO= PGO= OPT="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DNETSIM_INVARIANTS" \
	  LDFLAGS="-fsanitize=address,undefined" unit
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 tests/run.sh build-asan ./netsim-asan

# The physics matrix (tools/physics-matrix): generated scenarios over
# every pair of values of the factors that change the arithmetic (tcp.cc,
# offloads, tcp.tsq, 10 Mbit/s to 100 Gbit/s, 20 us to 300 ms, MTU 1500
# and 9000, IPv4 and IPv6, each kernel profile), each held to what header
# arithmetic and the kernel's constants say of it.
check-physics: all
	tools/physics-matrix --netsim ./$(NETSIM) -j 2

# Arithmetic that cannot wrap unnoticed: a clang build where any unsigned
# wrap, lossy implicit conversion or other undefined behaviour outside the
# places marked as meant to wrap (sim/arith.h's ARITH_WRAPS and wrap_*),
# and any product sim/arith.h's checked helpers saw leave 64 bits, stops
# the run (the invariants stay with check-asan: the scoreboard's is linear
# in the window, and a window of 10^5 segments would take hours; without
# them clang would call the functions only an invariant reads unneeded).
# It runs
# the physics matrix (--quick:
# every cell's start-up and a short steady state, the same arithmetic at a
# fifth of the frames) and the bundled scenarios' fingerprints, which must
# equal the plain build's.
ARITH_OPT := -O1 -g -fsanitize=undefined,unsigned-integer-overflow,implicit-conversion,local-bounds \
             -fno-sanitize-recover=all -fno-omit-frame-pointer -DNETSIM_CHECK_ARITH
check-arith:
	$(MAKE) BUILD=build-arith NETSIM=netsim-arith CC=clang LTO= PGO= OPT="$(ARITH_OPT)" \
	  WEXTRA=-Wno-unneeded-internal-declaration netsim-arith
	tools/physics-matrix --netsim ./netsim-arith -j 2 --quick
	tools/fingerprint --check ./netsim-arith

# The differential check (tests/kdiff/kdiff.c): netsim's ports of the
# kernel's self-contained functions (win_minmax, dql, CoDel's Newton step
# and control law, CUBIC's K and bictcp_update, BBR's pacing rate,
# tcp_tso_autosize) against the kernel's own code, compiled from a tree
# where it lies: KSRC=/path/to/linux, else Debian's linux-source-6.1
# (installed when missing; the files read are unpacked into $(KDIFF)).
# Nothing of the kernel enters the repository.
KDIFF := $(BUILD)/kdiff
KDIFF_ROUNDS ?= 2000
check-kdiff: $(TEST_LIB)
	@mkdir -p $(KDIFF)
	$(Q)tree=$$(tests/kdiff/ksrc.sh $(KDIFF) "$(KSRC)") && tests/kdiff/extract.py "$$tree" $(KDIFF)
	$(Q)$(CC) -std=gnu11 -O2 -g -Wall -Werror -I. -I$(KDIFF) -c tests/kdiff/kside.c -o $(KDIFF)/kside.o
	$(Q)$(CC) $(CFLAGS) -o $(KDIFF)/kdiff tests/kdiff/kdiff.c tests/kdiff/ns_bbr.c tests/kdiff/ns_cubic.c \
	  $(KDIFF)/kside.o $(TEST_LIB) $(LDLIBS)
	$(KDIFF)/kdiff $(KDIFF_ROUNDS)

# The kernel's own congestion-control modules (kcompat/): Debian's
# linux-source-6.1 (installed by CI, not by `make deps`), its Makefile and
# net/ipv4/tcp_*.[ch] unpacked into build-ksrc/src and each module's file
# checked against the tarball (sha256), all 16 built into ./netsim-ksrc,
# then tests/scenario/ksrc.sh: the differential tests against netsim's
# ports and a 2-s bulk flow per module. Beside it, as the patch
# demonstration of docs/kernel-source.md, a copy of that tree with one
# change to tcp_cubic.c's source (tests/ksrc/patch-tree.sh) built into the
# same netsim (KSRC="6.1=... patched=..."), and tests/scenario/ksrc_patch.sh.
check-ksrc:
	@mkdir -p build-ksrc/src
	$(Q)tree=$$(tests/ksrc/debian.sh build-ksrc/src) && \
	  patched=$$(tests/ksrc/patch-tree.sh "$$tree" build-ksrc/src/linux-patched) && \
	  as415=$$(tests/ksrc/undo-tree.sh "$$tree" build-ksrc/src/linux-as415) && \
	  $(MAKE) --no-print-directory BUILD=build-ksrc NETSIM=netsim-ksrc KSRC="6.1=$$tree patched=$$patched as415=$$as415" \
	    LTO= PGO= netsim-ksrc
	tests/run.sh build-ksrc ./netsim-ksrc tests/scenario/ksrc.sh tests/scenario/ksrc_patch.sh

bench:
	@$(MAKE) --no-print-directory $(RELEASE) bench-release
bench-release: all $(BUILD)/tests/bench_evq $(BUILD)/tests/bench_cores
	tools/bench.sh $(BUILD) ./$(NETSIM)

$(BUILD)/tests/bench_evq $(BUILD)/tests/bench_cores: $(BUILD)/tests/bench_%: tests/bench_%.c $(TEST_LIB)
	@mkdir -p $(dir $@)
	$(say) LINK $@
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(TEST_LIB) $(LDLIBS)

# libFuzzer harnesses (tests/fuzz/): the library is built again in its own
# directory with coverage and sanitizer instrumentation; only the harnesses
# link libFuzzer's main.
FUZZ_CC      ?= clang
FUZZ_TIME    ?= 60
FUZZ_NAMES   := load run units netem qdisc
FUZZ_OPT     := -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all \
                -DNETSIM_EVQ_HOOK -DNETSIM_INVARIANTS

fuzz:
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) LTO= PGO= OPT="$(FUZZ_OPT)" fuzz-bin

fuzz-bin: $(FUZZ_NAMES:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(BUILD)/libnetsim.a
	$(say) LINK $@
	$(Q)$(CC) $(CFLAGS) -fsanitize=fuzzer -MMD -MP -o $@ $< $(BUILD)/libnetsim.a $(FUZZ_LDFLAGS) $(LDLIBS)

# fuzz_run bounds a run's events (tests/fuzz/fuzz_run.c)
$(BUILD)/fuzz_run: FUZZ_LDFLAGS = -Wl,--wrap=evq_push

-include $(FUZZ_NAMES:%=$(BUILD)/fuzz_%.d)

# every regression input, then each harness for FUZZ_TIME seconds
fuzz-smoke: fuzz
	tests/fuzz/fuzz.sh build-fuzz $(FUZZ_TIME) $(FUZZ_NAMES)

# The command line and its files, where libFuzzer does not reach: random
# runs, sweeps (-j 1|2, --resume, --only, --shard), merges, reports, kills
# a few ms in, two commands on one database, /dev/full and a closed
# stdout, over tiny scenarios edited between steps (tests/fuzz/cli_fuzz.py,
# python3 alone). After every step the databases are checked: nothing
# complete lost or changed, every run one that was asked for under its
# file's hash, -j 1 = -j 2 = shards merged, exit 0 only when all was
# written, no crash or hang. The regressions in tests/fuzz/regressions/cli
# run first. CLI_FUZZ_NETSIM=./netsim-asan fuzzes the sanitizer build
# (make check-asan's); CLI_FUZZ_ARGS=--seed N repeats a run.
CLI_FUZZ_NETSIM ?= ./$(NETSIM)
fuzz-cli: all
	tests/fuzz/cli_fuzz.py --seconds $(FUZZ_TIME) --netsim $(CLI_FUZZ_NETSIM) $(CLI_FUZZ_ARGS)

plots: all
	tools/run-bundled.sh ./$(NETSIM)
	tools/plot-all.sh

PREFIX  ?= /usr/local
DESTDIR ?=
IROOT   := $(DESTDIR)$(PREFIX)
SCEN    := $(IROOT)/share/netsim/scenarios
INSTALLED := bin/netsim bin/netsim-plot share/netsim/plot-lib.bash share/man/man1/netsim.1 share/man/man5/netsim-scenario.5 \
	share/bash-completion/completions/netsim

install: release
	install -d $(IROOT)/bin $(IROOT)/share/man/man1 $(IROOT)/share/man/man5 \
	  $(IROOT)/share/bash-completion/completions $(SCEN)/bench
	install -m 755 $(NETSIM) $(IROOT)/bin/netsim
	install -m 755 tools/plot $(IROOT)/bin/netsim-plot
	install -m 644 tools/plot-lib.bash $(IROOT)/share/netsim/plot-lib.bash
	install -m 644 man/netsim.1 $(IROOT)/share/man/man1/netsim.1
	install -m 644 man/netsim-scenario.5 $(IROOT)/share/man/man5/netsim-scenario.5
	install -m 644 tools/netsim-completion.bash $(IROOT)/share/bash-completion/completions/netsim
	install -m 644 scenarios/*.ini $(SCEN)/
	install -m 644 scenarios/bench/*.ini $(SCEN)/bench/

uninstall:
	rm -f $(INSTALLED:%=$(IROOT)/%)
	rm -rf $(IROOT)/share/netsim

# the figures in docs/figures/, from the runs docs/ quotes (JOBS=2: sweeps' -j)
figures: all
	tools/figures.sh ./$(NETSIM)

clean:
	rm -rf build build-asan build-fuzz build-arith build-ksrc netsim netsim-asan netsim-arith netsim-ksrc
