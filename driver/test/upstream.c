// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream's PKS selftest interface: /sys/kernel/debug/x86/run_pks, as the
 * V10 series' test_pks program drives it. A write of one digit runs that
 * test in the writer's context; a read returns PASS or FAIL. State is kept
 * per open file, so a forked child shares its parent's session.
 *
 * Everything here goes through pks.ko's public API (keys, task windows,
 * fault callbacks) plus its test-only exports: the tests check what the
 * production module promises, with the same key for every session, as
 * upstream's fixed test key. The key is held only while a run_pks file
 * is open, so loading the test module leaves every key free for the
 * other tests.
 */
#include "test.h"

#include <linux/sched/task.h>

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/msr.h>

enum {
	RUN_CHECK_DEFAULTS = 0,
	RUN_SINGLE = 1,
	ARM_CTX_SWITCH = 2,
	CHECK_CTX_SWITCH = 3,
	RUN_EXCEPTION = 4,
	RUN_EXCEPTION_UPDATE = 5,
	RUN_ALL_KEYS = 6,
	RUN_CRASH_TEST = 9,
};

/**
 * struct pks_up_session - one open run_pks file
 * @pass: the last test's result
 * @armed: a task window from ARM_CTX_SWITCH is open
 * @owner: the task holding it, pinned so that its address cannot be
 *	reused by a new task while the window is open
 * @window: that window
 * @crash_armed: the crash test was requested once
 */
struct pks_up_session {
	bool pass;
	bool armed;
	struct task_struct *owner;
	struct pks_task_window window;
	bool crash_armed;
};

/**
 * struct pks_up_fault - what the exception tests' callback saw
 * @mode: the test running, or -1 (refuse the fault)
 * @calls: calls
 * @saved: the faulting context's access to the key
 * @current_bits: the key's bits in PKRS inside the callback
 * @saved_after: the faulting context's access after the callback changed
 *	its own PKRS
 */
struct pks_up_fault {
	int mode;
	int calls;
	enum pks_access saved;
	u32 current_bits;
	enum pks_access saved_after;
};

/* Serialises one test at a time, per write (never across writes). */
static DEFINE_MUTEX(pks_up_lock);
static struct pks_up_fault pks_up_fault = { .mode = -1 };
/* Guards the open files' count and the key, page and mapping they share. */
static DEFINE_MUTEX(pks_up_users_lock);
static unsigned int pks_up_users;
static int pks_up_key;
static struct page *pks_up_page;
static void *pks_up_addr;
static struct dentry *pks_up_file;

static bool pks_up_cb(int key, unsigned long address, bool write, void *data)
{
	struct pks_up_fault *f = data;

	if (f->mode < 0)
		return false;
	f->calls++;
	f->saved = pks_exception_access(key);
	f->current_bits = pks_msr_key_bits(key);
	if (f->mode == RUN_EXCEPTION) {
		/* The callback's own PKRS is not the faulting context's. */
		pks_set_access(key, PKS_READ_WRITE);
		f->saved_after = pks_exception_access(key);
		pks_set_access(key, PKS_NO_ACCESS);
	} else {
		pks_update_exception(key, PKS_READ_WRITE);
		f->saved_after = pks_exception_access(key);
	}
	return true;
}

/* A page mapped a second time, tagged with @key. */
static void *pks_up_map(struct page *page, int key)
{
	return vmap(&page, 1, VM_MAP, pks_pgprot(PAGE_KERNEL, key));
}

/* upstream's check: the PTE carries the key, then NoAccess and RW. */
static bool pks_up_check_key(void *addr, int key)
{
	struct pks_task_window w;
	unsigned int level;
	bool ok;
	pte_t *pte;
	u64 val;

	pte = lookup_address((unsigned long)addr, &level);
	if (!pte || ((pte_val(*pte) & PKS_PTE_KEY_MASK) >>
		     PKS_PTE_KEY_SHIFT) != key)
		return false;
	pks_task_window_open(key, PKS_NO_ACCESS, &w);
	ok = !pks_can_read(addr, &val) && !pks_can_write(addr, 1);
	pks_task_window_close(&w);
	pks_task_window_open(key, PKS_READ_WRITE, &w);
	ok = ok && pks_can_read(addr, &val) && pks_can_write(addr, 2);
	pks_task_window_close(&w);
	return ok && !pks_can_read(addr, &val);
}

static bool pks_up_check_defaults(void)
{
	struct pks_cpu_info info;
	unsigned int cpu;
	bool ok = true;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		pks_fill_cpu_info(cpu, &info);
		ok &= info.pkrs == PKS_DEFAULT_PKRS;
	}
	cpus_read_unlock();
	return ok;
}

/*
 * Upstream's exception cases: the task holds the key write-disabled
 * (RUN_EXCEPTION) or not at all (RUN_EXCEPTION_UPDATE) and writes; the
 * callback sees that saved access and the default PKRS of its own, and
 * grants; the retried write lands and a second does not fault.
 */
static bool pks_up_exception(int mode)
{
	struct pks_up_fault *f = &pks_up_fault;
	struct pks_task_window w;
	bool ok;

	memset(f, 0, sizeof(*f));
	if (mode == RUN_EXCEPTION)
		pks_task_window_open(pks_up_key, PKS_READ_ONLY, &w);
	WRITE_ONCE(f->mode, mode);
	preempt_disable();
	WRITE_ONCE(*(u64 *)pks_up_addr, 0xe4e4e4e4e4e4e4e4ULL);
	WRITE_ONCE(*(u64 *)pks_up_addr, 0x5e5e5e5e5e5e5e5eULL);
	ok = pks_msr_key_bits(pks_up_key) == 0;
	preempt_enable();
	WRITE_ONCE(f->mode, -1);
	if (mode == RUN_EXCEPTION)
		pks_task_window_close(&w);
	ok = ok && f->calls == 1 &&
	     f->saved == (mode == RUN_EXCEPTION ? PKS_READ_ONLY :
			  PKS_NO_ACCESS) &&
	     f->current_bits == PKS_PKRS_AD &&
	     f->saved_after == (mode == RUN_EXCEPTION ? PKS_READ_ONLY :
				PKS_READ_WRITE) &&
	     *(u64 *)page_address(pks_up_page) == 0x5e5e5e5e5e5e5e5eULL;
	pr_info("run_pks %d: %u callbacks, saved access %d then %d, callback PKRS bits %#x: %s\n",
		mode, f->calls, f->saved, f->saved_after, f->current_bits,
		ok ? "PASS" : "FAIL");
	return ok;
}

/* Every key that can be had, each checked as RUN_SINGLE checks one. */
static bool pks_up_all_keys(void)
{
	struct page *pages[PKS_NR_KEYS] = {};
	void *addrs[PKS_NR_KEYS] = {};
	int keys[PKS_NR_KEYS] = {}, i, n = 0;
	bool ok = pks_up_check_key(pks_up_addr, pks_up_key);

	while (n < PKS_NR_KEYS) {
		keys[n] = pks_key_alloc("test:run_pks", NULL, NULL);
		if (keys[n] < 0)
			break;
		pages[n] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		addrs[n] = pages[n] ? pks_up_map(pages[n], keys[n]) : NULL;
		ok = ok && addrs[n] && pks_up_check_key(addrs[n], keys[n]);
		n++;
	}
	for (i = 0; i < n; i++) {
		if (addrs[i])
			vunmap(addrs[i]);
		if (pages[i])
			__free_page(pages[i]);
		pks_key_free(keys[i]);
	}
	pr_info("run_pks 6: %d more keys checked: %s\n", n,
		ok ? "PASS" : "FAIL");
	return ok;
}

static int pks_up_run(struct pks_up_session *s, int test)
{
	if (test != RUN_CRASH_TEST)
		s->crash_armed = false;
	switch (test) {
	case RUN_CHECK_DEFAULTS:
		s->pass = pks_up_check_defaults();
		return 0;
	case RUN_SINGLE:
		s->pass = pks_up_check_key(pks_up_addr, pks_up_key);
		return 0;
	case ARM_CTX_SWITCH:
		if (s->armed && s->owner != current)
			return -EBUSY;
		if (s->armed) {
			pks_task_window_close(&s->window);
			put_task_struct(s->owner);
		}
		/* Open across syscalls: the task's own rights, until 3. */
		pks_task_window_open(pks_up_key, PKS_READ_WRITE, &s->window);
		s->armed = true;
		s->owner = get_task_struct(current);
		s->pass = true;
		return 0;
	case CHECK_CTX_SWITCH:
		if (!s->armed || s->owner != current)
			return -ENOENT;
		preempt_disable();
		s->pass = pks_msr_key_bits(pks_up_key) == 0;
		preempt_enable();
		pks_task_window_close(&s->window);
		put_task_struct(s->owner);
		s->owner = NULL;
		s->armed = false;
		return 0;
	case RUN_EXCEPTION:
	case RUN_EXCEPTION_UPDATE:
		s->pass = pks_up_exception(test);
		return 0;
	case RUN_ALL_KEYS:
		s->pass = pks_up_all_keys();
		return 0;
	case RUN_CRASH_TEST:
		if (!s->crash_armed) {
			s->crash_armed = true;
			s->pass = true;
			return 0;
		}
		pr_warn("run_pks 9: writing to key %d with no window; expect an oops\n",
			pks_up_key);
		s->crash_armed = false;
		mutex_unlock(&pks_up_lock);
		WRITE_ONCE(*(u64 *)pks_up_addr, 9);
		mutex_lock(&pks_up_lock);
		s->pass = false;
		return 0;
	default:
		return -ENOENT;
	}
}

/* The first open file takes the test key and maps its page. */
static int pks_up_get(void)
{
	int rc = 0;

	mutex_lock(&pks_up_users_lock);
	if (pks_up_users) {
		pks_up_users++;
		goto out;
	}
	pks_up_key = pks_key_alloc("test:run_pks", pks_up_cb, &pks_up_fault);
	if (pks_up_key < 0) {
		rc = pks_up_key;
		goto out;
	}
	pks_up_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	pks_up_addr = pks_up_page ? pks_up_map(pks_up_page, pks_up_key) : NULL;
	if (!pks_up_addr) {
		if (pks_up_page)
			__free_page(pks_up_page);
		pks_key_free(pks_up_key);
		rc = -ENOMEM;
		goto out;
	}
	pks_up_users = 1;
out:
	mutex_unlock(&pks_up_users_lock);
	return rc;
}

/* The last one gives them back. */
static void pks_up_put(void)
{
	mutex_lock(&pks_up_users_lock);
	if (!--pks_up_users) {
		vunmap(pks_up_addr);
		__free_page(pks_up_page);
		pks_key_free(pks_up_key);
	}
	mutex_unlock(&pks_up_users_lock);
}

static int pks_up_open(struct inode *inode, struct file *file)
{
	struct pks_up_session *s = kzalloc(sizeof(*s), GFP_KERNEL);
	int rc;

	if (!s)
		return -ENOMEM;
	rc = pks_up_get();
	if (rc) {
		kfree(s);
		return rc;
	}
	file->private_data = s;
	return 0;
}

static int pks_up_release(struct inode *inode, struct file *file)
{
	struct pks_up_session *s = file->private_data;

	/*
	 * A window is the task's own: only that task can close it. Another
	 * releaser (the fd outlived it) leaves the session to the window.
	 */
	if (s->armed && s->owner == current) {
		pks_task_window_close(&s->window);
		put_task_struct(s->owner);
	} else if (s->armed) {
		return 0;
	}
	kfree(s);
	pks_up_put();
	return 0;
}

static ssize_t pks_up_write_file(struct file *file, const char __user *buf,
				 size_t count, loff_t *ppos)
{
	struct pks_up_session *s = file->private_data;
	char c;
	int rc;

	if (!count || get_user(c, buf))
		return -EFAULT;
	if (c < '0' || c > '9')
		return -ENOENT;
	mutex_lock(&pks_up_lock);
	rc = pks_up_run(s, c - '0');
	mutex_unlock(&pks_up_lock);
	/* The position stays put: the read that follows starts at 0. */
	return rc ? rc : count;
}

static ssize_t pks_up_read_file(struct file *file, char __user *buf,
				size_t count, loff_t *ppos)
{
	struct pks_up_session *s = file->private_data;
	const char *res = s->pass ? "PASS\n" : "FAIL\n";
	loff_t pos = 0;

	return simple_read_from_buffer(buf, count, &pos, res, strlen(res));
}

static const struct file_operations pks_up_fops = {
	.owner = THIS_MODULE,
	.open = pks_up_open,
	.release = pks_up_release,
	.read = pks_up_read_file,
	.write = pks_up_write_file,
	.llseek = noop_llseek,
};

void pks_upstream_init(void)
{
	pks_up_file = debugfs_create_file("run_pks", 0600, arch_debugfs_dir,
					  NULL, &pks_up_fops);
}

void pks_upstream_exit(void)
{
	debugfs_remove(pks_up_file);
}
