#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bash completion (completion/pkstool) against pkstool itself and the man
# pages: for every command in 'pkstool --list-cmds', the long options the
# completion offers, those 'pkstool CMD --help' lists and those the
# command's man page documents (its include:: files resolved) must be the
# same set. Also the commands, the test names, and option values.
# Controls: enable's set must hold --mode and list's must not, so a
# completion that offered one fixed list could not pass.
# Prints one "PASS|FAIL|SKIP completion/<check>" line each.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
prog=${PKSTOOL:-$top/build/pkstool}
bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
	echo "SKIP completion/all: bash-completion is not installed"
	exit 0
fi

# complete WORD...: what the completion offers for the command line
# "pkstool WORD...", the last word being completed
complete_words() {
	bash -c '
		. "$1"; . "$2"; prog=$3; shift 3
		COMP_WORDS=("$prog" "$@")
		COMP_CWORD=$(($# ))
		COMP_LINE="${COMP_WORDS[*]}"
		COMP_POINT=${#COMP_LINE}
		_pkstool
		printf "%s\n" "${COMPREPLY[@]}"
	' complete "$bc" completion/pkstool "$prog" "$@" | sort -u
}

# man_options CMD: long options in man/pkstool-CMD.txt and what it includes
man_options() {
	local page=man/pkstool-$1.txt inc
	{
		cat "$page"
		for inc in $(sed -n 's/^include::\(.*\)\[\]$/\1/p' "$page"); do
			cat "man/$inc"
		done
	} | grep -o -- '^--[a-z][a-z-]*' | sort -u
}

help_options() {
	"$prog" "$1" --help | grep -o -- '--[a-z][a-z-]*' | sort -u
}

n=0
for cmd in $("$prog" --list-cmds); do
	[ "$cmd" = help ] && continue
	comp=$(complete_words "$cmd" -- | sed 's/=$//')
	help=$(help_options "$cmd")
	man=$(man_options "$cmd")
	if [ -z "$comp" ]; then
		echo "FAIL completion/$cmd: no options offered"
	elif [ "$comp" != "$help" ]; then
		echo "FAIL completion/$cmd: completion offers [$(echo $comp)], --help lists [$(echo $help)]"
	elif [ "$man" != "$help" ]; then
		echo "FAIL completion/$cmd: pkstool-$cmd(8) documents [$(echo $man)], --help lists [$(echo $help)]"
	else
		echo "PASS completion/$cmd ($(echo "$help" | wc -l) options)"
	fi
	n=$((n + 1))
done

# Control: per-command sets, not one list.
if grep -qx -- '--mode=' <<< "$(complete_words enable --)" &&
   ! grep -q -- '--mode' <<< "$(complete_words list --)"; then
	echo "PASS completion/per-command"
else
	echo "FAIL completion/per-command: enable lacks --mode= or list offers it"
fi

want=$( { "$prog" --list-cmds; echo --list-cmds; echo --help; echo --version; } | sort -u)
got=$(complete_words "")
if [ "$got" = "$want" ] && [ "$(complete_words help "")" = "$("$prog" --list-cmds | sort -u)" ]; then
	echo "PASS completion/commands"
else
	echo "FAIL completion/commands: offered [$(echo $got)], expected [$(echo $want)]"
fi

want=$( { "$prog" test --list | cut -d' ' -f1; echo all; echo all-keys; } | sort -u)
got=$(complete_words test "")
if [ "$got" = "$want" ]; then
	echo "PASS completion/test-names ($(echo "$want" | wc -l))"
else
	echo "FAIL completion/test-names: offered [$(echo $got)], expected [$(echo $want)]"
fi

got=$(complete_words enable --mode "")
got2=$(complete_words enable --mode=r)
# list's --ns-mode takes a namespace mode, not a protection mode.
got3=$(complete_words list --ns-mode "")
if [ "$(echo $got)" = "relaxed strict" ] && [ "$got2" = relaxed ] &&
   [ "$(echo $got3)" = "devdax fsdax raw sector system-ram" ]; then
	echo "PASS completion/option-values"
else
	echo "FAIL completion/option-values: --mode offers [$(echo $got)], --mode=r [$got2], list --ns-mode [$(echo $got3)]"
fi
