// SPDX-License-Identifier: GPL-2.0
/*
 * JSON objects for libpks objects. Field names and types are an output
 * contract: they do not change with the data or the flags.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "builtin.h"

struct json_object *util_hex_to_json(uint32_t value)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%08x", value);
	return json_object_new_string(buf);
}

struct json_object *util_count_to_json(bool shown, uint64_t value)
{
	return shown ? json_object_new_uint64(value) : NULL;
}

/*
 * The registers and counters are null unless the driver read them
 * (live: a caller with CAP_SYS_ADMIN); the zeros it returns otherwise
 * are no values. pkrs is null for an offline CPU as well.
 */
struct json_object *util_cpu_to_json(struct pks_cpu *cpu)
{
	struct json_object *jcpu = json_object_new_object();
	bool online = pks_cpu_is_online(cpu);
	bool live = pks_cpu_is_live(cpu);

	if (!jcpu)
		return NULL;
	json_object_object_add(jcpu, "cpu",
			       json_object_new_int(pks_cpu_get_id(cpu)));
	json_object_object_add(jcpu, "online", json_object_new_boolean(online));
	json_object_object_add(jcpu, "cr4_pks",
			       json_object_new_boolean(pks_cpu_get_cr4_pks(cpu)));
	json_object_object_add(jcpu, "live", json_object_new_boolean(live));
	json_object_object_add(jcpu, "pkrs", online && live ?
			       util_hex_to_json(pks_cpu_get_pkrs(cpu)) : NULL);
	json_object_object_add(jcpu, "pkrs_cached", live ?
			       util_hex_to_json(pks_cpu_get_pkrs_cached(cpu)) :
			       NULL);
	json_object_object_add(jcpu, "pkrs_writes", util_count_to_json(live,
			       pks_cpu_get_pkrs_writes(cpu)));
	json_object_object_add(jcpu, "pkrs_writes_skipped",
			       util_count_to_json(live,
						  pks_cpu_get_pkrs_skipped(cpu)));
	return jcpu;
}

struct json_object *util_key_to_json(struct pks_key *key)
{
	struct json_object *jkey = json_object_new_object();
	const char *state = pks_key_is_reserved(key) ? "reserved" :
			    pks_key_is_allocated(key) ? "allocated" : "free";

	if (!jkey)
		return NULL;
	json_object_object_add(jkey, "key",
			       json_object_new_int(pks_key_get_id(key)));
	json_object_object_add(jkey, "state", json_object_new_string(state));
	json_object_object_add(jkey, "owner", *pks_key_get_owner(key) ?
			       json_object_new_string(pks_key_get_owner(key)) :
			       NULL);
	return jkey;
}

struct json_object *util_rule_to_json(struct pks_rule *rule, bool counts)
{
	struct json_object *jrule = json_object_new_object();

	if (!jrule)
		return NULL;
	json_object_object_add(jrule, "name",
			       json_object_new_string(pks_rule_get_name(rule)));
	json_object_object_add(jrule, "task", util_count_to_json(counts,
			       pks_rule_get_task(rule)));
	json_object_object_add(jrule, "softirq", util_count_to_json(counts,
			       pks_rule_get_softirq(rule)));
	json_object_object_add(jrule, "hardirq", util_count_to_json(counts,
			       pks_rule_get_hardirq(rule)));
	json_object_object_add(jrule, "stepped", util_count_to_json(counts,
			       pks_rule_get_stepped(rule)));
	return jrule;
}

/*
 * A size for people, in the form ndctl list -u prints ("502.00 MiB
 * (526.39 MB)"): each half in its own largest unit; small sizes stay
 * numbers of bytes.
 */
size_t util_size_to_human(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGTPE";
	double bin = bytes, dec = bytes;
	int b = -1, d = -1;

	if (bytes < 5000)
		return snprintf(buf, len, "%llu", (unsigned long long)bytes);
	while (bin >= 1024 && b < 5) {
		bin /= 1024;
		b++;
	}
	while (dec >= 1000 && d < 5) {
		dec /= 1000;
		d++;
	}
	return snprintf(buf, len, "%.2f %ciB (%.2f %cB)", bin, units[b], dec,
			units[d]);
}

static int size_to_human(struct json_object *jobj, struct printbuf *pb,
			 int level, int flags)
{
	uint64_t bytes = json_object_get_uint64(jobj);
	char text[48], buf[52];

	(void)level;
	(void)flags;
	util_size_to_human(bytes, text, sizeof(text));
	/* Small sizes stay JSON numbers, as in ndctl. */
	snprintf(buf, sizeof(buf), bytes < 5000 ? "%s" : "\"%s\"", text);
	return printbuf_memappend(pb, buf, strlen(buf));
}

static struct json_object *size_to_json(uint64_t bytes, bool human)
{
	struct json_object *jsize = json_object_new_uint64(bytes);

	if (jsize && human)
		json_object_set_serializer(jsize, size_to_human, NULL, NULL);
	return jsize;
}

static struct json_object *addr_to_json(uint64_t addr)
{
	char buf[24];

	/* Not %#llx: that prints 0 without its 0x. */
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)addr);
	return json_object_new_string(buf);
}

struct json_object *util_ns_to_json(struct pks_ns *ns, bool human)
{
	struct json_object *jns = json_object_new_object();
	const char *chardev = pks_ns_get_chardev(ns);
	bool prot = pks_ns_is_protected(ns);

	if (!jns)
		return NULL;
	json_object_object_add(jns, "dev",
			       json_object_new_string(pks_ns_get_name(ns)));
	json_object_object_add(jns, "region",
			       json_object_new_string(pks_ns_get_region(ns)));
	json_object_object_add(jns, "mode",
			       json_object_new_string(pks_ns_get_mode(ns)));
	json_object_object_add(jns, "size",
			       size_to_json(pks_ns_get_size(ns), human));
	json_object_object_add(jns, "chardev", chardev ?
			       json_object_new_string(chardev) : NULL);
	json_object_object_add(jns, "blockdev", pks_ns_get_blockdev(ns) ?
			       json_object_new_string(pks_ns_get_blockdev(ns)) :
			       NULL);
	json_object_object_add(jns, "resource",
			       addr_to_json(pks_ns_get_resource(ns)));
	json_object_object_add(jns, "range_size",
			       size_to_json(pks_ns_get_range_size(ns), human));
	json_object_object_add(jns, "protected", json_object_new_boolean(prot));
	json_object_object_add(jns, "key", prot ?
			       json_object_new_int(pks_ns_get_key(ns)) : NULL);
	json_object_object_add(jns, "protection_mode", prot ?
			       json_object_new_string(pks_mode_name(
				       pks_ns_get_protection_mode(ns))) : NULL);
	json_object_object_add(jns, "faults", prot ?
			       json_object_new_uint64(pks_ns_get_faults(ns)) :
			       NULL);
	return jns;
}

void util_ns_backing_to_json(struct pks_ns *ns, struct json_object *jns)
{
	const char *provider = pks_ns_get_provider(ns);
	const char *cxl_region = pks_ns_get_cxl_region(ns), *memdev;
	struct json_object *memdevs = NULL;
	unsigned int i;

	json_object_object_add(jns, "provider", provider ?
			       json_object_new_string(provider) : NULL);
	json_object_object_add(jns, "cxl_region", cxl_region ?
			       json_object_new_string(cxl_region) : NULL);
	if (provider && !strcmp(provider, "CXL")) {
		memdevs = json_object_new_array();
		for (i = 0; (memdev = pks_ns_get_cxl_memdev(ns, i)); i++)
			json_object_array_add(memdevs,
					      json_object_new_string(memdev));
	}
	json_object_object_add(jns, "cxl_memdevs", memdevs);
}

/* A record's time as ISO 8601 UTC with microseconds, for JSON and text. */
void util_time_to_text(uint64_t ns, char *buf, size_t len)
{
	time_t secs = ns / 1000000000;
	struct tm tm;
	size_t n;

	gmtime_r(&secs, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%06lluZ",
		 (unsigned long long)(ns % 1000000000) / 1000);
}

static struct json_object *time_to_json(uint64_t ns)
{
	char buf[48];

	util_time_to_text(ns, buf, sizeof(buf));
	return json_object_new_string(buf);
}

/*
 * A fault record; with @rec NULL every key is there with null, for the
 * monitor's dropped events. The keys are the same either way.
 */
struct json_object *util_record_to_json(struct pks_record *rec)
{
	struct json_object *jf = json_object_new_object();
	struct json_object *jstack = NULL;
	const char *frame;
	unsigned int i;

	if (!jf)
		return NULL;
	if (rec) {
		jstack = json_object_new_array();
		for (i = 0; (frame = pks_record_get_stack(rec, i)); i++)
			json_object_array_add(jstack,
					      json_object_new_string(frame));
	}
#define REC(expr) (rec ? (expr) : NULL)
	json_object_object_add(jf, "seq",
			       REC(json_object_new_uint64(pks_record_get_seq(rec))));
	json_object_object_add(jf, "timestamp",
			       REC(time_to_json(pks_record_get_time_ns(rec))));
	json_object_object_add(jf, "access", REC(json_object_new_string(
			       pks_record_is_write(rec) ? "write" : "read")));
	json_object_object_add(jf, "outcome", REC(json_object_new_string(
			       pks_record_get_outcome(rec))));
	json_object_object_add(jf, "chardev",
			       rec && pks_record_in_namespace(rec) ?
			       json_object_new_string(pks_record_get_owner(rec)) :
			       NULL);
	json_object_object_add(jf, "key_owner", REC(json_object_new_string(
			       pks_record_get_owner(rec))));
	json_object_object_add(jf, "offset",
			       REC(addr_to_json(pks_record_get_offset(rec))));
	json_object_object_add(jf, "address",
			       REC(addr_to_json(pks_record_get_address(rec))));
	json_object_object_add(jf, "key",
			       REC(json_object_new_int(pks_record_get_key(rec))));
	json_object_object_add(jf, "cpu",
			       REC(json_object_new_int(pks_record_get_cpu(rec))));
	json_object_object_add(jf, "pid",
			       REC(json_object_new_int(pks_record_get_pid(rec))));
	json_object_object_add(jf, "comm", REC(json_object_new_string(
			       pks_record_get_comm(rec))));
	json_object_object_add(jf, "ip", REC(json_object_new_string(
			       pks_record_get_ip(rec))));
#undef REC
	json_object_object_add(jf, "stack", jstack);
	return jf;
}

/*
 * One monitor event: a record of the fault log (@rec: a fault, or a
 * protection starting or ending), or with @rec NULL the monitor's own
 * @event ("dropped", with the count of records the ring dropped, or
 * "capture-off"). All carry every key, null where it does not apply, so
 * a consumer reads one shape.
 */
struct json_object *util_record_event_to_json(struct pks_record *rec,
					      const char *event,
					      uint64_t dropped)
{
	static const char *const fault_only[] = {
		"access", "outcome", "offset", "address", "cpu", "ip", "stack",
	};
	struct json_object *jev = json_object_new_object();
	struct json_object *jf = util_record_to_json(rec);
	bool fault = rec && pks_record_is_fault(rec);
	size_t i;

	if (!jev || !jf) {
		json_object_put(jev);
		json_object_put(jf);
		return NULL;
	}
	/* A protection record has no access, so none of its fields. */
	for (i = 0; rec && !fault && 
		    i < sizeof(fault_only) / sizeof(fault_only[0]); i++)
		json_object_object_add(jf, fault_only[i], NULL);
	json_object_object_add(jev, "event", json_object_new_string(
			       rec ? pks_record_get_event(rec) : event));
	json_object_object_add(jev, "dropped", rec || strcmp(event, "dropped") ?
			       NULL : json_object_new_uint64(dropped));
	json_object_object_add(jev, "mode",
			       rec && !strcmp(pks_record_get_event(rec),
					      "protected") ?
			       json_object_new_string(pks_record_is_relaxed(rec) ?
						      "relaxed" : "strict") :
			       NULL);
	json_object_object_foreach(jf, key, val)
		json_object_object_add(jev, key, json_object_get(val));
	json_object_put(jf);
	return jev;
}
