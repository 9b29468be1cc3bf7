# SPDX-License-Identifier: GPL-2.0
# bash completion on a machine with namespaces: the namespaces, their dax
# and pmem devices from sysfs for enable, test names then namespaces for
# test. (tests/install/completion.sh checks the options on the host.)
. /tests/lib.sh

[ -x /bin/bash ] || skip "no bash in the VM"
setup_namespaces
# comp WORD...: what completion offers for "pkstool WORD..."
comp() {
	bash -c '. /usr/share/bash-completion/bash_completion
		. /tests/pkstool.completion
		COMP_WORDS=(pkstool "$@"); COMP_CWORD=$#
		COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
		_pkstool; echo ${COMPREPLY[*]}' comp "$@"
}
expect_eq "enable d" "$(comp enable d)" dax0.0
# Block devices: the fsdax namespace's and the raw one's, as ndctl names them.
expect_eq "enable p" "$(comp enable p | tr ' ' '\n' | sort | tr '\n' ' ')" \
	"$(ndctl list -N | jq -r '.[] | select(.blockdev) | .blockdev' | sort | tr '\n' ' ')"
expect_eq "disable n" "$(comp disable n | tr ' ' '\n' | sort | tr '\n' ' ')" \
	"$(printf '%s\n' "$DAX_NS" "$FSDAX_NS" "$RAW_NS" | sort | tr '\n' ' ')"
expect_eq "test single-key d" "$(comp test single-key d)" dax0.0
expect_eq "test si" "$(comp test si)" single-key
rc=0
exit 0
