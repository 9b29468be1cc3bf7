// SPDX-License-Identifier: GPL-2.0
/*
 * pks_test: the test module. It holds what a production machine must not
 * load: upstream's selftest interface (run_pks), whose crash case oopses
 * on purpose. It uses only what pks.ko exports: the kernel API of
 * pks_api.h and the few test-only symbols in the PKS_TEST namespace.
 */
#include "pks_internal.h"
#include "test.h"

#include <linux/module.h>

static int __init pks_test_init(void)
{
	int rc = pks_upstream_init();

	if (rc)
		pr_err("cannot set up run_pks: %d\n", rc);
	return rc;
}

static void __exit pks_test_exit(void)
{
	pks_upstream_exit();
}

module_init(pks_test_init);
module_exit(pks_test_exit);

MODULE_DESCRIPTION("Tests for the pks driver, upstream's selftest interface included");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(PKS_TEST);
