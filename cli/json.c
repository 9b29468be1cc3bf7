// SPDX-License-Identifier: GPL-2.0
/*
 * JSON objects for libpks objects. Field names and types are an output
 * contract: they do not change with the data or the flags.
 */
#include <stdio.h>

#include "builtin.h"

struct json_object *pks_hex_to_json(uint32_t value)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%#010x", value);
	return json_object_new_string(buf);
}

struct json_object *pks_cpu_to_json(struct pks_cpu *cpu)
{
	struct json_object *jcpu = json_object_new_object();
	bool online = pks_cpu_is_online(cpu);

	if (!jcpu)
		return NULL;
	json_object_object_add(jcpu, "cpu",
			       json_object_new_int(pks_cpu_get_id(cpu)));
	json_object_object_add(jcpu, "online", json_object_new_boolean(online));
	json_object_object_add(jcpu, "cr4_pks",
			       json_object_new_boolean(pks_cpu_get_cr4_pks(cpu)));
	json_object_object_add(jcpu, "pkrs", online ?
			       pks_hex_to_json(pks_cpu_get_pkrs(cpu)) : NULL);
	json_object_object_add(jcpu, "pkrs_cached",
			       pks_hex_to_json(pks_cpu_get_pkrs_cached(cpu)));
	json_object_object_add(jcpu, "pkrs_writes",
			       json_object_new_uint64(pks_cpu_get_pkrs_writes(cpu)));
	json_object_object_add(jcpu, "pkrs_writes_skipped",
			       json_object_new_uint64(pks_cpu_get_pkrs_skipped(cpu)));
	return jcpu;
}

struct json_object *pks_key_to_json(struct pks_key *key)
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
