#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Host check for the metrics VM case: parse the two metrics files the
case printed with prometheus_client's text parser (a file it cannot parse
fails) and check the values: unprotected with no faults before, and after
protection and the stray-write case, dax0.0 protected strict with faults
counted, per-CPU PKRS writes, the fault ring by outcome, a grant series
per rule and context, the grant and interrupt-boundary counters, and the
boundary hooks in place while a namespace is protected."""
import sys

from prometheus_client.parser import text_string_to_metric_families


def section(text, name):
    """The lines between '--- metrics NAME' and '--- end'."""
    lines = text.splitlines()
    start = lines.index("--- metrics " + name) + 1
    return "\n".join(lines[start:lines.index("--- end", start)]) + "\n"


def samples(text):
    """{(name, frozenset(labels)): value} over every family parsed."""
    out = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out[(s.name, frozenset(s.labels.items()))] = s.value
    return out


# The uapi header's PKS_GRANT_RULES, and the contexts each is counted in.
RULES = ("held-page", "dax-layer", "pmem-driver")
CONTEXTS = ("task", "softirq", "hardirq", "stepped")
GRANT_COUNTERS = ("pkstool_tasks_granted", "pkstool_fault_probe_hits_total",
                  "pkstool_grant_refills_total",
                  "pkstool_spurious_faults_total",
                  "pkstool_boundary_pkrs_writes_total",
                  "pkstool_boundary_hooks")


def get(m, name, **labels):
    return m.get((name, frozenset(labels.items())))


def main(path):
    text = open(path).read()
    before, after = samples(section(text, "before")), samples(section(text, "after"))
    ns = {"device": "dax0.0"}
    dax = [dict(k[1]) for k in after if k[0] == "pkstool_namespace_protected"
           and dict(k[1]).get("device") == "dax0.0"]
    if len(dax) != 1:
        return "no single dax0.0 namespace series: %r" % dax
    ns = dax[0]
    checks = [
        ("driver loaded", get(after, "pkstool_driver_loaded"), 1),
        ("PKS supported", get(after, "pkstool_cpu_pks_supported"), 1),
        ("fault capture", get(after, "pkstool_fault_capture_active"), 1),
        ("root sees the counters", get(after, "pkstool_activity_shown"), 1),
        ("before: unprotected", get(before, "pkstool_namespace_protected", **ns), 0),
        ("before: no faults", get(before, "pkstool_namespace_faults_total", **ns), 0),
        ("after: protected", get(after, "pkstool_namespace_protected", **ns), 1),
        ("after: strict", get(after, "pkstool_namespace_mode", mode="strict", **ns), 1),
        ("after: not relaxed", get(after, "pkstool_namespace_mode", mode="relaxed", **ns), 0),
        ("after: keys in use", get(after, "pkstool_keys_allocated"), 1),
    ]
    errors = ["%s: %r, expected %r" % (what, got, want)
              for what, got, want in checks if got != want]
    faults = get(after, "pkstool_namespace_faults_total", **ns)
    if not faults or faults < 1:
        errors.append("after: faults_total %r, expected at least 1" % faults)
    refused = get(after, "pkstool_namespace_faults_recorded", outcome="refused", **ns)
    if not refused or refused < 1:
        errors.append("after: refused records %r, expected at least 1" % refused)
    writes = [v for k, v in after.items() if k[0] == "pkstool_cpu_pkrs_writes_total"]
    if not writes or sum(writes) < 1:
        errors.append("no PKRS writes counted: %r" % writes)
    if get(after, "pkstool_faults_dropped_total") is None:
        errors.append("no faults_dropped_total")
    rules = sorted({dict(k[1]).get("rule") for k in after
                    if k[0] == "pkstool_grants_total"})
    if rules != sorted(RULES):
        errors.append("grant rules %r, expected %r" % (rules, sorted(RULES)))
    for rule in RULES:
        for context in CONTEXTS:
            if get(after, "pkstool_grants_total", rule=rule,
                   context=context) is None:
                errors.append("no grants_total for %s in %s" %
                              (rule, context))
    for name in GRANT_COUNTERS:
        if get(after, name) is None:
            errors.append("no %s" % name)
    hooks = get(after, "pkstool_boundary_hooks")
    if hooks is not None and hooks < 1:
        errors.append("after: no interrupt boundary hooks in place with "
                      "dax0.0 protected")
    return "; ".join(errors)


if __name__ == "__main__":
    err = main(sys.argv[1])
    if err:
        print(err)
        sys.exit(1)
