// SPDX-License-Identifier: GPL-2.0
/*
 * enable --persist / --from-config and disable --persist without a driver:
 * which options combine, and that nothing is written to the record file
 * when the command cannot run. (Recording and applying need namespaces
 * and the driver: the persist VM case.)
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpks.h"
#include "run_cmd.h"

#define NO_DEVICE "/nonexistent/pks"
#define RUN(res, ...) \
	run_pkstool(res, NO_DEVICE, (const char *const[]){ __VA_ARGS__, NULL })

static struct cmd_result res;
static char dir[] = "/tmp/pkstool-persist-XXXXXX";
static char conf[sizeof(dir) + 32];

/* Each test gets a record file path of its own, which must stay absent. */
static void setup(void)
{
	cr_assert(mkdtemp(dir));
	snprintf(conf, sizeof(conf), "%s/etc/protect.conf", dir);
	setenv("PKSTOOL_CONFIG", conf, 1);
}

static void teardown(void)
{
	char etc[sizeof(dir) + 8];
	struct stat st;

	snprintf(etc, sizeof(etc), "%s/etc", dir);
	cr_expect(stat(etc, &st), "%s was created", etc);
	rmdir(dir);
}

TestSuite(persist, .init = setup, .fini = teardown);

Test(persist, from_config_rejects_all)
{
	RUN(&res, "enable", "--from-config", "--all");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "--from-config takes the modes from the records"),
		  "%s", res.err);
}

Test(persist, from_config_rejects_persist_and_mode)
{
	RUN(&res, "enable", "--from-config", "--persist");
	cr_expect_eq(res.status, 2);
	RUN(&res, "enable", "--from-config", "--mode=strict", "dax0.0");
	cr_expect_eq(res.status, 2);
}

Test(persist, disable_takes_persist_not_from_config)
{
	RUN(&res, "disable", "--from-config");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "unknown option, or option without its value: '--from-config'"),
		  "%s", res.err);
	RUN(&res, "disable", "--persist");
	cr_expect_eq(res.status, 2);
	cr_expect(strstr(res.err, "name a namespace to disable"), "%s", res.err);
}

/* The record file must not exist after @what, whatever it printed. */
static void expect_no_record(const char *what)
{
	struct stat st = { 0 };

	cr_expect(stat(conf, &st) && errno == ENOENT,
		  "%s wrote %s (%lld bytes)", what, conf,
		  (long long)st.st_size);
}

/*
 * No driver: enable exits 77 before any record is touched (not even its
 * directory is made); disable has nothing protected to end (exit 0) and
 * nothing to forget, so it writes no record, though it may make the
 * directory it locks. Each is checked as it returns, before the cleanup
 * removes anything, and the directory must be empty.
 */
Test(persist, no_driver_writes_nothing)
{
	char etc[sizeof(dir) + 8];
	struct stat st;

	snprintf(etc, sizeof(etc), "%s/etc", dir);
	RUN(&res, "enable", "--persist", "dax0.0");
	cr_expect_eq(res.status, 77, "%s", res.err);
	expect_no_record("enable --persist");
	cr_expect(stat(etc, &st), "enable --persist made %s", etc);
	RUN(&res, "disable", "--persist", "--all");
	cr_expect_eq(res.status, 0, "%s", res.err);
	expect_no_record("disable --persist --all");
	cr_expect(!rmdir(etc) || errno == ENOENT, "%s: %s", etc, strerror(errno));
	/* Only after a failure is there anything left to clean. */
	unlink(conf);
	rmdir(etc);
}

/* list works without the driver and keeps its shape. */
Test(persist, list_without_driver)
{
	RUN(&res, "list", "--json");
	cr_expect_eq(res.status, 0, "%s", res.err);
	cr_expect_eq(res.out[0], '[', "%s", res.out);
}

/*
 * disable --persist UUID forgets the record of a namespace that is gone
 * (no namespace has that UUID), keeps the others, and a UUID without a
 * record is still "no namespace" (exit 1), the file unchanged.
 */
Test(persist, disable_forgets_a_gone_namespace)
{
	static const char gone[] = "6f7e8a1c-0000-4000-8000-00000000dead";
	static const char kept[] = "6f7e8a1c-0000-4000-8000-00000000beef";
	char etc[sizeof(dir) + 8], text[1024];
	size_t n;
	FILE *f;

	snprintf(etc, sizeof(etc), "%s/etc", dir);
	cr_assert(!mkdir(etc, 0755));
	f = fopen(conf, "w");
	cr_assert(f);
	fprintf(f, "[protect %s]\nmode=strict\nname=dax9.0\n\n"
		   "[protect %s]\nmode=relaxed\nname=pmem9\n", gone, kept);
	fclose(f);

	RUN(&res, "disable", "--persist", "--json", gone);
	cr_expect_eq(res.status, 0, "%s", res.err);
	cr_expect(strstr(res.out, "\"forgotten\""), "%s", res.out);
	RUN(&res, "disable", "--persist", gone);
	cr_expect_eq(res.status, 1, "forgotten twice: %s", res.err);
	cr_expect(strstr(res.err, "no record with that UUID"), "%s", res.err);
	RUN(&res, "disable", gone);
	cr_expect_eq(res.status, 1, "without --persist: %s", res.err);

	f = fopen(conf, "r");
	cr_assert(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	cr_expect(!strstr(text, gone), "the record stayed: %s", text);
	cr_expect(strstr(text, kept), "the other record went: %s", text);
	unlink(conf);
	rmdir(etc);
}

/*
 * The boot's unit on a host with nothing recorded: no driver, no PKS, and
 * still no failure, with a line saying why nothing was done.
 */
Test(persist, from_config_nothing_recorded_needs_no_driver)
{
	RUN(&res, "enable", "--from-config");
	cr_expect_eq(res.status, 0, "exit %d: %s", res.status, res.err);
	cr_expect(strstr(res.err, "no records: nothing to protect"), "%s",
		  res.err);
	expect_no_record("enable --from-config");
}

/* With a record, the missing driver is an error (the unit fails). */
Test(persist, from_config_with_a_record_needs_the_driver)
{
	char etc[sizeof(dir) + 8];
	FILE *f;

	snprintf(etc, sizeof(etc), "%s/etc", dir);
	cr_assert_eq(mkdir(etc, 0755), 0);
	f = fopen(conf, "w");
	cr_assert(f);
	fputs("[protect 0b4c4d8e-1f2a-4b3c-9d5e-6f7a8b9c0d1e]\nmode=strict\n", f);
	fclose(f);
	RUN(&res, "enable", "--from-config");
	cr_expect_eq(res.status, 77, "exit %d: %s", res.status, res.err);
	cr_expect(strstr(res.err, "no records") == NULL, "%s", res.err);
	unlink(conf);
	rmdir(etc);
}
