# secteam-tui: plain Makefile.  `make run` and `make check` do all the
# set-up on a fresh Debian 12 machine (see README.md).

PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(PREFIX)/bin
MANDIR   = $(PREFIX)/share/man/man1
# secteam-gpg, where crypto/crypto.c looks: ../lib/secteam-tui/ from the
# binary's folder (or the binary's folder itself, as in build/).
LIBEXECDIR = $(PREFIX)/lib/secteam-tui

CC      ?= cc
B       ?= build
PKGS     = gmime-3.0 gpgme libassuan jansson libgit2 libical libkeyutils libpcre2-8 libpq libsodium ncursesw sqlite3
# As git's Makefile: CFLAGS is yours to set on the command line
# (`make CFLAGS=-O0`); what the code needs to build is in BASIC_CFLAGS
# and ALL_CFLAGS adds them together.  DEVELOPER=1 (make check and CI set
# it) turns warnings into errors, as git's config.mak.dev does; V=1
# shows each command in full.
OPT     ?= -O2 -g
CFLAGS  ?= $(OPT)
BASIC_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wpedantic -Wstrict-prototypes \
           -Wvla -Wwrite-strings -Wno-overlength-strings -I.
ifeq ($(DEVELOPER),1)
WERROR   = -Werror
endif
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# GMime, SQLite, ncurses, libical, libgit2 and libpq are loaded when they
# are needed (dlopen: mail/gmime.c, store/sqlite.c, tui/ncurses.c,
# export/ics.c, core/ktree.c, store/db-pg.c), not linked; the unit tests
# that call GMime, SQLite, ncurses or libical themselves link them.
LAZY_PKGS  = gmime-3.0 sqlite3 ncursesw libical libgit2 libpq
PKG_LIBS   := $(shell pkg-config --libs $(filter-out $(LAZY_PKGS),$(PKGS)) 2>/dev/null)
UNIT_LIBS  := $(shell pkg-config --libs gmime-3.0 sqlite3 ncursesw libical 2>/dev/null)
ALL_CFLAGS = $(BASIC_CFLAGS) $(PKG_CFLAGS) $(CFLAGS) $(WERROR) $(SANFLAGS)
LDLIBS  += $(PKG_LIBS) $(SANFLAGS) -lm

ifneq ($(V),1)
Q        = @
QUIET_CC = @echo "  CC      $<";
QUIET_GEN = @echo "  GEN     $@";
QUIET_AR = @echo "  AR      $@";
QUIET_LINK = @echo "  LINK    $@";
endif

MODULES = util config touched maint mail crypto store core export outgoing cmd tui
LIB_SRC = $(foreach m,$(MODULES),$(sort $(wildcard $(m)/*.c)))
LIB_OBJ = $(LIB_SRC:%.c=$(B)/%.o)
UNIT_SRC = $(sort $(wildcard tests/unit/test-*.c))
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
FUZZ_SRC = $(sort $(wildcard tests/fuzz/fuzz-*.c))

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.1.0)

all: $(B)/secteam-tui $(B)/secteam-gpg

# Each object depends on the headers it includes, as the compiler lists
# them (-MMD -MP): a changed header rebuilds its users and nothing else.
# The packages are looked at once per build folder (a stamp), not on every
# build: `make deps`, `run` and `check` install what is missing.
# An object without its .d (built before the lists existed) is built
# again: it cannot say which headers it was built with.
$(B)/%.o: %.c $(B)/%.d | $(B)/.pkgs
	$(Q)mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -MMD -MP -DSECTEAM_VERSION='"$(VERSION)"' -c -o $@ $<

$(B)/%.d: ;
.PRECIOUS: $(B)/%.d

$(B)/.pkgs:
	@pkg-config --exists $(PKGS) || { \
	  echo "make: missing development packages ($(PKGS));" \
	       "run 'make deps' (or 'make run' / 'make check', which install them)" >&2; exit 1; }
	@mkdir -p $(@D) && touch $@

# The CWE catalogue (data/cwe-names.tsv) as core/cwe.c's table.
$(B)/gen/cwe-names.inc: data/cwe-names.tsv scripts/cwe-names.sh
	$(Q)mkdir -p $(@D)
	$(QUIET_GEN)scripts/cwe-names.sh data/cwe-names.tsv > $@.tmp && mv $@.tmp $@
$(B)/core/cwe.o: $(B)/gen/cwe-names.inc
$(B)/core/cwe.o: BASIC_CFLAGS += -I$(B)/gen

$(B)/libsecteam.a: $(LIB_OBJ)
	$(Q)rm -f $@
	$(QUIET_AR)ar rcsT $@ $^

$(B)/secteam-tui: $(B)/main.o $(B)/libsecteam.a
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $^ $(EXTRA_OBJS) $(LDLIBS)

# gpg told to be quiet (libexec/secteam-gpg.c): a static program of its
# own, without the sanitizers, found by crypto/crypto.c beside the binary.
$(B)/secteam-gpg: libexec/secteam-gpg.c
	$(Q)mkdir -p $(@D)
	$(QUIET_LINK)$(CC) -O2 -std=c11 -Wall -Wextra $(WERROR) -static -o $@ $<

$(B)/tests/%: tests/unit/%.c $(B)/libsecteam.a
	$(Q)mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) -MMD -MP -MF $@.d -MT $@ -Wno-strict-prototypes -o $@ $< $(B)/libsecteam.a $(LDLIBS) $(UNIT_LIBS) -lcmocka

# The tests' clock (tests/lib/clock-shim.c), preloaded by the e2e tests.
$(B)/tests/clock-shim.so: tests/lib/clock-shim.c
	$(Q)mkdir -p $(@D)
	$(QUIET_LINK)$(CC) -O2 -std=c11 -Wall -Wextra $(WERROR) -shared -fPIC -o $@ $<

units: $(UNIT_BIN) $(B)/tests/clock-shim.so

# The sealed benchmark's fixture (bench/mksealed.c, run by bench/sealed.sh):
# built like a unit test, against the library.
$(B)/bench/mksealed: bench/mksealed.c $(B)/libsecteam.a
	$(Q)mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) -MMD -MP -MF $@.d -MT $@ -o $@ $< $(B)/libsecteam.a $(LDLIBS)

# The reports' chains' first verification (bench/chainverify.c, run by
# bench/reportchain.sh).
$(B)/bench/chainverify: bench/chainverify.c $(B)/libsecteam.a
	$(Q)mkdir -p $(@D)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) -MMD -MP -MF $@.d -MT $@ -o $@ $< $(B)/libsecteam.a $(LDLIBS)

# --- set-up -----------------------------------------------------------------
deps:
	@scripts/deps.sh

deps-quiet:
	@scripts/deps.sh --quiet run

-include $(LIB_OBJ:.o=.d) $(B)/main.d $(UNIT_BIN:=.d) $(B)/bench/mksealed.d \
	$(B)/bench/chainverify.d

# --- running ----------------------------------------------------------------
run: deps-quiet
	@$(MAKE) --no-print-directory all
	@scripts/demo-run.sh

# --- tests ------------------------------------------------------------------
check: deps
	@scripts/check.sh

test: all units check-layers
	@scripts/run-tests.sh $(B)

# The layers, in the sources and in the linker's view of the objects.
check-layers: $(LIB_OBJ)
	@SECTEAM_OBJECTS=$(B) scripts/check-layers.sh

# As git's `make style`: what .clang-format would change in the lines
# you changed (against HEAD, or STYLE_BASE); it changes nothing itself.
STYLE_BASE ?= HEAD
style:
	@command -v git-clang-format >/dev/null || \
	  { echo "make style: no git-clang-format ('make deps' installs clang-format)" >&2; exit 1; }
	@git clang-format --style file --diff --extensions c,h $(STYLE_BASE)

asan:
	$(MAKE) B=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  SANFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" all units
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:verify_asan_link_order=0 scripts/run-tests.sh build-asan

fuzz:
	@scripts/fuzz.sh run $(FUZZ_SECONDS)

fuzz-replay:
	@scripts/fuzz.sh replay

stress: all
	@tests/stress/run.sh $(B)

bench: all $(B)/bench/mksealed $(B)/bench/chainverify
	@bench/run.sh $(B)

# The team under load alone (also part of `make bench`): knobs LOAD_*,
# see bench/load.sh.
bench-load: all
	@sh bench/load.sh $(B)/secteam-tui

# The man page's key table and export formats, from the code's tables
# (tests/e2e/man.sh fails while the committed page differs).
man: all
	@scripts/man-page.sh $(B)/secteam-tui

kernel-check: all
	@kernel-docs/validate.sh $(B)

# Wrong series, each of which `make kernel-check` (its guest alone) must
# fail; after kernel-check, whose kernel it reuses (part of make check).
kernel-mutations: all
	@tests/kernel/mutations.sh $(B)

kernel-check-full:
	@kernel-docs/validate-full.sh

kernel-series:
	@scripts/kernel-series.sh

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)
	install -d $(DESTDIR)$(LIBEXECDIR)
	install -m 0755 $(B)/secteam-tui $(DESTDIR)$(BINDIR)/secteam-tui
	install -m 0755 $(B)/secteam-gpg $(DESTDIR)$(LIBEXECDIR)/secteam-gpg
	install -m 0644 secteam-tui.1 $(DESTDIR)$(MANDIR)/secteam-tui.1

clean:
	rm -rf build build-asan build-fuzz build-o0

.PHONY: all units deps deps-quiet run check test check-layers style asan fuzz \
	fuzz-replay stress bench bench-load man kernel-check kernel-mutations kernel-check-full \
	kernel-series \
	install clean
