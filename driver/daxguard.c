// SPDX-License-Identifier: GPL-2.0
/*
 * A guard for a stock-kernel crash that protecting a namespace can
 * trigger. device-dax's open stores the device's private pointer, which
 * is NULL once the device has started going away (an ndctl
 * disable-namespace or daxctl reconfigure-device at the same time), and
 * its mmap then dereferences it. pkstool enable opens and maps the device
 * to show this driver what it protects, so racing an enable against a
 * namespace teardown oopses the kernel inside device_dax, not here.
 *
 * While pks.ko is loaded, a kprobe on device-dax's mmap method refuses the
 * mmap of such a file with -ENXIO (what a mapping of a dead device gets
 * from device-dax itself once its private pointer is set) instead. The
 * method is dax_mmap(file, vma), or dax_mmap_prepare(desc) where the
 * kernel declares struct vm_area_desc (the file is desc->file): Kbuild
 * tells which from the headers (PKS_HAS_MMAP_PREPARE). The probe is placed
 * at load and again before each protection, as device_dax may load or
 * reload after pks.ko. A probe that cannot be placed is logged, shown by
 * pkstool info (PKS_INFO_F_DAX_GUARD_MISSING), and device-dax namespaces
 * are refused protection until it can: pkstool enable maps the device,
 * the very mmap the guard is for.
 *
 * This one stays a kprobe, unlike the fault hooks (oops.c): it guards a
 * stock-kernel bug that has nothing to do with the keyed direct map, and
 * an administrator who switches kprobes off (debugfs kprobes/enabled)
 * gets the stock kernel's behaviour back, no worse. It is re-placed when
 * device_dax comes back, which kprobes tell us (kprobe_gone()) and an
 * ftrace filter would not.
 *
 * The probe changes the execution path (it points the saved ip elsewhere),
 * so it has a post-handler, as the kprobes documentation asks of such
 * probes. For a probe at a function's entry, on ftrace, that is also what
 * makes kprobes place it through their ftrace_ops with FTRACE_OPS_FL_
 * IPMODIFY (arm_kprobe_ftrace(), the same on 6.1 and 6.12): ftrace then
 * refuses a second ip-modifying user of dax_mmap(), a livepatch say, with
 * EBUSY, where without it both were called and the later one's ip won,
 * silently. The other way round, the guard is refused (and says so) while
 * such a user holds dax_mmap(). Kprobes pick the ops when they arm the
 * first probe at an address: should a kprobe without a post-handler (a
 * kprobe event, say) already sit on dax_mmap(), the guard joins it on
 * the plain ops, and a later ip-modifying user is not refused.
 */
#include "pks_internal.h"

#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/ratelimit.h>

static int pks_dax_mmap_pre(struct kprobe *p, struct pt_regs *regs);
static void pks_dax_mmap_post(struct kprobe *p, struct pt_regs *regs,
			      unsigned long flags);
static bool pks_dax_guard_remove(void);

#ifdef PKS_HAS_MMAP_PREPARE
#define PKS_DAX_MMAP_SYM	"dax_mmap_prepare"
#else
#define PKS_DAX_MMAP_SYM	"dax_mmap"
#endif

static struct kprobe pks_dax_mmap_kp = {
	.symbol_name = PKS_DAX_MMAP_SYM,
	.pre_handler = pks_dax_mmap_pre,
	.post_handler = pks_dax_mmap_post,
};

static bool pks_dax_mmap_placed;
/* The last failure to place the probe (0: none), as logged. */
static int pks_dax_guard_err;

/* Returned in dax_mmap()'s place, to its caller. */
static noinline int pks_dax_mmap_refused(void)
{
	return -ENXIO;
}

#ifdef PKS_HAS_MMAP_PREPARE
/* static int dax_mmap_prepare(struct vm_area_desc *desc) */
static int pks_dax_mmap_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct file *filp = ((struct vm_area_desc *)regs->di)->file;
#else
/* static int dax_mmap(struct file *filp, struct vm_area_struct *vma) */
static int pks_dax_mmap_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct file *filp = (struct file *)regs->di;
#endif

	if (READ_ONCE(filp->private_data))
		return 0;
	pr_warn_ratelimited("%s[%d]: mmap of a device-dax file opened while its device was going away: refused (the stock kernel would oops)\n",
			    current->comm, task_pid_nr(current));
	instruction_pointer_set(regs, (unsigned long)pks_dax_mmap_refused);
	return 1;
}

/*
 * Empty on purpose: it is called only when the pre-handler left the path
 * alone (returned 0), and then there is nothing to do. It is here so that
 * kprobes mark the probe as modifying ip (see the top of this file).
 */
static void pks_dax_mmap_post(struct kprobe *p, struct pt_regs *regs,
			      unsigned long flags)
{
}

/*
 * Place the probe if device_dax is loaded and it is not placed yet, or
 * place it again after device_dax was unloaded (which leaves it gone).
 * Returns 0 when it is placed, else why not (-ENOENT: no such function,
 * device_dax not loaded or its mmap method renamed); a new failure is
 * logged once.
 */
int pks_dax_guard_arm(void)
{
	int rc;

	lockdep_assert_held(&pks_lock);
	if (pks_dax_mmap_placed && !kprobe_gone(&pks_dax_mmap_kp))
		return 0;
	/* Our text stays: no need to wait for tasks in it here. */
	pks_dax_guard_remove();
	/* register_kprobe() wants only the name, and clean flags. */
	pks_dax_mmap_kp.addr = NULL;
	pks_dax_mmap_kp.flags = 0;
	rc = register_kprobe(&pks_dax_mmap_kp);
	if (rc) {
		if (rc != pks_dax_guard_err)
			pr_warn("dax guard: cannot probe %s (%d%s): device-dax namespaces cannot be protected (an mmap racing a namespace teardown would oops the stock kernel)\n",
				PKS_DAX_MMAP_SYM, rc, rc == -EBUSY ?
				", another ftrace user modifies its ip" : "");
		pks_dax_guard_err = rc;
		return rc;
	}
	if (pks_dax_guard_err)
		pr_info("dax guard: %s probed\n", PKS_DAX_MMAP_SYM);
	pks_dax_guard_err = 0;
	pks_dax_mmap_placed = true;
	pks_acct_add(PKS_ACCT_PROBES, 1);
	return 0;
}

/* The guard's probe could not be placed when last tried. */
bool pks_dax_guard_missing(void)
{
	return READ_ONCE(pks_dax_guard_err) != 0;
}

const char *pks_dax_guard_symbol(void)
{
	return PKS_DAX_MMAP_SYM;
}

static bool pks_dax_guard_remove(void)
{
	if (!pks_dax_mmap_placed)
		return false;
	unregister_kprobe(&pks_dax_mmap_kp);
	pks_acct_add(PKS_ACCT_PROBES, -1);
	pks_dax_mmap_placed = false;
	return true;
}

/*
 * At unload. The probe sends tasks into pks_dax_mmap_refused(), in this
 * module's text and with preemption on: unregister_kprobe() waits for
 * handlers only, so wait for every such task to have left it too
 * (pks_hooks_gone()) before the text can go.
 */
void pks_dax_guard_exit(void)
{
	if (pks_dax_guard_remove())
		pks_hooks_gone();
}
