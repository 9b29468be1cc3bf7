// SPDX-License-Identifier: GPL-2.0
/*
 * CPU windows: change what a key allows on the current CPU. A CPU window
 * (pks_window_open()) opens a key and disables preemption, so that the
 * task cannot be switched out with the key open (the stock kernel does not
 * carry PKRS across a switch), and restores the key's previous state when
 * it closes. The rights belong to the context level that opened them
 * (boundary.c): an interrupt taken inside the window runs without them and
 * gives them back on its way out. The register itself is written by
 * enable.c. Rights that may sleep are task windows (task.c); dax access
 * windows (access.c) open one or the other on a protected range.
 */
#include "pks_internal.h"

#include <linux/mm.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>

/*
 * Set @key's bits for the context that runs, in its level's rights and
 * in the register; preemption disabled.
 */
static void pks_set_level_key(int key, u32 bits)
{
	unsigned long flags;

	local_irq_save(flags);
	pks_level_set_key(interrupt_context_level(), key, bits);
	pks_set_key_bits(key, bits);
	local_irq_restore(flags);
}

/**
 * pks_set_access() - set what @key allows on this CPU
 * @key: an allocated key
 * @access: the new access
 *
 * The caller must have preemption disabled and must restore the key
 * before enabling it; pks_window_open() does both.
 */
void pks_set_access(int key, enum pks_access access)
{
	if (WARN_ON_ONCE(!pks_key_valid(key) || access > PKS_READ_WRITE))
		return;
	WARN_ON_ONCE(preemptible());
	pks_set_level_key(key, pks_access_bits(access));
}
EXPORT_SYMBOL_GPL(pks_set_access);

/**
 * pks_window_open() - open a non-preemptible access window
 * @key: an allocated key
 * @access: what the window allows
 *
 * Windows nest: each close restores the state its open found.
 *
 * Return: the key's previous state, for pks_window_close().
 */
unsigned int pks_window_open(int key, enum pks_access access)
{
	unsigned int prev;

	preempt_disable();
	if (WARN_ON_ONCE(!pks_key_valid(key) || access > PKS_READ_WRITE))
		return PKS_PKRS_AD;
	prev = pks_key_bits(key, pks_level_pkrs(interrupt_context_level()));
	pks_set_level_key(key, pks_access_bits(access));
	return prev;
}
EXPORT_SYMBOL_GPL(pks_window_open);

/**
 * pks_window_close() - close a window from pks_window_open()
 * @key: the key given to pks_window_open()
 * @prev: what pks_window_open() returned
 */
void pks_window_close(int key, unsigned int prev)
{
	if (!WARN_ON_ONCE(!pks_key_valid(key)))
		pks_set_level_key(key, prev & (PKS_PKRS_AD | PKS_PKRS_WD));
	preempt_enable();
}
EXPORT_SYMBOL_GPL(pks_window_close);
