// SPDX-License-Identifier: GPL-2.0
/*
 * Protection-key allocation. Key 0 tags all ordinary kernel memory and is
 * never handed out; keys 1..15 go to named consumers.
 */
#include "pks_internal.h"

#include <linux/module.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

/**
 * struct pks_key - one entry of the key table
 * @owner: consumer name, "" when free
 * @fault_cb: the consumer's fault callback, or NULL
 * @data: argument for @fault_cb
 */
struct pks_key {
	char owner[PKS_OWNER_LEN];
	pks_fault_cb_t fault_cb;
	void *data;
};

/*
 * All changes to the key table occur with this lock held. The fault path
 * reads the table without it (it may run in an NMI, or interrupt a holder
 * on its own CPU): an owner's name is copied racily, @fault_cb is
 * published after @data, and pks_key_free() waits for readers (they run
 * with preemption off) before the entry can be reused.
 */
static DEFINE_SPINLOCK(pks_keys_lock);
static struct pks_key pks_keys[PKS_NR_KEYS];

/**
 * pks_key_alloc() - allocate a protection key
 * @owner: consumer name, shown by `pkstool info`
 * @fault_cb: called on an unfixed kernel fault on the key, or NULL
 * @data: argument for @fault_cb
 *
 * The key starts access-disabled on every CPU.
 *
 * Return: the key (1..15), -EINVAL for an empty owner, -ENOSPC when every
 * key is in use.
 */
int pks_key_alloc(const char *owner, pks_fault_cb_t fault_cb, void *data)
{
	unsigned long flags;
	int key;

	if (!owner || !*owner)
		return -EINVAL;

	spin_lock_irqsave(&pks_keys_lock, flags);
	for (key = 1; key < PKS_NR_KEYS; key++) {
		struct pks_key *k = &pks_keys[key];

		if (k->owner[0])
			continue;
		strscpy(k->owner, owner, sizeof(k->owner));
		k->data = data;
		/* Pairs with the acquire in pks_key_fault_cb(). */
		smp_store_release(&k->fault_cb, fault_cb);
		spin_unlock_irqrestore(&pks_keys_lock, flags);
		pks_acct_add(PKS_ACCT_KEYS, 1);
		pr_debug("key %d allocated to %s\n", key, owner);
		return key;
	}
	spin_unlock_irqrestore(&pks_keys_lock, flags);
	pr_warn("no free protection key for %s: all %d are in use\n", owner,
		PKS_NR_KEYS - 1);
	return -ENOSPC;
}
EXPORT_SYMBOL_GPL(pks_key_alloc);

/*
 * Key frees, counted, and the count at each key's last free: a task's
 * window rights are kept in the task while it sleeps, out of reach of
 * the IPI below, so a task checks them against these when it next runs
 * (task.c), and a freed key's rights are not given back to it. Written
 * under pks_keys_lock; read locklessly (a 32-bit count, compared as a
 * distance so that it may wrap).
 */
static u32 pks_key_free_count;
static u32 pks_key_freed_at[PKS_NR_KEYS];

u32 pks_key_frees(void)
{
	return READ_ONCE(pks_key_free_count);
}

/* Whether @key was freed after the count was @frees. */
bool pks_key_freed_since(int key, u32 frees)
{
	return (s32)(READ_ONCE(pks_key_freed_at[key]) - frees) > 0;
}

/* @pkrs with every key freed after the count was @frees closed. */
u32 pks_close_freed_keys(u32 pkrs, u32 frees)
{
	int key;

	for (key = 1; key < PKS_NR_KEYS; key++)
		if (pks_key_freed_since(key, frees))
			pkrs = (pkrs & ~((PKS_PKRS_AD | PKS_PKRS_WD) <<
					  PKS_PKRS_SHIFT(key))) |
			       (PKS_PKRS_AD << PKS_PKRS_SHIFT(key));
	return pkrs;
}

/*
 * On each CPU, from an IPI: the IPI's own boundary ended every grant
 * there; no context level keeps rights to the key either.
 */
static void pks_key_reset_local(void *data)
{
	pks_level_drop_key((long)data);
	pks_set_key_bits((long)data, PKS_PKRS_AD);
}

/**
 * pks_key_free() - release a key from pks_key_alloc()
 * @key: the key
 *
 * The consumer must have removed the key from its mappings. Its fault
 * callback is detached first and callbacks already running are waited
 * for, so none runs after this returns; then grants left open on any CPU
 * or held by any task are closed, so the next owner starts
 * access-disabled. Process context: it may sleep.
 */
void pks_key_free(int key)
{
	unsigned long flags;
	bool held;

	if (WARN_ON(!pks_key_valid(key)))
		return;
	spin_lock_irqsave(&pks_keys_lock, flags);
	WARN_ON(!pks_keys[key].owner[0]);
	/*
	 * Only the callback is detached here: a fault that loaded it just
	 * before must still find its @data, which goes in the final clear.
	 */
	WRITE_ONCE(pks_keys[key].fault_cb, NULL);
	/* Before the IPI: a task it finds running checks at its next switch. */
	WRITE_ONCE(pks_key_freed_at[key], pks_key_free_count + 1);
	WRITE_ONCE(pks_key_free_count, pks_key_free_count + 1);
	spin_unlock_irqrestore(&pks_keys_lock, flags);
	/* The fault path calls callbacks with preemption off. */
	synchronize_rcu();

	on_each_cpu(pks_key_reset_local, (void *)(long)key, 1);

	spin_lock_irqsave(&pks_keys_lock, flags);
	held = pks_keys[key].owner[0];
	memset(&pks_keys[key], 0, sizeof(pks_keys[key]));
	spin_unlock_irqrestore(&pks_keys_lock, flags);
	/* A key freed twice (warned about above) was counted once. */
	if (held)
		pks_acct_add(PKS_ACCT_KEYS, -1);
}
EXPORT_SYMBOL_GPL(pks_key_free);

void pks_fill_key_info(struct pks_key_info *keys)
{
	unsigned long flags;
	int key;

	spin_lock_irqsave(&pks_keys_lock, flags);
	for (key = 0; key < PKS_NR_KEYS; key++) {
		memset(&keys[key], 0, sizeof(keys[key]));
		keys[key].key = key;
		if (key == 0) {
			keys[key].flags = PKS_KEY_F_RESERVED;
			strscpy(keys[key].owner, "kernel", PKS_OWNER_LEN);
		} else if (pks_keys[key].owner[0]) {
			keys[key].flags = PKS_KEY_F_ALLOCATED;
			memcpy(keys[key].owner, pks_keys[key].owner,
			       PKS_OWNER_LEN);
		}
	}
	spin_unlock_irqrestore(&pks_keys_lock, flags);
}

/* Called from the fault path, in any context; lockless. */
bool pks_key_fault_cb(int key, unsigned long address, bool write)
{
	pks_fault_cb_t cb;
	void *data;

	if (!pks_key_valid(key))
		return false;
	/* Pairs with the release in pks_key_alloc(): @data is set first. */
	cb = smp_load_acquire(&pks_keys[key].fault_cb);
	data = READ_ONCE(pks_keys[key].data);
	return cb && cb(key, address, write, data);
}

/* For the fault path, lockless: whether @key's owner gave a callback. */
bool pks_key_has_callback(int key)
{
	return pks_key_valid(key) && READ_ONCE(pks_keys[key].fault_cb);
}

/*
 * For the fault path, in any context, lockless: whether @key is
 * allocated, its owner's name and whether it has a fault callback.
 */
bool pks_key_owner(int key, char *owner, bool *has_cb)
{
	bool allocated;

	if (!pks_key_valid(key))
		return false;
	memcpy(owner, pks_keys[key].owner, PKS_OWNER_LEN);
	owner[PKS_OWNER_LEN - 1] = '\0';
	*has_cb = READ_ONCE(pks_keys[key].fault_cb);
	allocated = owner[0];
	return allocated;
}

/* Say which key is held, for tests that need the whole table. */
int pks_keys_busy(char *msg, size_t len)
{
	unsigned long flags;
	int key, rc = 0;

	spin_lock_irqsave(&pks_keys_lock, flags);
	for (key = 1; key < PKS_NR_KEYS; key++) {
		if (!pks_keys[key].owner[0])
			continue;
		snprintf(msg, len, "key %d is held by '%s'; release it first",
			 key, pks_keys[key].owner);
		rc = -EBUSY;
		break;
	}
	spin_unlock_irqrestore(&pks_keys_lock, flags);
	return rc;
}
EXPORT_SYMBOL_NS_GPL(pks_keys_busy, PKS_TEST_NS);
