# SPDX-License-Identifier: GPL-2.0
#
# pkstool: the pks kernel module, libpks and the pkstool command.
#
#   make            build the module (against KDIR), libpks and pkstool
#   make run        boot the test VM and show PKS working (the main job)
#   make check      install what is missing, then run every test
#   make bench      benchmarks
#   make stress     the long reload, storm and fuzz sweeps (hours)
#   make lint       checkpatch and sparse on the driver

VERSION		:= 0.1
BUILD		:= $(CURDIR)/build
CACHE		?= $(CURDIR)/.cache
KERNELS		?= 6.1 6.12

# The kernel to build the module against: the running kernel's build tree
# when it exists, else the test VM's 6.1 headers.
RUNNING_KDIR	:= /lib/modules/$(shell uname -r)/build
ifeq ($(origin KDIR), undefined)
ifneq ($(wildcard $(RUNNING_KDIR)/Makefile),)
KDIR		:= $(RUNNING_KDIR)
else
KDIR		= $(shell tests/vm/fetch-kernel.sh 6.1 $(CACHE)/kernels)/lib/modules/$(notdir $(shell tests/vm/fetch-kernel.sh 6.1 $(CACHE)/kernels))/build
endif
endif

CC		?= cc
PKG_CONFIG	?= pkg-config
CFLAGS		?= -O2 -g
WARNINGS	:= -Wall -Wextra -Werror
CPPFLAGS_ALL	:= -std=c11 -D_GNU_SOURCE -Idriver/include/uapi -Ilib \
		   -DPKSTOOL_VERSION=\"$(VERSION)\"
JSONC_CFLAGS	:= $(shell $(PKG_CONFIG) --cflags json-c 2>/dev/null)
JSONC_LIBS	:= $(shell $(PKG_CONFIG) --libs json-c 2>/dev/null || echo -ljson-c)
NDCTL_LIBS	:= $(shell $(PKG_CONFIG) --libs libndctl libdaxctl 2>/dev/null || \
		     echo -lndctl -ldaxctl)

LIB_SRC		:= lib/libpks.c
CLI_SRC		:= $(wildcard cli/*.c)
CLI_HDR		:= cli/builtin.h lib/libpks.h driver/include/uapi/linux/pks.h
DRIVER_SRC	:= $(wildcard driver/*.c driver/*.h driver/Kbuild \
			driver/include/*/*.h driver/include/uapi/linux/*.h)
MAN_SRC		:= $(filter-out man/pkstool-json.txt,$(wildcard man/pkstool*.txt))

.PHONY: all module userspace man unit vm-bin deps check run bench lint clean \
	sanitize stress

all: module userspace man

deps:
	@scripts/install-deps.sh

userspace: $(BUILD)/pkstool $(BUILD)/libpks.so.1 $(BUILD)/libpks.pc vm-bin

$(BUILD)/lib/%.o: lib/%.c lib/libpks.h driver/include/uapi/linux/pks.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -fPIC -c -o $@ $<

$(BUILD)/libpks.a: $(BUILD)/lib/libpks.o
	$(AR) rcs $@ $^

$(BUILD)/libpks.so.1: $(BUILD)/lib/libpks.o lib/libpks.sym
	$(CC) -shared -Wl,-soname,libpks.so.1 \
		-Wl,--version-script=lib/libpks.sym -o $@ $< $(NDCTL_LIBS)

$(BUILD)/libpks.pc: lib/libpks.pc.in
	sed -e 's|@PREFIX@|/usr/local|;s|@LIBDIR@|/usr/local/lib|' \
	    -e 's|@INCLUDEDIR@|/usr/local/include|;s|@VERSION@|$(VERSION)|' \
	    $< > $@

$(BUILD)/cli/%.o: cli/%.c $(CLI_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(JSONC_CFLAGS) $(WARNINGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/pkstool: $(CLI_SRC:%.c=$(BUILD)/%.o) $(BUILD)/libpks.a
	$(CC) $(CFLAGS) -o $@ $^ $(JSONC_LIBS) $(NDCTL_LIBS)

# Kbuild writes into the source folder, so each kernel gets its own copy.
module: $(DRIVER_SRC)
	@rm -rf $(BUILD)/module && mkdir -p $(BUILD)/module
	@cp -r driver/. $(BUILD)/module/
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

run: deps
	tests/vm/demo.sh

bench: deps
	tests/bench/run.sh

stress: deps
	tests/vm/stress.sh

lint: deps
	tests/lint.sh

clean:
	rm -rf $(BUILD)

# Unit tests (Criterion): one binary per file in tests/unit, except the
# shared helper.
UNIT_SRC	:= $(filter-out tests/unit/run_cmd.c,$(wildcard tests/unit/*.c))
UNIT_BIN	:= $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)

unit: $(UNIT_BIN) $(BUILD)/pkstool

$(BUILD)/unit/%: tests/unit/%.c tests/unit/run_cmd.c tests/unit/run_cmd.h \
		$(BUILD)/libpks.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(JSONC_CFLAGS) $(WARNINGS) $(CFLAGS) -o $@ \
		$< tests/unit/run_cmd.c $(BUILD)/libpks.a -lcriterion $(JSONC_LIBS) \
		$(NDCTL_LIBS)

# Programs the VM tests run, built for the VM (copied in with their
# shared libraries).
$(BUILD)/vm-bin/pks-ioctl $(BUILD)/vm-bin/pks-fuzz: $(BUILD)/vm-bin/%: \
		tests/vm/bin/%.c driver/include/uapi/linux/pks.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $<

$(BUILD)/vm-bin/pks-integrity: tests/vm/bin/pks-integrity.c $(BUILD)/libpks.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $< $(BUILD)/libpks.a \
		-lpmem2 $(NDCTL_LIBS)

$(BUILD)/vm-bin/pks-rescan: tests/vm/bin/pks-rescan.c $(BUILD)/libpks.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $< $(BUILD)/libpks.a \
		$(NDCTL_LIBS)

$(BUILD)/vm-bin/pks-paths: tests/vm/bin/pks-paths.c
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
OTHER_ABI	:= $(shell expr $$(sed -n 's/^\#define PKS_ABI_VERSION[[:space:]]*//p' \
			driver/include/uapi/linux/pks.h) - 1)

$(BUILD)/other-abi/libpks.o: lib/libpks.c lib/libpks.h \
		driver/include/uapi/linux/pks.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) -DLIBPKS_ABI_VERSION=$(OTHER_ABI) $(WARNINGS) \
		$(CFLAGS) -c -o $@ $<

$(BUILD)/vm-bin/pkstool-other-abi: $(CLI_SRC:%.c=$(BUILD)/%.o) \
		$(BUILD)/other-abi/libpks.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(JSONC_LIBS) $(NDCTL_LIBS)

vm-bin: $(TEST_PKS) $(BUILD)/vm-bin/pks-ioctl $(BUILD)/vm-bin/pks-fuzz \
	$(BUILD)/vm-bin/pkstool-other-abi $(BUILD)/vm-bin/pks-rescan \
	$(BUILD)/vm-bin/pks-integrity \
	$(BUILD)/vm-bin/pks-bench $(BUILD)/vm-bin/pks-paths \
	$(BUILD)/vm-bin/pks-pvm-bench $(BUILD)/vm-bin/pks-fileops \
	$(BUILD)/vm-bin/pks-fsbench $(BUILD)/vm-bin/pks-userbench

$(BUILD)/vm-bin/pks-fsbench: tests/vm/bin/pks-fsbench.c \
		tests/vm/bin/pks-counters.h driver/include/uapi/linux/pks.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $<

$(BUILD)/vm-bin/pks-fileops: tests/vm/bin/pks-fileops.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $< -lpmem2

$(BUILD)/vm-bin/pks-userbench: tests/vm/bin/pks-userbench.c \
		tests/vm/bin/pks-counters.h driver/include/uapi/linux/pks.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $< -lpmem2

$(BUILD)/vm-bin/pks-pvm-bench: tests/vm/bin/pks-pvm-bench.c \
		tests/vm/bin/pks-counters.h driver/include/uapi/linux/pks.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(WARNINGS) $(CFLAGS) -o $@ $<

$(BUILD)/vm-bin/pks-bench: tests/vm/bin/pks-bench.c driver/include/uapi/linux/pks.h
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
	$(CC) $(CPPFLAGS_ALL) $(JSONC_CFLAGS) $(WARNINGS) $(SAN_FLAGS) -o $@ \
		$(CLI_SRC) $(LIB_SRC) $(JSONC_LIBS) $(NDCTL_LIBS)

$(SAN)/unit/%: tests/unit/%.c tests/unit/run_cmd.c tests/unit/run_cmd.h \
		$(LIB_SRC) lib/libpks.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(JSONC_CFLAGS) $(WARNINGS) $(SAN_FLAGS) -o $@ \
		$< tests/unit/run_cmd.c $(LIB_SRC) -lcriterion $(JSONC_LIBS) \
		$(NDCTL_LIBS)

sanitize: $(UNIT_SRC:tests/unit/%.c=$(SAN)/unit/%) $(SAN)/pkstool

$(SAN)/control: tests/sanitize/control.c
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARNINGS) $(SAN_FLAGS) -o $@ $<

sanitize: $(SAN)/control
