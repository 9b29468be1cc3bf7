/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pks_api.h - the pkstool driver's kernel API for other modules.
 *
 * A consumer allocates a protection key, tags the kernel mappings it wants
 * protected with that key, and opens short access windows around its own
 * legitimate accesses. Keys other than 0 are access-disabled on every CPU
 * outside a window.
 */
#ifndef _LINUX_PKS_API_H
#define _LINUX_PKS_API_H

#include <linux/types.h>

/**
 * enum pks_access - what a key allows on the current CPU
 * @PKS_NO_ACCESS: reads and writes fault
 * @PKS_READ_ONLY: writes fault
 * @PKS_READ_WRITE: no restriction
 */
enum pks_access {
	PKS_NO_ACCESS,
	PKS_READ_ONLY,
	PKS_READ_WRITE,
};

/**
 * typedef pks_fault_cb_t - called on an unfixed kernel fault on a key
 * @key: the key of the faulting page
 * @address: the faulting address
 * @write: true for a write access
 * @data: the consumer's pointer given to pks_key_alloc()
 *
 * Runs in exception context with interrupts off: it must not sleep.
 * Return true to grant this CPU read-write access to @key and retry the
 * access (the grant stays until the consumer changes it); false lets the
 * kernel handle the fault as usual (an oops).
 */
typedef bool (*pks_fault_cb_t)(int key, unsigned long address, bool write,
			       void *data);

int pks_key_alloc(const char *owner, pks_fault_cb_t fault_cb, void *data);
void pks_key_free(int key);

void pks_set_access(int key, enum pks_access access);
unsigned int pks_window_open(int key, enum pks_access access);
void pks_window_close(int key, unsigned int prev);

/**
 * struct pks_dax_window - an open window on protected pmem
 * @key: the range's key
 * @prev: the key's state before the window
 */
struct pks_dax_window {
	int key;
	unsigned int prev;
};

void *pks_dax_access_begin(phys_addr_t start, size_t len,
			   enum pks_access access, struct pks_dax_window *window);
void pks_dax_access_end(struct pks_dax_window *window);

#endif /* _LINUX_PKS_API_H */
