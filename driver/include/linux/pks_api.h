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

#include <linux/preempt.h>
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
 * Runs in exception context with interrupts off, with the default PKRS
 * (the faulting context's rights are set aside: see pks_exception_access()
 * and pks_update_exception()); it must not sleep. Return true to grant
 * @key (read-write, or what pks_update_exception() set) and retry;
 * false lets the kernel handle the fault as usual (an oops). The grant is
 * the faulting context's alone, as any grant is: a task keeps it until it
 * is interrupted, leaves the CPU or returns to user space; a softirq or a
 * hard interrupt handler until it returns. An access after that faults
 * and is judged again. Where the context's end cannot be seen (interrupt
 * code outside a traced handler) the faulting instruction alone is
 * single-stepped with the key open. In NMI-level context (an NMI, and
 * the #DB, #BP and #MC handlers) nothing is granted and the callback is
 * not called: such a fault is refused.
 */
typedef bool (*pks_fault_cb_t)(int key, unsigned long address, bool write,
			       void *data);

int pks_key_alloc(const char *owner, pks_fault_cb_t fault_cb, void *data);
void pks_key_free(int key);
enum pks_access pks_exception_access(int key);
void pks_update_exception(int key, enum pks_access access);

void pks_set_access(int key, enum pks_access access);
unsigned int pks_window_open(int key, enum pks_access access);
void pks_window_close(int key, unsigned int prev);

/**
 * struct pks_task - a task's own window rights, kept across switches
 * @pn: preempt notifier, registered on the task while it holds windows
 * @pkrs: the PKRS value the task's windows give it
 * @depth: windows that hold @pn registered
 * @frees: the count of key frees @pkrs was last checked against
 * @modref: it holds a module reference (the owner's copy brackets' do
 *	not: the driver waits for them before it goes, and a reference
 *	held by a copy in flight would make rmmod fail under I/O)
 *
 * Private to the driver; a consumer only provides the storage, inside
 * struct pks_task_window.
 */
struct pks_task {
	struct preempt_notifier pn;
	u32 pkrs;
	unsigned int depth;
	u32 frees;
	bool modref;
};

/**
 * struct pks_task_window - a window held by the current task
 * @own: storage used when this is the task's outermost window
 * @task: the task state in use (@own or an outer window's)
 * @key: the key
 * @saved: the key's bits in the task's PKRS before the window
 * @frees: the count of key frees when it opened
 */
struct pks_task_window {
	struct pks_task own;
	struct pks_task *task;
	int key;
	u32 saved;
	u32 frees;
};

void pks_task_window_open(int key, enum pks_access access,
			  struct pks_task_window *w);
void pks_task_window_close(struct pks_task_window *w);

/**
 * struct pks_dax_window - an open window on protected pmem
 * @key: the range's key
 * @prev: the key's state before a non-preemptible window
 * @task: the task window, for pks_dax_access_begin_task()
 * @range: the range a task window holds, private to the driver
 */
struct pks_dax_window {
	int key;
	unsigned int prev;
	struct pks_task_window task;
	void *range;
};

void *pks_dax_access_begin(phys_addr_t start, size_t len,
			   enum pks_access access, struct pks_dax_window *window);
void *pks_dax_access_begin_task(phys_addr_t start, size_t len,
				enum pks_access access,
				struct pks_dax_window *window);
void pks_dax_access_end(struct pks_dax_window *window);

#endif /* _LINUX_PKS_API_H */
