// SPDX-License-Identifier: GPL-2.0
/*
 * What to tell a user whose driver is not loaded. 'modprobe pks' works
 * only where the module is installed for the running kernel (make install
 * has DKMS do that), so look the module up the way modprobe does, with
 * libkmod, and name the step that is actually missing.
 */
#include <libkmod.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "builtin.h"

/* Whether modprobe would find @module for the running kernel. */
static bool module_installed(const char *module)
{
	struct kmod_ctx *kctx = kmod_new(NULL, NULL);
	struct kmod_list *list = NULL, *l;
	bool found = false;

	if (!kctx)
		return false;
	if (!kmod_module_new_from_lookup(kctx, module, &list)) {
		kmod_list_foreach(l, list) {
			struct kmod_module *mod = kmod_module_get_module(l);

			found |= kmod_module_get_path(mod) != NULL;
			kmod_module_unref(mod);
		}
		kmod_module_unref_list(list);
	}
	kmod_unref(kctx);
	return found;
}

const char *pkstool_module_hint(const char *module, char *buf, size_t len)
{
	struct utsname u;

	if (module_installed(module)) {
		snprintf(buf, len, "load it with 'modprobe %s'", module);
		return buf;
	}
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "this kernel");
	/*
	 * Both ways of installing it: the packages (pks-dkms builds it for
	 * each kernel whose headers are installed) and a source tree.
	 */
	snprintf(buf, len,
		 "the %s module is not installed for kernel %s: with the packages, 'apt install %s linux-headers-%s' builds it with DKMS ('dkms status' shows the build; see /usr/share/doc/pks-dkms/README.Debian); from a source tree, 'make install'",
		 module, u.release,
		 strcmp(module, "pks") ? "pks-test-dkms" : "pks-dkms",
		 u.release);
	return buf;
}
