/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PKS_TEST_H
#define _PKS_TEST_H

/* test_upstream.c */
int pks_upstream_init(void);
void pks_upstream_exit(void);

#endif /* _PKS_TEST_H */
