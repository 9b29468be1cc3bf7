/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The architecture's PKS definitions, and helpers on them, shared by
 * pks.ko and pks_test.ko.
 */
#ifndef _PKS_ARCH_H
#define _PKS_ARCH_H

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/types.h>
#include <linux/pgtable.h>
#include <asm/msr.h>
#include <uapi/linux/pks.h>
#include <linux/pks_api.h>

/* Not defined by 6.1 headers; the values are architectural. */
#ifndef MSR_IA32_PKRS
#define MSR_IA32_PKRS		0x000006e1
#endif
#ifndef X86_CR4_PKS
#define X86_CR4_PKS		_BITUL(24)
#endif
#define PKS_CPUID_ECX_BIT	31	/* CPUID.(EAX=7,ECX=0):ECX */

/*
 * Kernel API differences between the supported kernels, each decided by
 * what the headers declare (Kbuild probes them), not by version number.
 */
/* The MSR accessors' names before rdmsrq()/wrmsrq(). */
#ifndef PKS_HAS_RDMSRQ
#define rdmsrq(msr, val)	rdmsrl(msr, val)
#define wrmsrq(msr, val)	wrmsrl(msr, val)
#endif
/* get_dev_pagemap() lost its second argument, a pagemap to reuse. */
#ifdef PKS_PAGEMAP_ONE_ARG
#define pks_get_dev_pagemap(pfn)	get_dev_pagemap(pfn)
#else
#define pks_get_dev_pagemap(pfn)	get_dev_pagemap(pfn, NULL)
#endif
#ifdef PKS_HAS_CPUID_API_H
#include <asm/cpuid/api.h>
#endif
/*
 * The namespace of pks.ko's exports for the test module: a bare word the
 * macros stringify, or (newer kernels) a string literal.
 */
#ifdef PKS_NS_STRINGIFIED
#define PKS_TEST_NS		PKS_TEST
#else
#define PKS_TEST_NS		"PKS_TEST"
#endif

/* Bits 59..62 of a leaf page-table entry hold its protection key. */
#define PKS_PTE_KEY_SHIFT	59
#define PKS_PTE_KEY_MASK	(0xfULL << PKS_PTE_KEY_SHIFT)

/* Key 0 read-write (untagged memory), every other key access-disabled. */
#define PKS_DEFAULT_PKRS	0x55555554u

/* Whether @key is one the driver hands out (1..15): key 0 never is. */
static inline bool pks_key_valid(int key)
{
	return key > 0 && key < PKS_NR_KEYS;
}

/* A key's two bits (PKS_PKRS_AD, PKS_PKRS_WD) in a PKRS value. */
static inline u32 pks_key_bits(int key, u32 pkrs)
{
	return (pkrs >> PKS_PKRS_SHIFT(key)) & (PKS_PKRS_AD | PKS_PKRS_WD);
}

/* The two bits that give @access; callers have checked it. */
static inline u32 pks_access_bits(enum pks_access access)
{
	switch (access) {
	case PKS_READ_WRITE:
		return 0;
	case PKS_READ_ONLY:
		return PKS_PKRS_WD;
	default:
		return PKS_PKRS_AD;
	}
}

/* A key's bits in this CPU's PKRS register, read from the register. */
static inline u32 pks_msr_key_bits(int key)
{
	u64 msr;

	rdmsrq(MSR_IA32_PKRS, msr);
	return pks_key_bits(key, msr);
}

static inline pgprot_t pks_pgprot(pgprot_t prot, int key)
{
	return __pgprot((pgprot_val(prot) & ~PKS_PTE_KEY_MASK) |
			((u64)key << PKS_PTE_KEY_SHIFT));
}

#endif /* _PKS_ARCH_H */
