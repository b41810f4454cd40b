# netsim - packet-level discrete-event network simulator.
# `make` builds ./netsim; `make test` runs every test; `make run` runs the
# bundled scenario; `make deps` installs the Debian packages it needs;
# `make fuzz` builds the libFuzzer harnesses (clang), `make fuzz-smoke`
# runs each for FUZZ_TIME seconds; `make figures` redraws docs/figures/.

PKGS     := gsl sqlite3 inih
CC       ?= cc
OPT      ?= -O2
CFLAGS   += -std=c11 $(OPT) -g -Wall -Wextra -Wmissing-prototypes -Werror -D_GNU_SOURCE -I. $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS   += $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lgsl -lgslcblas -lm -lsqlite3 -linih) -lm
BUILD    ?= build

LIB_SRC  := $(filter-out sim/cli/main.c,$(wildcard sim/*.c sim/*/*.c models/*.c models/*/*.c))
# Variants kept out of the tree: every .c of each folder in EXTRA_MODELS
# is built into netsim (docs/adding-a-variant.md).
EXTRA_MODELS ?=
EXTRA_SRC := $(foreach d,$(EXTRA_MODELS),$(sort $(wildcard $(d)/*.c)))
EXTRA_OBJ := $(patsubst %.c,$(BUILD)/extra/%.o,$(notdir $(EXTRA_SRC)))
# The files that register a variant (sim/variant.h), in this order in
# the generated table.
VARIANT_RE  := ^VARIANT *[(]
VARIANT_SRC := $(shell grep -l '$(VARIANT_RE)' $(sort $(wildcard models/*/*.c)) $(EXTRA_SRC) /dev/null)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o) $(EXTRA_OBJ) $(BUILD)/gen/variants.o
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
NETSIM   ?= netsim

DEB_PKGS := libgsl-dev libsqlite3-dev libinih-dev sqlite3 gnuplot-nox libcmocka-dev pkg-config parallel perl

.PHONY: all deps run test unit check-asan bench plots figures clean fuzz fuzz-bin fuzz-smoke FORCE
all: $(NETSIM)

$(NETSIM): $(BUILD)/sim/cli/main.o $(BUILD)/libnetsim.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libnetsim.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

# The variant table, written again on every make and replaced only when
# it changed, so that a variant file added or removed (or EXTRA_MODELS
# changed) rebuilds it and nothing else.
$(BUILD)/gen/variants.c: FORCE
	@mkdir -p $(dir $@)
	@tools/gen-variants $(VARIANT_SRC) > $@.tmp && { cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; }

$(BUILD)/gen/variants.o: $(BUILD)/gen/variants.c
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

vpath %.c $(EXTRA_MODELS)
$(BUILD)/extra/%.o: %.c
	@mkdir -p $(dir $@)
	@tools/check-includes . $(EXTRA_MODELS)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

FORCE:

$(BUILD)/tests/%: tests/%.c $(BUILD)/libnetsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libnetsim.a $(LDLIBS) -lcmocka

-include $(LIB_OBJ:.o=.d) $(BUILD)/sim/cli/main.d

deps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

run: deps
	$(MAKE) all
	./$(NETSIM) run scenarios/default.ini -o results/default.db
	@echo "plot of this run (old against new):"
	@tools/plot results/default.db --by-flow --run $$(sqlite3 results/default.db 'select max(id) from run') \
	  -o results/default_throughput.png

unit: $(TEST_BIN) $(NETSIM)

# the walls of the tree first: an include across one fails the build
test: deps
	tools/check-includes . $(EXTRA_MODELS)
	$(MAKE) unit
	tests/run.sh $(BUILD) ./$(NETSIM)

check-asan:
	$(MAKE) BUILD=build-asan NETSIM=netsim-asan OPT="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined" unit
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 tests/run.sh build-asan ./netsim-asan

bench: all $(BUILD)/tests/bench_evq
	tools/bench.sh $(BUILD) ./$(NETSIM)

$(BUILD)/tests/bench_evq: tests/bench_evq.c $(BUILD)/libnetsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libnetsim.a $(LDLIBS)

# libFuzzer harnesses (tests/fuzz/): the library is built again in its own
# directory with coverage and sanitizer instrumentation; only the harnesses
# link libFuzzer's main.
FUZZ_CC      ?= clang
FUZZ_TIME    ?= 60
FUZZ_NAMES   := load run units netem
FUZZ_OPT     := -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

fuzz:
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) OPT="$(FUZZ_OPT)" fuzz-bin

fuzz-bin: $(FUZZ_NAMES:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(BUILD)/libnetsim.a
	$(CC) $(CFLAGS) -fsanitize=fuzzer -MMD -MP -o $@ $< $(BUILD)/libnetsim.a $(FUZZ_LDFLAGS) $(LDLIBS)

# fuzz_run bounds a run's events (tests/fuzz/fuzz_run.c)
$(BUILD)/fuzz_run: FUZZ_LDFLAGS = -Wl,--wrap=evq_push -Wl,--wrap=evq_continue

-include $(FUZZ_NAMES:%=$(BUILD)/fuzz_%.d)

# every regression input, then each harness for FUZZ_TIME seconds
fuzz-smoke: fuzz
	tests/fuzz/fuzz.sh build-fuzz $(FUZZ_TIME) $(FUZZ_NAMES)

plots: all
	tools/run-bundled.sh ./$(NETSIM)
	tools/plot-all.sh

# the figures in docs/figures/, from the runs docs/ quotes (JOBS=2: sweeps' -j)
figures: all
	tools/figures.sh ./$(NETSIM)

clean:
	rm -rf build build-asan build-fuzz netsim netsim-asan
