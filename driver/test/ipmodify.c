// SPDX-License-Identifier: GPL-2.0
/*
 * Another ip-modifying user of a function (PKS_TEST_IOC_IPMODIFY), as a
 * livepatch is: an ftrace_ops with FTRACE_OPS_FL_IPMODIFY on it alone.
 * ftrace allows one such user per function, so the registration fails
 * with -EBUSY where pks.ko redirects the function's ip through ftrace (its
 * fault hooks, and the dax guard's kprobe once it has a post-handler), and
 * succeeds where nothing does: the ip-modifying probe test's subject and
 * its control. The callback changes nothing, and the ops is removed again
 * before the call returns.
 */
#include "test.h"

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/slab.h>

static void notrace pks_ipmodify_func(unsigned long ip,
				      unsigned long parent_ip,
				      struct ftrace_ops *op,
				      struct ftrace_regs *fregs)
{
}

/*
 * The function's address, as pks.ko finds its own (kallsyms_lookup_name()
 * is not exported): a kprobe registered disabled is looked up, never
 * armed, so nothing is patched and no ftrace user is added.
 */
static unsigned long pks_ipmodify_addr(const char *name)
{
	struct kprobe kp = {
		.symbol_name = name,
		.flags = KPROBE_FLAG_DISABLED,
	};
	unsigned long addr;

	if (register_kprobe(&kp))
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

/**
 * pks_ipmodify_try() - the PKS_TEST_IOC_IPMODIFY attempt
 * @req: names the function
 *
 * Return: 0, or -errno as documented for PKS_TEST_IOC_IPMODIFY.
 */
int pks_ipmodify_try(struct pks_ipmodify *req)
{
	struct ftrace_ops *ops;
	unsigned long addr;
	int rc;

	addr = pks_ipmodify_addr(req->function);
	if (!addr)
		return -ENOENT;
	ops = kzalloc(sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	ops->func = pks_ipmodify_func;
	ops->flags = FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_SAVE_REGS;
	rc = ftrace_set_filter_ip(ops, addr, 0, 1);
	if (!rc) {
		rc = register_ftrace_function(ops);
		if (!rc)
			unregister_ftrace_function(ops);
	}
	ftrace_free_filter(ops);
	pr_info("ipmodify: an ip-modifying ftrace_ops on %s: %d\n",
		req->function, rc);
	kfree(ops);
	return rc;
}
