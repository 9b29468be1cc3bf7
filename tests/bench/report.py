#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report.py OUT RUN...: turn make bench's per-boot outputs into one JSON
results file, a PNG plot per figure (gnuplot) and a Markdown table, and
put the table into docs/benchmarks.md between its bench markers.

Each RUN is KERNEL:VCPUS:FILE, FILE the bench case's output: one JSON
object per line, as the case printed them; lines not starting with "{"
are the case's log and are skipped. A "{" line that is not JSON, or a
record no table places (nor a summary whose ratio the table computes
itself), is an error naming the file and line: nothing is written and
report.py exits 1, rather than a figure missing from the table."""
import datetime
import json
import os
import re
import subprocess
import sys

BEGIN = "<!-- bench-table:begin -->"
END = "<!-- bench-table:end -->"


# Where each record came from (id -> "FILE:LINE: text"), and the records
# a table or the run's description used.
ORIGIN = {}
PLACED = set()
ERRORS = []


def place(*records):
    for r in records:
        PLACED.add(id(r))


def is_summary(r):
    """A case's summary of a figure (its ratios, its runs' list): the
    table computes these from the records it places."""
    return "protected" not in r and any(
        k.startswith("throughput_ratio_") for k in r)


def load(spec):
    kernel, vcpus, path = spec.split(":", 2)
    records = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line.startswith("{"):
                continue
            where = "%s:%d: %s" % (path, n, line)
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                ERRORS.append("%s\n  not JSON: %s" % (where, e))
                continue
            ORIGIN[id(r)] = where
            records.append(r)
            if r.get("figure") == "machine" or is_summary(r):
                place(r)
    machine = next((r for r in records if r.get("figure") == "machine"), {})
    return {"kernel": machine.get("kernel", kernel), "series": kernel,
            "vcpus": int(machine.get("vcpus", vcpus)),
            "cpu_model": machine.get("cpu_model", "unknown"),
            "records": [r for r in records if r.get("figure") != "machine"]}


def rows(runs):
    """(figure, case, kernel, vcpus, unprotected, protected, counts)."""
    out = []
    for run in runs:
        for r in run["records"]:
            if "window_ns_per_op" in r:
                place(r)
                out.append(("CPU window vs PTE+flush",
                            "%s x %d" % (human(r.get("access_bytes", 8)),
                                         r["iterations"]), run,
                            r["pte_flush_ns_per_op"], r["window_ns_per_op"],
                            "%.0f PKRS writes/op vs %.0f PTE writes + %.0f "
                            "TLB flushes/op" %
                            (r["window_pkrs_writes_per_op"],
                             r.get("pte_updates_per_op", 2),
                             r["tlb_flushes_per_op"]), "ns/op"))
        pairs = {}
        for r in run["records"]:
            if "protected" in r and "mb_per_s" in r:
                key = (r["figure"], r.get("pattern", ""))
                # The unprotected run priced as upstream's V10 on this
                # machine (two PKRS writes per copy) is a third side.
                side = "v10" if r.get("v10_price") else r["protected"]
                pairs.setdefault(key, {})[side] = r
        for (fig, pat), p in sorted(pairs.items()):
            if True not in p or False not in p:
                continue
            on = p[True]
            place(*p.values())
            calls = on.get("calls") or on.get("ops") or 1
            out.append((fig, pat or "%d MiB" % (on["bytes_per_call"] >> 20),
                        run, p[False]["mb_per_s"], on["mb_per_s"],
                        exact_counts(on, calls), "MB/s",
                        projection(on, calls)))
            if "v10" in p:
                out.append((fig + ", against V10's price", pat, run,
                            p["v10"]["mb_per_s"], on["mb_per_s"],
                            "baseline: unprotected with %d PKRS writes of "
                            "the register's own value around the owner's "
                            "copies (upstream's 2 per copy; each flushes "
                            "TCG's TLB)" % p["v10"]["v10_writes"], "MB/s"))
        unrelated = {}
        for r in run["records"]:
            if "protected" in r and "workload" in r:
                unrelated.setdefault(r["workload"], {})[r["protected"]] = r
        for work, p in sorted(unrelated.items()):
            if True not in p or False not in p:
                continue
            on = p[True]
            place(on, p[False])
            out.append(("unrelated work", "%s x %d" % (work, on["operations"]),
                        run, p[False]["ns_per_op"], on["ns_per_op"],
                        "%d fault-probe hits, %d grants, %d tasks granted, "
                        "%d module refs, %d boundary PKRS writes" %
                        (on["fault_probe_hits"],
                         sum(v for k, v in on.items()
                             if k.endswith("_grants")),
                         on["tasks_granted"], on["module_refs_added"],
                         on["boundary_writes"]), "ns/op"))
        users = {}
        for r in run["records"]:
            if "protected" in r and "write_mb_per_s" in r:
                users.setdefault(r["protected"], []).append(r)
        if True in users and False in users:
            on = users[True]
            place(*on, *users[False])
            for way in ("write", "read"):
                key = way + "_mb_per_s"
                out.append((on[0]["figure"], way, run,
                            sum(r[key] for r in users[False]) /
                            len(users[False]),
                            sum(r[key] for r in on) / len(on),
                            "%d PKRS writes, %d faults (mean of %d runs "
                            "each, ABBA)" %
                            (sum(r["pkrs_writes"] for r in on),
                             sum(r["fault_probe_hits"] for r in on),
                             len(on)), "MB/s"))
    return out


# What one event costs on a CPU with PKS, in microseconds (low, high):
# estimates, not measured (no PKS machine was at hand);
# docs/benchmarks.md, "Projected on PKS hardware", gives the source of
# each range.
EVENT_COST_US = {
    "pkrs_writes": (0.015, 0.05),      # WRMSR of PKRS, not serialising
    "fault_probe_hits": (0.5, 1.5),    # #PF entry, fault path, hook, iret
    "bracket_opens": (0.1, 0.5),       # ftrace entry + kretprobe return
    "frames_unwound": (0.02, 0.05),    # one ORC unwind step
    "symbol_lookups": (1.0, 3.0),      # sprint_symbol(): kallsyms + format
}
# The two alternatives per access, for the same column: upstream's V10
# (2 PKRS writes in its access points) and a PTE change with a TLB flush
# on every CPU (2 PTE writes, 2 shootdowns).
UPSTREAM_US = (2 * EVENT_COST_US["pkrs_writes"][0],
               2 * EVENT_COST_US["pkrs_writes"][1])
PTE_FLUSH_US = (4.0, 20.0)


def projection(r, calls):
    """Protection's added time per call on PKS hardware, from the events
    counted in record @r over @calls calls: "0.05-0.20 us/call"."""
    low = high = 0.0
    for event, (lo, hi) in EVENT_COST_US.items():
        n = r.get(event, 0)
        # The interrupt boundaries' writes are counted apart from the
        # CPUs' own, and are protection's cost too.
        if event == "pkrs_writes":
            n += r.get("boundary_writes", 0)
        low += n * lo
        high += n * hi
    return "%.2f-%.2f us/call (V10 %.2f-%.2f, PTE+flush %.0f-%.0f)" % (
        low / calls, high / calls, UPSTREAM_US[0], UPSTREAM_US[1],
        PTE_FLUSH_US[0], PTE_FLUSH_US[1])


def exact_counts(r, calls):
    """The events of @r over its @calls calls, as the integers counted."""
    return ("%d calls: %d PKRS writes (and %d at interrupt boundaries), %d "
            "protection-key faults, %d bracket openings, %d frames "
            "unwound, %d symbol lookups; %s" %
            (calls, r["pkrs_writes"], r.get("boundary_writes", 0),
             r["fault_probe_hits"], r.get("bracket_opens", 0),
             r.get("frames_unwound", 0), r.get("symbol_lookups", 0),
             grants(r, 1)))


def grants(r, calls):
    """The task grants per call by rule (pks-counters.h prints one
    "<rule>_grants" each; irq_grants is every other context), those that
    happened only: "1.0 held-page grants"."""
    by_rule = ["%g %s grants" %
               (v / calls, k[:-len("_grants")].replace("_", "-"))
               for k, v in sorted(r.items())
               if k.endswith("_grants") and k != "irq_grants" and v]
    if r.get("irq_grants"):
        by_rule.append("%g grants in interrupts" % (r["irq_grants"] / calls))
    return ", ".join(by_rule) or "no grants"


def human(n):
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d %s" % (n >> shift, unit)
    return "%d B" % n


def cost_rows(runs):
    """(namespace, run, bytes, entries, leaf, enable ms, disable ms): the
    enable and disable figure, min/median/max of each size's runs."""
    out = []
    for run in runs:
        sizes = {}
        for r in run["records"]:
            if r.get("figure") == "enable and disable cost":
                sizes.setdefault(r["namespace"], []).append(r)
        for ns, rs in sorted(sizes.items(), key=lambda i: i[1][0]["bytes"]):
            place(*rs)
            out.append((ns, run, rs[0]["bytes"], rs[0]["keyed_entries"],
                        rs[0]["leaf_bytes"],
                        spread([r["protect_ns"] / 1e6 for r in rs]),
                        spread([r["unprotect_ns"] / 1e6 for r in rs])))
    return out


def task_rows(runs):
    """(figure, case, run, ns/op, baseline ns/op or None, PKRS writes/op,
    counted): the task-window and context-switch figures, one row per
    measured variant; an op is a window, a context switch or a round of
    the interrupt figure (one irq_work, and what else came meanwhile)."""
    out = []
    for run in runs:
        for r in run["records"]:
            if r.get("figure") in ("task window", "context switch",
                                   "interrupt"):
                place(r)
            if r.get("figure") == "task window":
                n, us = r["iterations"], r["sleep_us"]
                sw, ssw = r["task_switches"], r["sleep_window_switches"]
                out += [
                    ("task window", "CPU window, no sleep", run,
                     r["guard_ns_per_op"], None,
                     r["guard_pkrs_writes"] / n,
                     "%d writes in %d windows (2 each)" %
                     (r["guard_pkrs_writes"], n)),
                    ("task window", "task window, no sleep", run,
                     r["task_ns_per_op"], r["guard_ns_per_op"],
                     r["task_pkrs_writes"] / n,
                     "%d writes = 2 x %d windows + 2 x %d switch-outs" %
                     (r["task_pkrs_writes"], n, sw)),
                    ("task window", "%d us sleep, no window" % us, run,
                     r["sleep_ns_per_op"], None,
                     r["sleep_pkrs_writes"] / n,
                     "%d writes (0)" % r["sleep_pkrs_writes"]),
                    ("task window", "task window around a %d us sleep" % us,
                     run, r["sleep_window_ns_per_op"], r["sleep_ns_per_op"],
                     r["sleep_window_pkrs_writes"] / n,
                     "%d writes = 2 x %d windows + 2 x %d switch-outs" %
                     (r["sleep_window_pkrs_writes"], n, ssw))]
            elif r.get("figure") == "context switch":
                p, g = r["plain"], r["granted"]
                out += [
                    ("context switch", "no rights held", run,
                     p["ns_per_switch"], None, p["pkrs_writes_per_switch"],
                     "%d writes, %d skipped in %d switches (0, 0)" %
                     (p["pkrs_writes"], p["pkrs_skips"], p["switches"])),
                    ("context switch", "one thread holds a task window", run,
                     g["ns_per_switch"], p["ns_per_switch"],
                     g["pkrs_writes_per_switch"],
                     "%d writes in %d switches = 2 x %d switch-outs of "
                     "the holder" % (g["pkrs_writes"], g["switches"],
                                     g["holder_switches"]))]
            elif r.get("figure") == "interrupt":
                p, h = r["plain"], r["held"]
                out += [
                    ("interrupt", "no rights held", run, p["ns_per_round"],
                     None, p["pkrs_writes_per_handler"],
                     "%d writes in %d handlers (0); %d saw a key open (0)" %
                     (p["pkrs_writes"], p["handlers"], p["leaked"])),
                    ("interrupt", "the task holds a task window", run,
                     h["ns_per_round"], p["ns_per_round"],
                     h["pkrs_writes_per_handler"],
                     "%d writes in %d handlers (2 each, 0 when nested), "
                     "%d irq_works; %d saw a key open (0)" %
                     (h["pkrs_writes"], h["handlers"], r["rounds"],
                      h["leaked"]))]
    return out


def plot_task(outdir, rows):
    """A bar chart per figure: ns per window or switch for each case, one
    bar per kernel and vCPU count."""
    made = []
    for fig in sorted({r[0] for r in rows}):
        sel = [r for r in rows if r[0] == fig]
        series = sorted({(r[2]["series"], r[2]["vcpus"]) for r in sel})
        cases = []
        for r in sel:
            if r[1] not in cases:
                cases.append(r[1])
        name = re.sub(r"[^a-z0-9]+", "-", fig.lower()).strip("-")
        data = os.path.join(outdir, name + ".dat")
        with open(data, "w") as f:
            for case in cases:
                vals = []
                for s in series:
                    v = [r[3] for r in sel if r[1] == case and
                         (r[2]["series"], r[2]["vcpus"]) == s]
                    vals.append("%f" % v[0] if v else "NaN")
                f.write('"%s" %s\n' % (case, " ".join(vals)))
        png = os.path.join(outdir, name + ".png")
        plots = ["'%s' using %d%s title '%s %dcpu'" %
                 (data if i == 0 else "", i + 2,
                  ":xtic(1)" if i == 0 else "", gnuplot_quoted(s[0]), s[1])
                 for i, s in enumerate(series)]
        script = "\n".join([
            "set terminal pngcairo size 1000,500" if has_cairo() else
            "set terminal png size 1000,500",
            "set output '%s'" % png,
            "set title '%s (TCG: times do not predict hardware)'" %
            gnuplot_quoted(fig),
            "set ylabel 'ns per %s'" % {"task window": "window",
                                        "interrupt": "round"}.get(
                                            fig, "switch"),
            "set style data histograms", "set style fill solid 0.8",
            "set xtics rotate by -15", "set rmargin 16",
            "set yrange [0:*]", "set key top left",
            "plot " + ", ".join(plots), ""])
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
        made.append(png)
    return made


def spread(samples):
    s = sorted(samples)
    return {"min": s[0], "median": s[len(s) // 2], "max": s[-1]}


def plot(outdir, table):
    figures = sorted({r[0] for r in table})
    made = []
    for fig in figures:
        sel = [r for r in table if r[0] == fig]
        name = re.sub(r"[^a-z0-9]+", "-", fig.lower()).strip("-")
        data = os.path.join(outdir, name + ".dat")
        with open(data, "w") as f:
            for r in sel:
                label = "%s %s %dcpu" % (r[1], r[2]["series"], r[2]["vcpus"])
                f.write('"%s" %f %f\n' % (label, r[3], r[4]))
        png = os.path.join(outdir, name + ".png")
        first = "PTE change + flush on every CPU" if sel[0][6] == "ns/op" \
            else "unprotected"
        second = "PKS CPU window" if sel[0][6] == "ns/op" else "protected"
        script = "\n".join([
            "set terminal pngcairo size 1000,500" if has_cairo() else
            "set terminal png size 1000,500",
            "set output '%s'" % png,
            "set title '%s (TCG: times do not predict hardware)'" %
            gnuplot_quoted(fig),
            "set ylabel '%s'" % gnuplot_quoted(sel[0][6]),
            "set style data histograms", "set style fill solid 0.8",
            "set xtics rotate by -30", "set key top left",
            "plot '%s' using 2:xtic(1) title '%s', '' using 3 title '%s'" %
            (data, gnuplot_quoted(first), gnuplot_quoted(second)), ""])
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
        made.append(png)
    return made


def plot_cost(outdir, cost):
    """Enable and disable time against namespace size, one line each per
    kernel and vCPU count, with the runs' min and max as error bars."""
    if not cost:
        return []
    png = os.path.join(outdir, "enable-and-disable-cost.png")
    plots, blocks = [], []
    for series in sorted({(c[1]["series"], c[1]["vcpus"]) for c in cost}):
        sel = [c for c in cost if (c[1]["series"], c[1]["vcpus"]) == series]
        for what, idx in (("enable", 5), ("disable", 6)):
            blocks.append("\n".join(
                "%f %f %f %f" % (c[2] / 2**20, c[idx]["median"],
                                 c[idx]["min"], c[idx]["max"])
                for c in sel) + "\ne")
            plots.append("'-' using 1:2:3:4 with yerrorlines title "
                         "'%s %s %dcpu'" % (what, series[0], series[1]))
    script = "\n".join([
        "set terminal pngcairo size 1000,500" if has_cairo() else
        "set terminal png size 1000,500",
        "set output '%s'" % png,
        "set title 'enable and disable cost against namespace size "
        "(TCG: times do not predict hardware)'",
        "set xlabel 'namespace MiB'", "set ylabel 'ms'", "set logscale x",
        "set key top left", "plot " + ", ".join(plots)] + blocks + [""])
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    return [png]


def gnuplot_quoted(text):
    """@text inside a single-quoted gnuplot string ("V10's price")."""
    return text.replace("'", "''")


def has_cairo():
    out = subprocess.run(["gnuplot", "-e", "set terminal"],
                         capture_output=True, text=True)
    return "pngcairo" in out.stdout + out.stderr


def markdown(runs, table, cost, task):
    when = datetime.date.today().isoformat()
    kernels = ", ".join(sorted({r["kernel"] for r in runs}))
    # run-vm.sh's TCG threading: "single" (one host thread runs the vCPUs
    # in turn) or "multi" (one each); it changes the times, not the counts.
    threads = os.environ.get("VM_TCG_THREAD", "single")
    lines = ["Measured %s by `make bench` on %s, CPU model `%s` under QEMU "
             "TCG (thread=%s). TCG timings do not predict hardware (every "
             "PKRS write flushes the emulated TLB); the counted events do." %
             (when, kernels, runs[0]["cpu_model"] if runs else "?", threads)]
    if table:
        lines += ["", "| figure | case | kernel | vCPUs | without PKS or "
                  "unprotected | with PKS protection | ratio | counted "
                  "(asserted) | projected on PKS hardware (estimate, not "
                  "measured) |", "|---|---|---|---|---|---|---|---|---|"]
    for row in table:
        fig, case, run, base, prot, counts, unit = row[:7]
        proj = row[7] if len(row) > 7 else "-"
        ratio = base / prot if unit == "ns/op" else prot / base
        lines.append("| %s | %s | %s | %d | %.0f %s | %.0f %s | %.2f | %s "
                     "| %s |" %
                     (fig, case, run["series"], run["vcpus"], base, unit,
                      prot, unit, ratio, counts, proj))
    if cost:
        lines += ["", "Enable and disable against namespace size (ms, "
                  "median of 3 with min-max):", "",
                  "| namespace | kernel | vCPUs | enable | disable | "
                  "direct-map entries keyed (asserted) |",
                  "|---|---|---|---|---|---|"]
        for ns, run, size, entries, leaf, on, off in cost:
            lines.append("| %s | %s | %d | %.1f (%.1f-%.1f) | %.1f "
                         "(%.1f-%.1f) | %d of %d KiB |" %
                         (ns, run["series"], run["vcpus"], on["median"],
                          on["min"], on["max"], off["median"], off["min"],
                          off["max"], entries, leaf >> 10))
    if task:
        lines += ["", "Task windows (per window), context switches (per "
                  "switch) and interrupts (per irq_work round; PKRS "
                  "writes per handler), on kernel threads bound to one "
                  "CPU:", "",
                  "| figure | case | kernel | vCPUs | time | over its "
                  "baseline | PKRS writes per op | counted (asserted) |",
                  "|---|---|---|---|---|---|---|---|"]
        for fig, case, run, ns, base, writes, counts in task:
            lines.append("| %s | %s | %s | %d | %.0f ns | %s | %.2f | %s |" %
                         (fig, case, run["series"], run["vcpus"], ns,
                          "" if base is None else "%+.0f ns" % (ns - base),
                          writes, counts))
    return "\n".join(lines) + "\n"


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    runs = [load(spec) for spec in sys.argv[2:]]
    table = rows(runs)
    cost = cost_rows(runs)
    task = task_rows(runs)
    ERRORS.extend("%s\n  placed in no table (an unknown figure, or a pair "
                  "without its other side)" % where
                  for i, where in ORIGIN.items() if i not in PLACED)
    if ERRORS:
        for e in ERRORS:
            print("report.py: " + e, file=sys.stderr)
        print("report.py: %d bad input line(s): nothing written" %
              len(ERRORS), file=sys.stderr)
        sys.exit(1)
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump({"date": datetime.datetime.now().isoformat(),
                   "runs": runs}, f, indent=1)
    pngs = plot(outdir, table) + plot_cost(outdir, cost) + \
        plot_task(outdir, task)
    md = markdown(runs, table, cost, task)
    with open(os.path.join(outdir, "results.md"), "w") as f:
        f.write(md)
    # BENCH_DOC: another document to put the table in (a check's copy).
    doc = os.environ.get("BENCH_DOC") or os.path.join(
        os.path.dirname(__file__), "..", "..", "docs", "benchmarks.md")
    text = open(doc).read()
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        with open(doc, "w") as f:
            f.write(head + BEGIN + "\n" + md + END + tail)
    else:
        print("bench: no bench-table markers in docs/benchmarks.md",
              file=sys.stderr)
    print("bench: %s, %d plots, table in %s/results.md and %s" %
          (os.path.join(outdir, "results.json"), len(pngs), outdir,
           os.path.relpath(doc)))


if __name__ == "__main__":
    main()
