#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check pkstool's JSON against the schemas in this folder (pkstool-json(7)).

  validate.py check SCHEMA FILE [--lines]
      FILE (- for stdin) against SCHEMA (a name: list, enable, ...);
      --lines: one JSON document per line (monitor, faults --follow)
  validate.py vm-out CASE.out...
      every block a VM case printed with emit_json (tests/vm/lib.sh):
      "@@@JSON SCHEMA array|lines", the JSON, "@@@JSON-END"
  validate.py host PKSTOOL
      the commands that run without a driver, run here, plus controls:
      documents that break the contract (a key missing, an extra key, a
      wrong type, an object where an array belongs) must be refused

Exit 0 when everything conforms, 1 otherwise.
"""
import json
import os
import subprocess
import sys

from jsonschema import Draft202012Validator

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    with open(os.path.join(HERE, name + ".json")) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def errors(name, text, lines=False):
    """The contract violations in TEXT, as strings; [] when it conforms."""
    validator = load(name)
    docs = []
    try:
        if lines:
            docs = [json.loads(l) for l in text.splitlines() if l.strip()]
            if not docs:
                return ["no JSON lines"]
        else:
            docs = [json.loads(text)]
    except json.JSONDecodeError as e:
        return ["not JSON: %s" % e]
    return ["%s: %s" % ("/".join(map(str, e.absolute_path)) or "(top)",
                        e.message)
            for d in docs for e in validator.iter_errors(d)]


def report(what, errs):
    for e in errs:
        print("  %s: %s" % (what, e))
    print("%s %s" % ("FAIL" if errs else "ok", what))
    return not errs


def cmd_check(args):
    name, path = args[0], args[1]
    text = sys.stdin.read() if path == "-" else open(path).read()
    return report("%s %s" % (name, path),
                  errors(name, text, "--lines" in args[2:]))


def cmd_vm_out(paths):
    ok, blocks = True, 0
    for path in paths:
        head, body = None, []
        for line in open(path, errors="replace"):
            line = line.rstrip("\n")
            if line.startswith("@@@JSON-END") and head:
                name, mode = head
                blocks += 1
                ok &= report("%s: %s (%s)" % (os.path.basename(path), name,
                                              mode),
                             errors(name, "\n".join(body), mode == "lines"))
                head = None
            elif line.startswith("@@@JSON "):
                parts = line.split()
                head, body = (parts[1], parts[2] if len(parts) > 2 else
                              "array"), []
            elif head:
                body.append(line)
    if not blocks:
        print("FAIL no @@@JSON blocks in %s" % " ".join(paths))
        return False
    return ok


def run(pkstool, *args):
    env = dict(os.environ, PKS_DEVICE="/nonexistent/pks",
               PKS_TEST_DEVICE="/nonexistent/pks-test")
    p = subprocess.run([pkstool] + list(args), capture_output=True,
                       text=True, env=env)
    return p.returncode, p.stdout


# A namespace object as pkstool list --json prints one, for the controls.
NAMESPACE = {
    "dev": "namespace0.0", "region": "region0", "mode": "devdax",
    "size": 526385152, "chardev": "dax0.0", "blockdev": None,
    "resource": "0x100a00000", "range_size": 526385152, "protected": True,
    "key": 1, "protection_mode": "strict", "faults": 0,
}


# pkstool info --json with the driver, as root sees it (live registers and
# grant counts) and as anyone else does (hidden: null), for the controls.
CPU = {"cpu": 0, "online": True, "cr4_pks": True, "live": True,
       "pkrs": "0x55555554", "pkrs_cached": "0x55555554", "pkrs_writes": 12,
       "pkrs_writes_skipped": 3}
CPU_HIDDEN = dict(CPU, live=False, pkrs=None, pkrs_cached=None,
                  pkrs_writes=None, pkrs_writes_skipped=None)
RULE = {"name": "held-page", "task": 4, "softirq": 0, "hardirq": 0,
        "stepped": 1}
RULE_HIDDEN = dict(RULE, task=None, softirq=None, hardirq=None, stepped=None)
GRANTS = {"armed": True, "counts": True, "tasks_granted": 0,
          "fault_probe_hits": 9, "refills": 2, "spurious": 0,
          "frames_unwound": 24, "symbol_lookups": 3,
          "boundary_writes": 40, "boundary_hooks": 4, "rules": [RULE]}
GRANTS_HIDDEN = dict(GRANTS, counts=False, tasks_granted=None,
                     fault_probe_hits=None, refills=None, spurious=None,
                     frames_unwound=None, symbol_lookups=None,
                     boundary_writes=None, rules=[RULE_HIDDEN])


def info_doc(cpu, grants):
    return [{
        "cpu_supports_pks": True,
        "driver": {"loaded": True, "device": "/dev/pks", "abi_version": 7,
                   "default_pkrs": "0x55555554", "fault_hook": True,
                   "fault_log": True, "stock_pk_warn": "silenced",
                   "fault_hooks_pinned": True,
                   "dax_guard_missing": False},
        "cpus": [cpu], "keys": [{"key": 0, "state": "reserved",
                                 "owner": "kernel"}],
        "grants": grants, "holders": [{"pid": 1, "comm": "pkstool"}],
        "accounting": {"sessions": 1, "ranges": 0, "keyed_entries": 0,
                       "keys": 0, "task_states": 0, "grant_states": 0,
                       "probes": 3},
    }]


def cmd_host(pkstool):
    ok = True
    for name, args in (("info", ["info", "-j"]), ("list", ["list", "-j"]),
                       ("version", ["version", "-j"]),
                       ("help", ["help", "-j"]),
                       ("test-list", ["test", "-L", "-j"]),
                       ("disable", ["disable", "--all", "-j"])):
        rc, out = run(pkstool, *args)
        errs = errors(name, out) + (["exit %d" % rc] if rc else [])
        ok &= report("pkstool " + " ".join(args), errs)

    # Controls: the schemas accept the contract and refuse what breaks it.
    good = [dict(NAMESPACE, provider="ACPI.NFIT", cxl_region=None,
                 cxl_memdevs=None, uuid=None, persistent=False,
                 persistent_mode=None)]
    on_cxl = [dict(good[0], provider="CXL", cxl_region="region0",
                   cxl_memdevs=["mem0", "mem1"])]
    enabled = [dict(NAMESPACE, result="enabled", reason=None)]
    ok &= report("control: a namespace conforms",
                 errors("list", json.dumps(good)))
    ok &= report("control: a namespace on CXL conforms",
                 errors("list", json.dumps(on_cxl)))
    ok &= report("control: an enable result conforms",
                 errors("enable", json.dumps(enabled)))
    ok &= report("control: info as root conforms",
                 errors("info", json.dumps(info_doc(CPU, GRANTS))))
    ok &= report("control: info with activity hidden conforms",
                 errors("info", json.dumps(info_doc(CPU_HIDDEN,
                                                    GRANTS_HIDDEN))))
    bad = {
        "list: a key missing": ("list", [{k: v for k, v in NAMESPACE.items()
                                          if k != "key"}]),
        "list: an extra key": ("list", [dict(NAMESPACE, verbose=True)]),
        "list: a wrong type": ("list", [dict(NAMESPACE, size="big")]),
        "list: a bare object": ("list", NAMESPACE),
        "list: memdevs on NFIT": ("list", [dict(good[0],
                                                cxl_memdevs=["mem0"])]),
        "list: a CXL region on NFIT": ("list", [dict(good[0],
                                                     cxl_region="region0")]),
        "list: CXL without its memdevs": ("list", [dict(on_cxl[0],
                                                        cxl_memdevs=None)]),
        "list: memdevs as one string": ("list", [dict(on_cxl[0],
                                                      cxl_memdevs="mem0")]),
        "enable: an unknown result word": (
            "enable", [dict(enabled[0], result="done")]),
        "disable: an enable word": (
            "disable", [dict(enabled[0], result="enabled")]),
        "version: a bare string": ("version", ["0.1"]),
        "info: stock_pk_warn as a boolean": (
            "info", [dict(info_doc(CPU, GRANTS)[0],
                          driver=dict(info_doc(CPU, GRANTS)[0]["driver"],
                                      stock_pk_warn=True))]),
        "info: zeros for a CPU not read": (
            "info", info_doc(dict(CPU_HIDDEN, pkrs_writes=0), GRANTS)),
        "info: no live key": (
            "info", info_doc({k: v for k, v in CPU.items() if k != "live"},
                             GRANTS)),
        "info: null counters for a CPU read": (
            "info", info_doc(dict(CPU, pkrs_writes=None), GRANTS)),
        "info: zeros for grant counts not shown": (
            "info", info_doc(CPU, dict(GRANTS_HIDDEN, refills=0))),
        "info: zeros for rule counts not shown": (
            "info", info_doc(CPU, dict(GRANTS_HIDDEN,
                                       rules=[dict(RULE_HIDDEN, task=0)]))),
        "info: null grant counts shown": (
            "info", info_doc(CPU, dict(GRANTS, spurious=None))),
    }
    for what, (name, doc) in bad.items():
        errs = errors(name, json.dumps(doc))
        ok &= report("control: refused: " + what,
                     [] if errs else ["accepted"])
    line = {"event": "dropped", "dropped": 3}
    errs = errors("monitor", json.dumps(line), lines=True)
    ok &= report("control: refused: monitor: a dropped event without the "
                 "fault keys", [] if errs else ["accepted"])
    # The VM path: a case output with one bad block must fail as a whole.
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".out") as f:
        f.write("@@@JSON list array\n%s\n@@@JSON-END\n"
                "@@@JSON version array\n[\"0.1\"]\n@@@JSON-END\n"
                % json.dumps(good))
        f.flush()
        refused = not cmd_vm_out([f.name])
    ok &= report("control: refused: a case output with a bad block",
                 [] if refused else ["accepted"])
    return ok


def main(argv):
    if len(argv) >= 3 and argv[0] == "check":
        return cmd_check(argv[1:])
    if len(argv) >= 2 and argv[0] == "vm-out":
        return cmd_vm_out(argv[1:])
    if len(argv) == 2 and argv[0] == "host":
        return cmd_host(argv[1])
    print(__doc__, file=sys.stderr)
    return False


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv[1:]) else 1)
