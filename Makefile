# SPDX-License-Identifier: GPL-2.0
#
# pkstool: the pks kernel module, libpks and the pkstool command.
#
#   make            build the module (against KDIR), libpks and pkstool
#   make run        boot the test VM and show PKS working (the main job)
#   make check      install what is missing, then run every test
#   make check-next build the driver against Debian sid's newest kernel
#                   headers in a sid chroot and say what breaks (not in
#                   make check: sid moves daily)
#   make bench      benchmarks
#   make fstests    fstests (FSTESTS_GROUPS, default dax) on ext4 and xfs -o
#                   dax, unprotected and protected, compared (KERNELS)
#   make stress     the long reload, storm and fuzz sweeps (hours)
#   make lint       checkpatch and sparse on the driver
#   make fuzz       the libFuzzer targets, FUZZ_SECONDS (20) each

# The one version of the module, libpks, pkstool and the packages:
# VERSION, which debian/changelog and dkms.conf follow (tests/lint.sh).
VERSION		:= $(shell cat $(dir $(lastword $(MAKEFILE_LIST)))VERSION)
BUILD		:= $(CURDIR)/build
CACHE		?= $(CURDIR)/.cache
KERNELS		?= 6.1 6.12

# The kernel to build the module against: KDIR, else the running kernel's
# build tree. Without one, make stops and says what to install, rather
# than build for a kernel this machine does not run; KDIR=vm (the test
# scripts pass KDIR_FALLBACK=vm) builds for the test VM's 6.1 headers,
# fetched into .cache.
RUNNING_KDIR	:= /lib/modules/$(shell uname -r)/build
VM_KDIR		= $(shell tests/vm/fetch-kernel.sh 6.1 $(CACHE)/kernels)/lib/modules/$(notdir $(shell tests/vm/fetch-kernel.sh 6.1 $(CACHE)/kernels))/build
ifeq ($(origin KDIR), undefined)
ifneq ($(wildcard $(RUNNING_KDIR)/Makefile),)
KDIR		:= $(RUNNING_KDIR)
else
KDIR		:= $(KDIR_FALLBACK)
endif
endif
ifeq ($(KDIR),vm)
override KDIR	= $(VM_KDIR)
endif

# Install locations. The defaults suit a hand-made install on Debian
# (/usr/local, which ldconfig and pkg-config search); PREFIX=/usr gives a
# distribution package's layout, with the multiarch library directory.
# The configuration stays in /etc and the module source in /usr/src
# either way: pkstool reads the one and DKMS the other only there.
PREFIX		?= /usr/local
MULTIARCH	:= $(shell $(CC) -print-multiarch 2>/dev/null)
ifeq ($(PREFIX),/usr)
LIBDIR		?= $(PREFIX)/lib/$(MULTIARCH)
UDEVRULESDIR	?= $(PREFIX)/lib/udev/rules.d
else
LIBDIR		?= $(PREFIX)/lib
# udev reads rules from /etc, /run and /usr/lib only, never /usr/local.
UDEVRULESDIR	?= /etc/udev/rules.d
endif
BINDIR		?= $(PREFIX)/bin
INCLUDEDIR	?= $(PREFIX)/include
PKGCONFIGDIR	?= $(LIBDIR)/pkgconfig
MANDIR		?= $(PREFIX)/share/man
BASHCOMPDIR	?= $(PREFIX)/share/bash-completion/completions
SYSTEMDUNITDIR	?= $(PREFIX)/lib/systemd/system
SYSCONFDIR	?= /etc
DKMSSRCDIR	?= /usr/src/pks-$(VERSION)
INSTALL		?= install

CC		?= cc
PKG_CONFIG	?= pkg-config
CFLAGS		?= -O2 -g
WARNINGS	:= -Wall -Wextra -Werror
CPPFLAGS_ALL	:= -std=c11 -D_GNU_SOURCE -Idriver/include/uapi -Ilib \
		   -DPKSTOOL_VERSION=\"$(VERSION)\"
JSONC_CFLAGS	:= $(shell $(PKG_CONFIG) --cflags json-c 2>/dev/null)
JSONC_LIBS	:= $(shell $(PKG_CONFIG) --libs json-c 2>/dev/null || echo -ljson-c)
UUID_LIBS	:= $(shell $(PKG_CONFIG) --libs uuid 2>/dev/null || echo -luuid)
GLIB_CFLAGS	:= $(shell $(PKG_CONFIG) --cflags glib-2.0 2>/dev/null)
GLIB_LIBS	:= $(shell $(PKG_CONFIG) --libs glib-2.0 2>/dev/null || echo -lglib-2.0)
KMOD_CFLAGS	:= $(shell $(PKG_CONFIG) --cflags libkmod 2>/dev/null)
KMOD_LIBS	:= $(shell $(PKG_CONFIG) --libs libkmod 2>/dev/null || echo -lkmod)
SYSTEMD_CFLAGS	:= $(shell $(PKG_CONFIG) --cflags libsystemd 2>/dev/null)
SYSTEMD_LIBS	:= $(shell $(PKG_CONFIG) --libs libsystemd 2>/dev/null || echo -lsystemd)
NDCTL_LIBS	:= $(shell $(PKG_CONFIG) --libs libndctl libdaxctl libcxl 2>/dev/null || \
		     echo -lndctl -ldaxctl -lcxl)
FUSE_CFLAGS	:= $(shell $(PKG_CONFIG) --cflags fuse3 2>/dev/null || \
		     echo -I/usr/include/fuse3)
FUSE_LIBS	:= $(shell $(PKG_CONFIG) --libs fuse3 2>/dev/null || echo -lfuse3)

LIB_SRC		:= $(wildcard lib/*.c)
LIB_OBJ		:= $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC		:= $(wildcard cli/*.c)
# The ABI: pks.h, /dev/pks's, is installed; pks_test.h, /dev/pks-test's, is not.
UAPI		:= driver/include/uapi/linux/pks.h
UAPI_TEST	:= driver/include/uapi/linux/pks_test.h
CLI_HDR		:= cli/builtin.h cli/persist.h cli/persist_format.h cli/records.h \
		   lib/libpks.h $(UAPI) $(UAPI_TEST)
DRIVER_SRC	:= $(wildcard driver/*.c driver/*.h driver/Kbuild \
			driver/test/*.c driver/test/*.h \
			driver/include/*/*.h driver/include/uapi/linux/*.h)
MAN_SRC		:= $(filter-out man/pkstool-json.txt,$(wildcard man/pkstool*.txt))

.PHONY: all module userspace man unit vm-bin deps check check-next run \
	bench fstests lint clean \
	sanitize stress install uninstall fuzz fuzz-bin dist deb FORCE

all: module userspace man

deps:
	@scripts/install-deps.sh

userspace: $(BUILD)/pkstool $(BUILD)/libpks.so.1 $(BUILD)/libpks.pc vm-bin

LIB_HDR		:= lib/libpks.h lib/libpks-private.h

$(BUILD)/lib/%.o: lib/%.c $(LIB_HDR) $(UAPI) $(UAPI_TEST) VERSION
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CPPFLAGS) $(WARNINGS) $(CFLAGS) -fPIC -c -o $@ $<

# Everything links the shared library, so every test run exercises its
# soname and version script: a symbol missing from libpks.sym fails the
# link. Programs run from build/ find it through their RUNPATH; the
# copies make install puts in place are linked again without one.
$(BUILD)/libpks.so.1: $(LIB_OBJ) lib/libpks.sym
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libpks.so.1 -Wl,--no-undefined \
		-Wl,--version-script=lib/libpks.sym -o $@ $(LIB_OBJ) \
		$(NDCTL_LIBS) $(UUID_LIBS)

LIBPKS		:= $(BUILD)/libpks.so.1
LIBPKS_LINK	:= $(LIBPKS) -Wl,--enable-new-dtags -Wl,-rpath,$(BUILD)

# The .pc file names the directories of this PREFIX; make install writes
# its own copy, so a changed PREFIX never needs a clean.
PC_SED		= -e 's|@PREFIX@|$(PREFIX)|;s|@LIBDIR@|$(LIBDIR)|' \
		  -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|;s|@VERSION@|$(VERSION)|'

$(BUILD)/libpks.pc: lib/libpks.pc.in
	sed $(PC_SED) $< > $@

$(BUILD)/cli/%.o: cli/%.c $(CLI_HDR) VERSION
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(JSONC_CFLAGS) $(KMOD_CFLAGS) $(GLIB_CFLAGS) $(SYSTEMD_CFLAGS) \
		-DPKSTOOL_SYSCONFDIR=\"$(SYSCONFDIR)\" $(CPPFLAGS) $(WARNINGS) $(CFLAGS) \
		-c -o $@ $<

CLI_OBJ		:= $(CLI_SRC:%.c=$(BUILD)/%.o)

$(BUILD)/pkstool: $(CLI_OBJ) $(LIBPKS)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(LIBPKS_LINK) $(JSONC_LIBS) $(KMOD_LIBS) $(GLIB_LIBS) $(SYSTEMD_LIBS)

# Kbuild writes into the source folder, so each kernel gets its own copy.
module: $(DRIVER_SRC)
ifeq ($(KDIR),)
	@echo "pkstool: building pks.ko: no kernel headers for the running kernel $$(uname -r) in $(RUNNING_KDIR): install them (apt install linux-headers-$$(uname -r)), name a build tree with KDIR=DIR, or build for the test VM's kernel with KDIR=vm" >&2
	@exit 1
endif
	@rm -rf $(BUILD)/module && mkdir -p $(BUILD)/module
	@cp -r driver/. $(BUILD)/module/ && cp VERSION $(BUILD)/module/
	$(MAKE) -C $(KDIR) M=$(BUILD)/module modules

man: $(MAN_SRC:man/%.txt=$(BUILD)/man/%.8) $(BUILD)/man/pkstool-json.7 \
	$(BUILD)/man/libpks.3

MAN_INC		:= $(wildcard man/*-option*.txt) man/exit-status.txt \
		   man/namespace-arg.txt
MAN_CMD		= asciidoctor -b manpage -a mansource=pkstool \
		  -a manversion=$(VERSION) -o $@ $<

$(BUILD)/man/%.8: man/%.txt $(MAN_INC)
	@mkdir -p $(@D)
	$(MAN_CMD)

$(BUILD)/man/%.7: man/%.txt $(MAN_INC)
	@mkdir -p $(@D)
	$(MAN_CMD)

$(BUILD)/man/%.3: man/%.txt
	@mkdir -p $(@D)
	$(MAN_CMD)

check: deps
	tests/run-all.sh

check-next: deps
	CACHE="$(CACHE)" BUILD="$(BUILD)" tests/check-next.sh

run: deps
	tests/vm/demo.sh

bench: deps
	tests/bench/run.sh

fstests: deps
	KERNELS="$(KERNELS)" tests/fstests/run.sh

stress: deps
	tests/vm/stress.sh

lint: deps
	tests/lint.sh

clean:
	rm -rf $(BUILD)

# The Debian packages (debian/), built from a copy of the tree so that
# the checkout's build/ is left alone; the .debs land in build/deb.
deb:
	@tests/deb/build.sh $(BUILD)/deb

# make install / make uninstall, DESTDIR and PREFIX honoured. Without
# DESTDIR (a real install) the module is also added to DKMS and built
# for the running kernel; with DESTDIR (a package or staging root) only
# its source goes to DKMSSRCDIR, for the package's own postinst.
DIST		:= $(BUILD)/dist
DKMS_SRC	:= $(filter-out driver/dkms.conf.in,$(DRIVER_SRC))
MAN_PAGES	:= $(MAN_SRC:man/%.txt=%.8)

# The installed pkstool: the same objects, linked without build/'s RUNPATH.
$(DIST)/pkstool: $(CLI_OBJ) $(LIBPKS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIBPKS) $(JSONC_LIBS) $(KMOD_LIBS) $(GLIB_LIBS) $(SYSTEMD_LIBS)

$(DIST)/libpks.pc: lib/libpks.pc.in FORCE
	@mkdir -p $(@D)
	sed $(PC_SED) $< > $@

$(DIST)/dkms.conf: driver/dkms.conf.in Makefile
	@mkdir -p $(@D)
	sed -e 's|@VERSION@|$(VERSION)|g' $< > $@

# Units name the installed pkstool and the configuration directory.
$(DIST)/%.service: systemd/%.service.in FORCE
	@mkdir -p $(@D)
	sed -e 's|@BINDIR@|$(BINDIR)|g;s|@SYSCONFDIR@|$(SYSCONFDIR)|g' $< > $@

UNITS		:= pkstool-protect.service pkstool-protect@.service \
		   pkstool-monitor.service

FORCE:

# dist: everything make install puts in place, built (no module, no
# test programs): what a package build runs before make install.
dist: $(DIST)/pkstool $(DIST)/libpks.pc $(DIST)/dkms.conf $(LIBPKS) man \
		$(UNITS:%=$(DIST)/%)

install: dist
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(INCLUDEDIR)/libpks/linux \
		$(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(UDEVRULESDIR)
	$(INSTALL) -m 755 $(DIST)/pkstool $(DESTDIR)$(BINDIR)/pkstool
	$(INSTALL) -m 644 $(LIBPKS) $(DESTDIR)$(LIBDIR)/libpks.so.1
	ln -sf libpks.so.1 $(DESTDIR)$(LIBDIR)/libpks.so
	$(INSTALL) -m 644 $(DIST)/libpks.pc $(DESTDIR)$(PKGCONFIGDIR)/libpks.pc
	$(INSTALL) -m 644 lib/libpks.h $(DESTDIR)$(INCLUDEDIR)/libpks.h
	$(INSTALL) -m 644 $(UAPI) $(DESTDIR)$(INCLUDEDIR)/libpks/linux/pks.h
	$(INSTALL) -m 644 $(MAN_PAGES:%=$(BUILD)/man/%) $(DESTDIR)$(MANDIR)/man8/
	$(INSTALL) -m 644 $(BUILD)/man/pkstool-json.7 $(DESTDIR)$(MANDIR)/man7/
	$(INSTALL) -m 644 $(BUILD)/man/libpks.3 $(DESTDIR)$(MANDIR)/man3/
	$(INSTALL) -m 644 completion/pkstool $(DESTDIR)$(BASHCOMPDIR)/pkstool
	$(INSTALL) -m 644 $(UNITS:%=$(DIST)/%) $(DESTDIR)$(SYSTEMDUNITDIR)/
	$(INSTALL) -m 644 systemd/90-pkstool.rules $(DESTDIR)$(UDEVRULESDIR)/
	for f in $(DKMS_SRC:driver/%=%); do \
		$(INSTALL) -D -m 644 driver/$$f $(DESTDIR)$(DKMSSRCDIR)/$$f || exit 1; \
	done
	$(INSTALL) -m 644 $(DIST)/dkms.conf $(DESTDIR)$(DKMSSRCDIR)/dkms.conf
	$(INSTALL) -m 644 VERSION $(DESTDIR)$(DKMSSRCDIR)/VERSION
ifeq ($(DESTDIR),)
	-ldconfig
	@scripts/dkms-install.sh add $(VERSION)
	-systemctl daemon-reload && systemctl enable pkstool-protect.service
	-udevadm control --reload
endif

# /etc/pkstool (the records an administrator made) is left in place.
uninstall:
ifeq ($(DESTDIR),)
	@scripts/dkms-install.sh remove $(VERSION)
	-systemctl disable pkstool-protect.service
endif
	rm -f $(DESTDIR)$(BINDIR)/pkstool $(DESTDIR)$(LIBDIR)/libpks.so.1 \
		$(DESTDIR)$(LIBDIR)/libpks.so $(DESTDIR)$(PKGCONFIGDIR)/libpks.pc \
		$(DESTDIR)$(INCLUDEDIR)/libpks.h \
		$(MAN_PAGES:%=$(DESTDIR)$(MANDIR)/man8/%) \
		$(DESTDIR)$(MANDIR)/man7/pkstool-json.7 \
		$(DESTDIR)$(MANDIR)/man3/libpks.3 \
		$(DESTDIR)$(BASHCOMPDIR)/pkstool \
		$(UNITS:%=$(DESTDIR)$(SYSTEMDUNITDIR)/%) \
		$(DESTDIR)$(UDEVRULESDIR)/90-pkstool.rules
	rm -rf $(DESTDIR)$(INCLUDEDIR)/libpks $(DESTDIR)$(DKMSSRCDIR)
ifeq ($(DESTDIR),)
	-ldconfig
endif

# Unit tests (Criterion): one binary per file in tests/unit, except the
# shared helper.
# The ABI as the uapi header's text says, read here and not through the
# preprocessor: what the unit tests hold libpks's compiled-in ABI against
# (an older installed <linux/pks.h> found first, or a -DLIBPKS_ABI_VERSION,
# would give the library and the test the same wrong macro).
UAPI_ABI_TEXT	:= $(shell sed -n 's/^\#define PKS_ABI_VERSION[[:space:]]*//p' $(UAPI))
UNIT_SRC	:= $(filter-out tests/unit/run_cmd.c,$(wildcard tests/unit/*.c))
UNIT_BIN	:= $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)

unit: $(UNIT_BIN) $(BUILD)/pkstool

$(BUILD)/unit/%: tests/unit/%.c tests/unit/run_cmd.c tests/unit/run_cmd.h \
		$(LIBPKS) $(UAPI_TEST)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(JSONC_CFLAGS) -DUAPI_ABI_TEXT=$(UAPI_ABI_TEXT) \
		$(WARNINGS) $(CFLAGS) -o $@ \
		$< tests/unit/run_cmd.c $(LIBPKS_LINK) -lcriterion $(JSONC_LIBS)

# Programs the VM tests run, built for the VM (copied in with their
# shared libraries).
$(BUILD)/vm-bin/pks-ioctl $(BUILD)/vm-bin/pks-fuzz: $(BUILD)/vm-bin/%: \
		tests/vm/bin/%.c $(UAPI) $(UAPI_TEST)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $<

$(BUILD)/vm-bin/pks-integrity: tests/vm/bin/pks-integrity.c $(LIBPKS) \
		$(UAPI_TEST)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $< $(LIBPKS_LINK) \
		-lpmem2

$(BUILD)/vm-bin/pks-rescan: tests/vm/bin/pks-rescan.c $(LIBPKS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $< $(LIBPKS_LINK)

$(BUILD)/vm-bin/pks-maphold $(BUILD)/vm-bin/pks-tsc $(BUILD)/vm-bin/pks-stall: $(BUILD)/vm-bin/%: \
		tests/vm/bin/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $<

$(BUILD)/vm-bin/pks-late: tests/vm/bin/pks-late.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $<

$(BUILD)/vm-bin/pks-paths: tests/vm/bin/pks-paths.c tests/vm/bin/pks-env.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $< -luring

$(BUILD)/vm-bin/pks-unrelated: tests/vm/bin/pks-unrelated.c \
		tests/vm/bin/pks-counters.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $< -luring

# Upstream's own selftest, built unmodified with upstream's flags, where
# the shared folder holds it (never copied into this tree).
UPSTREAM	?= $(CURDIR)/../shared/upstream
TEST_PKS	:= $(if $(wildcard $(UPSTREAM)/test_pks.c),$(BUILD)/vm-bin/test_pks)

$(BUILD)/vm-bin/test_pks: $(UPSTREAM)/test_pks.c
	@mkdir -p $(@D)
	gcc -O2 -g -std=gnu99 -pthread -Wall -no-pie -o $@ $<

# pkstool built for the ABI before the driver's, for the ABI-mismatch case
# (tests/vm/cases/abi.sh): only libpks's idea of the ABI differs.
OTHER_ABI	:= $(shell expr $(UAPI_ABI_TEXT) - 1)

$(BUILD)/other-abi/%.o: lib/%.c $(LIB_HDR) $(UAPI) $(UAPI_TEST)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) -DLIBPKS_ABI_VERSION=$(OTHER_ABI) $(WARNINGS) \
		$(CFLAGS) -c -o $@ $<

$(BUILD)/vm-bin/pkstool-other-abi: $(CLI_SRC:%.c=$(BUILD)/%.o) \
		$(LIB_SRC:lib/%.c=$(BUILD)/other-abi/%.o)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(JSONC_LIBS) $(NDCTL_LIBS) $(UUID_LIBS) \
		$(KMOD_LIBS) $(GLIB_LIBS) $(SYSTEMD_LIBS)

vm-bin: $(TEST_PKS) $(BUILD)/vm-bin/pks-ioctl $(BUILD)/vm-bin/pks-fuzz \
	$(BUILD)/vm-bin/pkstool-other-abi $(BUILD)/vm-bin/pks-rescan \
	$(BUILD)/vm-bin/pks-integrity \
	$(BUILD)/vm-bin/pks-bench $(BUILD)/vm-bin/pks-paths $(BUILD)/vm-bin/pks-late \
	$(BUILD)/vm-bin/pks-maphold $(BUILD)/vm-bin/pks-tsc $(BUILD)/vm-bin/pks-stall \
	$(BUILD)/vm-bin/pks-pvm-bench $(BUILD)/vm-bin/pks-fileops \
	$(BUILD)/vm-bin/pks-fsbench $(BUILD)/vm-bin/pks-userbench \
	$(BUILD)/vm-bin/pks-zerocopy $(BUILD)/vm-bin/pks-fuse \
	$(BUILD)/vm-bin/pks-unrelated $(BUILD)/vm-bin/pks-no-uuid.so

# An LD_PRELOAD shim for the persist case: namespaces without a UUID.
$(BUILD)/vm-bin/pks-no-uuid.so: tests/vm/bin/pks-no-uuid.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -shared -fPIC -o $@ $<

$(BUILD)/vm-bin/pks-zerocopy: tests/vm/bin/pks-zerocopy.c tests/vm/bin/pks-mapping.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $<

$(BUILD)/vm-bin/pks-fuse: tests/vm/bin/pks-fuse.c tests/vm/bin/pks-mapping.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(FUSE_CFLAGS) $(WARNINGS) $(CFLAGS) -o $@ $< $(FUSE_LIBS)

$(BUILD)/vm-bin/pks-fsbench: tests/vm/bin/pks-fsbench.c \
		tests/vm/bin/pks-counters.h $(UAPI) $(UAPI_TEST)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $<

$(BUILD)/vm-bin/pks-fileops: tests/vm/bin/pks-fileops.c tests/vm/bin/pks-env.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $< -lpmem2

$(BUILD)/vm-bin/pks-userbench: tests/vm/bin/pks-userbench.c \
		tests/vm/bin/pks-counters.h $(UAPI)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $< -lpmem2

$(BUILD)/vm-bin/pks-pvm-bench: tests/vm/bin/pks-pvm-bench.c \
		tests/vm/bin/pks-counters.h $(UAPI)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $<

$(BUILD)/vm-bin/pks-bench: tests/vm/bin/pks-bench.c $(UAPI) $(UAPI_TEST)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $<

# The unit tests again with libpks and pkstool built under AddressSanitizer
# and UndefinedBehaviorSanitizer, every finding fatal: tests/run-all.sh
# runs them as sanitize/unit/*.
SAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer -O1 -g
SAN		:= $(BUILD)/sanitize

$(SAN)/pkstool: $(CLI_SRC) $(LIB_SRC) $(CLI_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(JSONC_CFLAGS) $(KMOD_CFLAGS) $(GLIB_CFLAGS) $(SYSTEMD_CFLAGS) \
		-DPKSTOOL_SYSCONFDIR=\"$(SYSCONFDIR)\" $(WARNINGS) $(SAN_FLAGS) \
		-o $@ $(CLI_SRC) $(LIB_SRC) $(JSONC_LIBS) $(NDCTL_LIBS) \
		$(UUID_LIBS) $(KMOD_LIBS) $(GLIB_LIBS) $(SYSTEMD_LIBS)

$(SAN)/unit/%: tests/unit/%.c tests/unit/run_cmd.c tests/unit/run_cmd.h \
		$(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(JSONC_CFLAGS) -DUAPI_ABI_TEXT=$(UAPI_ABI_TEXT) \
		$(WARNINGS) $(SAN_FLAGS) -o $@ \
		$< tests/unit/run_cmd.c $(LIB_SRC) -lcriterion $(JSONC_LIBS) \
		$(UUID_LIBS) \
		$(NDCTL_LIBS)

sanitize: $(UNIT_SRC:tests/unit/%.c=$(SAN)/unit/%) $(SAN)/pkstool

$(SAN)/control: tests/sanitize/control.c
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARNINGS) $(SAN_FLAGS) -o $@ $<

sanitize: $(SAN)/control

# libFuzzer targets (tests/fuzz), built with clang whatever CC is, each
# also with -DFUZZ_CONTROL, its planted bug. make fuzz runs them for
# FUZZ_SECONDS each (tests/fuzz/run.sh); make check runs the short default.
FUZZ_CC		?= clang
FUZZ_FLAGS	:= -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer -O1 -g
FUZZ		:= $(BUILD)/fuzz
FUZZ_TARGETS	:= $(basename $(notdir $(wildcard tests/fuzz/*.c)))
FUZZ_SECONDS	?= 20
FUZZ_SRC_ns-name := $(LIB_SRC)
FUZZ_LIBS_ns-name := $(NDCTL_LIBS) $(UUID_LIBS)
FUZZ_SRC_persist := cli/persist_format.c $(LIB_SRC)
FUZZ_LIBS_persist := $(NDCTL_LIBS) $(UUID_LIBS) $(GLIB_LIBS)
FUZZ_CMD	= $(FUZZ_CC) $(CPPFLAGS_ALL) -Icli $(GLIB_CFLAGS) $(WARNINGS) \
		  $(FUZZ_FLAGS) -o $@ $< $(FUZZ_SRC_$*) $(FUZZ_LIBS_$*)
FUZZ_DEPS	:= tests/fuzz/fuzz.h $(LIB_SRC) $(LIB_HDR) cli/persist_format.c \
		   cli/persist_format.h

$(FUZZ)/%-control: tests/fuzz/%.c $(FUZZ_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_CMD) -DFUZZ_CONTROL

$(FUZZ)/%: tests/fuzz/%.c $(FUZZ_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_CMD)

fuzz-bin: $(FUZZ_TARGETS:%=$(FUZZ)/%) $(FUZZ_TARGETS:%=$(FUZZ)/%-control)

fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) BUILD=$(BUILD) tests/fuzz/run.sh
