#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks: checkpatch (from Debian's linux-source-6.1), sparse and a
# W=1 build on the driver, and a clang build of the userspace code,
# warnings as errors.
# Prints one "PASS|FAIL lint/<check>" line each.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${CACHE:-$top/.cache}
build=${BUILD:-$top/build}
cd "$top"

checkpatch=$cache/checkpatch/scripts/checkpatch.pl
if [ ! -x "$checkpatch" ]; then
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -q linux-source-6.1 >/dev/null 2>&1)
	mkdir -p "$cache/checkpatch"
	dpkg-deb --fsys-tarfile "$tmp"/linux-source-6.1_*.deb |
		tar -xO --wildcards './usr/src/linux-source-6.1.tar.xz' |
		tar -xJ -C "$cache/checkpatch" --strip-components=1 \
			--wildcards 'linux-source-6.1/scripts/checkpatch.pl' \
			'linux-source-6.1/scripts/spelling.txt' \
			'linux-source-6.1/scripts/const_structs.checkpatch'
	rm -rf "$tmp"
fi
if [ ! -x "$checkpatch" ]; then
	echo "FAIL lint/checkpatch: cannot get checkpatch.pl from linux-source-6.1"
else
	# driver/test/ too: a pathspec's * matches across folders.
	files=$(git ls-files 'driver/*.c' 'driver/*.h')
	if out=$("$checkpatch" --no-tree --quiet --show-types -f $files 2>&1); then
		echo "PASS lint/checkpatch"
	else
		echo "$out" >&2
		echo "FAIL lint/checkpatch: see the report above"
	fi
fi

# pks.ko's test-only exports (the PKS_TEST namespace) are the functions
# pks_testing.h declares, each one used by the test module, and no
# variable (a lock of the driver's) among them.
# (PKS_TEST_NS: the namespace's name as the kernel's headers want it,
# a bare word before 6.13 and a string literal since; pks_arch.h.)
ns_exports=$(sed -nE 's/^EXPORT_SYMBOL_NS_GPL\(([a-z0-9_]+), PKS_TEST_NS\);/\1/p' \
	driver/*.c | sort)
ns_declared=$(sed -nE 's/^[a-z].*[ *](_*pks_[a-z0-9_]+)\(.*/\1/p' \
	driver/pks_testing.h | sort)
problems=
d=$(diff <(echo "$ns_exports") <(echo "$ns_declared")) ||
	problems="$problems exported/declared:[$(echo $d)]"
for f in $ns_exports; do
	grep -qw "$f" driver/test/*.c || problems="$problems unused:$f"
done
grep -q '^extern' driver/pks_testing.h && problems="$problems a-variable"
if [ -n "$problems" ]; then
	echo "FAIL lint/test-exports:$problems"
else
	echo "PASS lint/test-exports"
fi

# The VM cases' "# suite: after-reboot" and "# then-boot:" headers name
# what tests/run-all.sh runs: an after-reboot case that no own-boot case
# names would never run (tests/vm/check-headers.sh).
if problems=$(tests/vm/check-headers.sh); then
	echo "PASS lint/vm-headers"
else
	echo "FAIL lint/vm-headers: $(echo "$problems" | paste -sd';')"
fi

kroot=$(tests/vm/fetch-kernel.sh 6.1 "$cache/kernels")
kver=$(basename "$kroot")
# module_check NAME DIR MAKE-ARGS...: build the driver with extra checks;
# any warning or error of ours fails NAME.
module_check() {
	local name=$1 mod=$2 out warn
	shift 2
	rm -rf "$mod" && mkdir -p "$mod" && cp -r driver/. "$mod/" && cp VERSION "$mod/"
	out=$(make -C "$kroot/lib/modules/$kver/build" M="$mod" "$@" modules 2>&1)
	if [ $? -ne 0 ]; then
		echo "$out" >&2
		echo "FAIL lint/$name: the build failed"
	elif warn=$(echo "$out" | grep -E "^$mod/.*: (warning|error):"); then
		echo "$warn" >&2
		echo "FAIL lint/$name: $(echo "$warn" | wc -l) warnings"
	else
		echo "PASS lint/$name"
	fi
}

module_check sparse "$build/sparse/$kver" C=2
# W=1: the extra warnings kernel maintainers build with. (A clang build
# of the module is not possible against Debian's gcc-built kernels: their
# flags, -mrecord-mcount and -fconserve-stack among them, are gcc-only.)
module_check module-w1 "$build/w1/$kver" W=1

if out=$(make -s BUILD="$build/clang" CC=clang userspace unit 2>&1); then
	echo "PASS lint/clang"
else
	echo "$out" >&2
	echo "FAIL lint/clang: clang build has warnings or errors"
fi

# make bench's report.py stops at input it cannot parse or place, naming
# the line, instead of dropping it (tests/bench/check-report.sh).
if out=$(tests/bench/check-report.sh 2>&1); then
	echo "PASS lint/bench-report"
else
	echo "$out" >&2
	echo "FAIL lint/bench-report: see the report above"
fi

# pkstool's JSON without a driver matches tests/schema, and the schemas
# refuse documents that break the contract (pkstool-json(7)).
if out=$(tests/schema/validate.py host "$build/pkstool" 2>&1); then
	echo "PASS lint/schemas"
else
	echo "$out" >&2
	echo "FAIL lint/schemas: see the report above"
fi

# libpks.so exports exactly the functions libpks.h declares, each in
# libpks(3), all in the one version node of libpks.sym (LIBPKS_1: the
# first release has one node), each listed there once.
declared=$(sed -nE 's/^[a-z].*[ *](pks_[a-z0-9_]+)\(.*/\1/p' lib/libpks.h | sort -u)
exported=$(nm -D --defined-only "$build/libpks.so.1" |
	   sed -nE 's/.* T (pks_[a-z0-9_]+)(@.*)?$/\1/p' | sort -u)
listed=$(grep -oE '^\s+pks_[a-z0-9_]+;' lib/libpks.sym | tr -d ' \t;' | sort)
nodes=$(grep -oE '^[A-Za-z_][A-Za-z0-9_.]*[[:space:]]*\{' lib/libpks.sym |
	tr -d ' \t{')
# Every defined dynamic symbol but the node's own (ABS) name, with its version.
versions=$(nm -D --defined-only "$build/libpks.so.1" |
	   awk '$2 != "A" { print $3 }' | sed -nE 's/^[^@]+@@?//p' | sort -u)
unversioned=$(nm -D --defined-only "$build/libpks.so.1" |
	      awk '$2 != "A" && $3 !~ /@/ { print $3 }')
problems=
[ "$nodes" = LIBPKS_1 ] ||
	problems="$problems nodes:[$(echo $nodes)]-want-LIBPKS_1"
[ "$versions" = LIBPKS_1 ] ||
	problems="$problems exported-versions:[$(echo $versions)]"
[ -z "$unversioned" ] ||
	problems="$problems unversioned:[$(echo $unversioned)]"
d=$(diff <(echo "$declared") <(echo "$exported")) ||
	problems="$problems header/export:[$(echo $d)]"
d=$(diff <(echo "$listed" | uniq) <(echo "$exported")) ||
	problems="$problems sym/export:[$(echo $d)]"
[ -z "$(echo "$listed" | uniq -d)" ] ||
	problems="$problems twice-in-sym:[$(echo "$listed" | uniq -d | tr '\n' ' ')]"
for f in $exported; do
	grep -q "\*$f\*" man/libpks.txt || problems="$problems libpks(3):$f"
done
if [ -n "$problems" ]; then
	echo "FAIL lint/symbols:$problems"
else
	echo "PASS lint/symbols"
fi

# One version (VERSION): debian/changelog's newest entry is that
# release, NEWS starts with it, and dkms.conf and the Kbuild take it from
# make install rather than saying their own.
ver=$(cat VERSION)
problems=
deb=$(dpkg-parsechangelog -l debian/changelog -S Version 2>/dev/null)
[ "${deb%%[-+~]*}" = "$ver" ] ||
	problems="$problems debian/changelog:${deb:-unreadable}"
[ "$(head -n 1 NEWS)" = "pkstool $ver" ] ||
	problems="$problems NEWS:$(head -n 1 NEWS | tr ' ' _)"
grep -q '^PACKAGE_VERSION="@VERSION@"$' driver/dkms.conf.in ||
	problems="$problems driver/dkms.conf.in"
grep -q '^PACKAGE_VERSION="#MODULE_VERSION#"$' debian/pks-dkms.dkms ||
	problems="$problems debian/pks-dkms.dkms"
if [ -n "$problems" ]; then
	echo "FAIL lint/version: not version $ver:$problems"
else
	echo "PASS lint/version"
fi

# Docs agree with the code: every command has its man page, its line in
# README.md's Commands list and its entry in docs/operations.md (help and
# version are described in pkstool(8)), every test case is in
# pkstool-test(8).
missing=
for cmd in $("$build/pkstool" --list-cmds); do
	grep -q "^\*$cmd\*::" man/pkstool.txt || missing="$missing pkstool(8):$cmd"
	case $cmd in help|version) continue ;; esac
	[ -f "man/pkstool-$cmd.txt" ] || missing="$missing man/pkstool-$cmd.txt"
	grep -q "^- \`pkstool $cmd" README.md || missing="$missing README:$cmd"
	grep -q "^- \`pkstool $cmd" docs/operations.md ||
		missing="$missing docs/operations.md:$cmd"
done
# make bench writes its table into docs/benchmarks.md between these
# (tests/bench/report.py), and the pkstool package ships the operations
# document (tests/deb/run.sh checks the built package).
[ "$(grep -c '^<!-- bench-table:\(begin\|end\) -->$' docs/benchmarks.md)" = 2 ] ||
	missing="$missing docs/benchmarks.md:bench-table-markers"
grep -qx 'docs/operations.md' debian/pkstool.docs ||
	missing="$missing debian/pkstool.docs:docs/operations.md"
# Every relative link of README.md and docs/*.md names a file that
# exists and, after "#", a heading of it (as GitHub makes anchors).
bad=$(python3 - README.md docs/*.md <<'PY'
import os, re, sys
def anchors(path):
    out = set()
    for line in open(path):
        m = re.match(r"#+ (.*)", line)
        if m:
            s = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower())
            out.add(s.replace(" ", "-"))
    return out
for doc in sys.argv[1:]:
    for target in re.findall(r"\]\(([^)\s]+)\)", open(doc).read()):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, frag = target.partition("#")
        path = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
        if not os.path.exists(path) or (frag and frag not in anchors(path)):
            print("%s:%s" % (doc, target))
PY
)
for b in $bad; do
	missing="$missing link:$b"
done
for t in $("$build/pkstool" test --list | cut -d' ' -f1); do
	grep -q "^\*$t\*::" man/pkstool-test.txt || missing="$missing pkstool-test(8):$t"
done
# Each command's options, as --help shows them ("-f --force" pairs), are
# the ones its man page documents, in both directions.
help_opts() {
	"$build/pkstool" "$1" --help |
		sed -nE 's/^ +((-[[:alnum:]?], )*)--([a-z][a-z-]*).*/\1--\3/p' |
		tr -d ',' | sort
}
man_opts() {
	local page=man/pkstool-$1.txt inc
	# with the option files it includes (common-options.txt, ...)
	for inc in $(sed -n 's/^include::\(.*-options\.txt\)\[\]$/\1/p' "$page"); do
		page="$page man/$inc"
	done
	# "-f::" lines, then the "--force[=ARG]::" line they belong to
	awk '/^-[[:alnum:]?]::$/ { s = s substr($0, 1, 2) " "; next }
	     /^--[a-z][a-z-]*(=[^:]*)?::$/ { sub(/(=[^:]*)?::$/, ""); print s $0; s = ""; next }
	     { s = "" }' $page | sort
}
for cmd in $("$build/pkstool" --list-cmds); do
	case $cmd in help|version) continue ;; esac
	d=$(diff <(help_opts "$cmd") <(man_opts "$cmd")) ||
		missing="$missing pkstool-$cmd(8)-options:[$(echo $d)]"
done
# Every page as man renders it: no literal "*" (bold markup asciidoctor
# did not take, as in "*[protect* _UUID_*]*"), and no definition list
# run together into its term's line ("*a*:: x *b*:: y" on one line).
make -s -C "$top" man >/dev/null 2>&1 || missing="$missing man-pages-build"
for page in "$build"/man/*.[378]; do
	out=$(MANWIDTH=80 man -l "$page" 2>/dev/null) ||
		{ missing="$missing render:$(basename "$page")"; continue; }
	echo "$out" | grep -q '\*' &&
		missing="$missing literal-*:$(basename "$page"):[$(echo "$out" | grep -m1 '\*')]"
	echo "$out" | grep -q '::' &&
		missing="$missing run-together:$(basename "$page"):[$(echo "$out" | grep -m1 '::')]"
done
if [ -n "$missing" ]; then
	echo "FAIL lint/docs: missing:$missing"
else
	echo "PASS lint/docs"
fi
