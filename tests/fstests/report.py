#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report.py OUT KNOWNDIR KERNEL=FILE...: judge make fstests' runs.

Each FILE is the fstests VM case's output (tests/vm/cases/fstests.sh)
for one KERNEL: "@@@FST FS MODE TEST STATUS SECONDS" per test, the
protected run's checks ("@@@FST-CHECK FS NAME ok"), its grants by rule
and the time of each run. Per kernel and file system, the unprotected and
the protected result sets must be equal; an unprotected failure must be
listed in KNOWNDIR/known-failures-KERNEL ("FS TEST REASON" lines) and a
protected run must have passed its checks. Writes OUT/summary.md and
OUT/summary.json, prints a PASS or FAIL line per kernel and file system,
and exits 1 on any FAIL.
"""
import json
import os
import sys

CHECKS = ("stray-refused", "kernel-log")


def parse(path):
    runs = {}
    if not os.path.exists(path):
        return runs
    for line in open(path, errors="replace"):
        w = line.split()
        if not w:
            continue
        if w[0] == "@@@FST" and len(w) >= 5:
            fs, mode, test, status = w[1:5]
            secs = w[5] if len(w) > 5 else ""
            r = runs.setdefault(fs, {"tests": {}, "checks": [], "grants": None,
                                     "seconds": {}})
            r["tests"].setdefault(test, {})[mode] = status
            r["tests"][test]["time_" + mode] = secs
        elif w[0] == "@@@FST-CHECK" and len(w) >= 4 and w[3] == "ok":
            runs.setdefault(w[1], {"tests": {}, "checks": [], "grants": None,
                                   "seconds": {}})["checks"].append(w[2])
        elif w[0] == "@@@FST-GRANTS" and len(w) >= 3:
            runs[w[1]]["grants"] = json.loads(" ".join(w[2:]))
        elif w[0] == "@@@FST-TIME" and len(w) >= 4:
            runs[w[1]]["seconds"][w[2]] = int(w[3])
    return runs


def known(kdir, kernel):
    path = os.path.join(kdir, "known-failures-" + kernel)
    k = {}
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            w = line.split(None, 2)
            if len(w) < 3:
                sys.exit(f"{path}: no reason given in '{line}'")
            k[(w[0], w[1])] = w[2]
    return k


def main():
    out, kdir, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
    ok = True
    summary = {"kernels": {}}
    md = ["# fstests on protected DAX", "",
          "Per kernel and file system: each test's result unprotected and "
          "with both namespaces protected (strict).", ""]
    for arg in runs:
        kernel, path = arg.split("=", 1)
        res = parse(path)
        kf = known(kdir, kernel)
        summary["kernels"][kernel] = {}
        if not res:
            print(f"FAIL fstests-{kernel}: no results in {path}")
            ok = False
            continue
        for fs, r in sorted(res.items()):
            name = f"fstests-{kernel}/{fs}"
            why = []
            rows = []
            for test, st in sorted(r["tests"].items()):
                u, p = st.get("unprotected", "missing"), st.get("protected", "missing")
                kreason = kf.get((fs, test))
                if u != p:
                    why.append(f"{test}: {u} unprotected, {p} protected")
                if u == "fail" and kreason is None:
                    why.append(f"{test} fails unprotected and is not in "
                               f"known-failures-{kernel}")
                rows.append({"test": test, "unprotected": u, "protected": p,
                             "seconds_unprotected": st.get("time_unprotected"),
                             "seconds_protected": st.get("time_protected"),
                             "known_failure": kreason})
            if not rows:
                why.append("no tests ran")
            for c in CHECKS:
                if c not in r["checks"]:
                    why.append(f"protected run check {c} did not pass")
            stale = [t for (f, t) in kf if f == fs and
                     r["tests"].get(t, {}).get("unprotected") not in ("fail",)]
            summary["kernels"][kernel][fs] = {
                "tests": rows, "equal": all(x["unprotected"] == x["protected"] for x in rows),
                "checks": r["checks"], "grants": r["grants"],
                "seconds": r["seconds"], "stale_known_failures": stale}
            counts = {}
            for x in rows:
                counts[x["unprotected"]] = counts.get(x["unprotected"], 0) + 1
            desc = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
            if why:
                ok = False
                print(f"FAIL {name}: " + "; ".join(why))
            else:
                print(f"PASS {name}: {len(rows)} tests ({desc}), the same "
                      f"protected; checks: {' '.join(r['checks'])}")
            for t in stale:
                print(f"note {name}: {t} is in known-failures-{kernel} "
                      "but did not fail")
            md += [f"## Debian {kernel}, {fs}", "",
                   "| test | unprotected | protected | seconds (u/p) | known failure |",
                   "|---|---|---|---|---|"]
            md += [f"| {x['test']} | {x['unprotected']} | {x['protected']} | "
                   f"{x['seconds_unprotected']}/{x['seconds_protected']} | "
                   f"{x['known_failure'] or ''} |" for x in rows]
            sec = r["seconds"]
            md += ["", f"Time: {sec.get('unprotected', '?')} s unprotected, "
                   f"{sec.get('protected', '?')} s protected. "
                   f"Protected-run checks passed: {', '.join(r['checks']) or 'none'}."]
            if r["grants"]:
                md += ["", "Grants by rule after the protected run "
                       "(task / softirq / hardirq / stepped):", ""]
                md += [f"- {g['name']}: {g.get('task')} / {g.get('softirq')} / "
                       f"{g.get('hardirq')} / {g.get('stepped')}" for g in r["grants"]]
            md.append("")
    summary["result"] = "pass" if ok else "fail"
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    sys.exit(0 if ok else 1)


main()
