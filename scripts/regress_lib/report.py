# SPDX-License-Identifier: GPL-2.0-or-later
"""Output of scripts/regress: one verdict line per entry, the summary line, JUnit XML and JSON.

  PASS|FAIL|TIMEOUT|ERROR <name> <kernel> <driver> <reason>   (scripts/lablib/result.py)
  SKIP <name> ...                        (a selftest that did not apply: neither passed nor failed)
  N passed, N failed[, N skipped]        (TIMEOUT and ERROR count as failed; CI tooling reads this line)

JUnit: one <testsuite> per invocation, one <testcase> per entry (classname
regress.<kernel>.<driver>), <failure> for FAIL (type regression) and TIMEOUT (type timeout),
<error> for ERROR, the run's log in
<system-out>. It validates against junit.xsd next to this file (xmllint --schema). Files are
written atomically (a temporary file renamed into place), and only after every entry ran."""
import json
import os
import re
import time
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCHEMA = HERE / "junit.xsd"
# characters XML 1.0 cannot carry (console logs have escape sequences)
_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def one_line(text: object) -> str:
    return " ".join(str(text).split())


def verdict_line(r: dict) -> str:
    return f"{r['status']} {r['name']} {r['kernel']} {r['driver']} {one_line(r['reason'])}"


def ok(r: dict) -> bool:
    """The entry did not fail: PASS, or SKIP (a selftest that does not apply)."""
    return r["status"] in ("PASS", "SKIP")


def summary_line(results: list) -> str:
    passed = sum(1 for r in results if r["status"] == "PASS")
    skipped = sum(1 for r in results if r["status"] == "SKIP")
    return (f"{passed} passed, {len(results) - passed - skipped} failed"
            + (f", {skipped} skipped" if skipped else ""))


def _clean(text):
    return _BAD_XML.sub("?", text or "")


def _atomic_write(path, data):
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_text(data)
    os.replace(tmp, path)


def junit(results: list, meta: dict) -> str:
    fails = sum(1 for r in results if r["status"] in ("FAIL", "TIMEOUT"))
    errs = sum(1 for r in results if r["status"] == "ERROR")
    total = sum(r["wall_s"] for r in results)
    suite = ET.Element("testsuite", {
        "name": f"regress.{meta['kernel']}.{meta['driver']}",
        "tests": str(len(results)), "failures": str(fails), "errors": str(errs),
        "skipped": str(sum(1 for r in results if r["status"] == "SKIP")),
        "time": f"{total:.1f}",
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(meta["started"])),
        "hostname": os.uname().nodename})
    props = ET.SubElement(suite, "properties")
    for k in ("kernel", "release", "driver", "driver_desc", "shard", "scenarios"):
        ET.SubElement(props, "property", {"name": k, "value": _clean(str(meta.get(k, "")))})
    for r in results:
        tc = ET.SubElement(suite, "testcase", {
            "classname": f"regress.{r['kernel']}.{r['driver']}", "name": r["name"],
            "time": f"{r['wall_s']:.1f}"})
        if r["status"] in ("FAIL", "TIMEOUT"):
            f = ET.SubElement(tc, "failure", {"message": _clean(one_line(r["reason"]))[:1000],
                                              "type": "regression" if r["status"] == "FAIL"
                                              else "timeout"})
            f.text = _clean(r["reason"])
        elif r["status"] == "SKIP":
            ET.SubElement(tc, "skipped", {"message": _clean(one_line(r["reason"]))[:1000]})
        elif r["status"] == "ERROR":
            e = ET.SubElement(tc, "error", {"message": _clean(one_line(r["reason"]))[:1000],
                                            "type": "harness"})
            e.text = _clean(r["reason"])
        out = ET.SubElement(tc, "system-out")
        out.text = _clean(f"{verdict_line(r)}\nlogs: {r['out_dir']}\n\n{r.get('log', '')}")
    ET.indent(suite)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"


def json_doc(results: list, meta: dict) -> str:
    doc = dict(meta)
    doc["summary"] = summary_line(results)
    doc["passed"] = sum(1 for r in results if r["status"] == "PASS")
    doc["skipped"] = sum(1 for r in results if r["status"] == "SKIP")
    doc["failed"] = len(results) - doc["passed"] - doc["skipped"]
    doc["results"] = [{k: v for k, v in r.items() if k != "log"} for r in results]
    doc["written"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return json.dumps(doc, indent=2) + "\n"


def write_outputs(results: list, meta: dict, junit_path: str | Path | None = None,
                  json_path: str | Path | None = None) -> None:
    if junit_path:
        _atomic_write(junit_path, junit(results, meta))
    if json_path:
        _atomic_write(json_path, json_doc(results, meta))
