#!/usr/bin/env python3
"""Cross-check the requirement register in suites/register/*.toml (stdlib only).

Checks, for every register file:
  - ids are unique across the register and match the file's prefix and id shape;
  - `source` names the file's source; `locator` is present;
  - every quote is found verbatim in its source after whitespace normalisation
    (runs of whitespace collapsed to one space, both ends trimmed); clarification
    quotes must lie inside their own entry (CL-B07-* inside B07); entries follow
    source order;
  - every hash is "sha256:" + the first 16 hex digits of SHA-256 of the normalised quote;
  - strictness and testability values are valid; `reason` is present (one line) when
    testability is not "vector"; `profile` is present iff strictness is PROFILE;
  - `clarified_by` cites existing CL ids; every CLARIFICATIONS entry has an entry.

Prints counts per file x strictness and per file x testability; exits 1 on any problem.
Usage: python3 suites/register/tools/check.py
"""
import hashlib
import re
import sys
import tomllib
from collections import Counter
from pathlib import Path

REGISTER = Path(__file__).resolve().parent.parent
SPEC = REGISTER.parent / "spec"

# file -> (source, id prefix, id shape)
FILES = {
    "rcip-proto.toml": ("000_0e13f370fee243d1.txt", "RCIP-PROTO-", r"RCIP-PROTO-[A-Z]+-\d{2,}"),
    "rcip-life.toml": ("001_2b4ed8e7da12f44d.txt", "RCIP-LIFE-", r"RCIP-LIFE-[A-Z]+-\d{2,}"),
    "rui.toml": ("004_b82a472ccae36e7c.txt", "RUI-", r"RUI-[A-Z]+-\d{2,}"),
    "clarifications.toml": ("CLARIFICATIONS.md", "CL-", r"CL-[A-D]\d{2}-\d+"),
    "project.toml": ("project", "PRJ-", r"PRJ-[A-Z0-9]+(-[A-Z0-9]+)*"),
}
ID_SCHEMA = re.compile(r"^(RCIP-PROTO|RCIP-LIFE|RUI|CL|PRJ)-[A-Z0-9]+(-[A-Z0-9]+)*$")
STRICTNESS = ("REQUIRED", "RECOMMENDED", "IMPL-DEFINED", "PROFILE")
TESTABILITY = ("vector", "host-obligation", "untestable")
REQUIRED_KEYS = ("id", "source", "locator", "quote", "hash", "strictness", "testability")
OPTIONAL_KEYS = ("reason", "profile", "clarified_by", "codes")

problems = []


def problem(where, msg):
    problems.append(f"{where}: {msg}")


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def quote_hash(q):
    return "sha256:" + hashlib.sha256(norm(q).encode("utf-8")).hexdigest()[:16]


def clarification_blocks(text):
    """Entry id -> (start, end) offsets of the entry's text in the normalised file."""
    starts = []
    for m in re.finditer(r"^- ([A-D]\d{2}) ", text, re.M):
        starts.append((m.group(1), m.start()))
    ends = [m.start() for m in re.finditer(r"^## ", text, re.M)] + [len(text)]
    blocks = {}
    for i, (entry, start) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(text)
        end = min([end] + [e for e in ends if e > start])
        # offsets in the normalised text: normalise the prefix and the block.
        n_start = len(norm(text[:start])) + (1 if start else 0)
        n_block = norm(text[start:end])
        blocks[entry] = (n_start, n_start + len(n_block))
    return blocks


def load(path):
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        problem(path.name, f"cannot load: {e}")
        return None


def main():
    present = sorted(p.name for p in REGISTER.glob("*.toml"))
    for name in present:
        if name not in FILES:
            problem(name, "unknown register file (not in README's table)")

    cl_text = (SPEC / "CLARIFICATIONS.md").read_text(encoding="utf-8")
    cl_blocks = clarification_blocks(cl_text)

    entries_by_file = {}
    all_ids = {}
    for name, (source, prefix, shape) in FILES.items():
        path = REGISTER / name
        if not path.exists():
            problem(name, "missing")
            continue
        data = load(path)
        if data is None:
            continue
        extra = set(data) - {"requirement"}
        if extra:
            problem(name, f"unexpected top-level keys {sorted(extra)}")
        reqs = data.get("requirement", [])
        if not isinstance(reqs, list):
            problem(name, "`requirement` must be an array of tables")
            reqs = []
        entries_by_file[name] = reqs
        src_norm = None
        if source != "project":
            src_norm = norm((SPEC / source).read_text(encoding="utf-8"))
        cursor = 0
        for i, r in enumerate(reqs):
            rid = r.get("id") if isinstance(r, dict) else None
            where = f"{name}[{i}] {rid or '?'}"
            if not isinstance(r, dict):
                problem(where, "not a table")
                continue
            for k in REQUIRED_KEYS:
                if not isinstance(r.get(k), str) or not r.get(k).strip():
                    problem(where, f"`{k}` missing or not a non-empty string")
            for k in set(r) - set(REQUIRED_KEYS) - set(OPTIONAL_KEYS):
                problem(where, f"unknown key `{k}`")
            if not isinstance(rid, str):
                continue
            # id
            if not rid.startswith(prefix) or not re.fullmatch(shape, rid) or not ID_SCHEMA.match(rid):
                problem(where, f"id does not match {shape}")
            if rid in all_ids:
                problem(where, f"duplicate id (also in {all_ids[rid]})")
            all_ids[rid] = name
            # source
            if r.get("source") != source:
                problem(where, f"source must be {source!r}, got {r.get('source')!r}")
            quote = r.get("quote")
            if not isinstance(quote, str):
                continue
            q = norm(quote)
            # hash
            if r.get("hash") != quote_hash(quote):
                problem(where, f"hash {r.get('hash')!r} != {quote_hash(quote)!r}")
            # quote found, in order, inside its clarification entry
            if src_norm is not None:
                lo, hi = 0, len(src_norm)
                if name == "clarifications.toml":
                    m = re.fullmatch(r"CL-([A-D]\d{2})-\d+", rid)
                    if m and m.group(1) in cl_blocks:
                        lo, hi = cl_blocks[m.group(1)]
                    elif m:
                        problem(where, f"no clarification entry {m.group(1)} in CLARIFICATIONS.md")
                pos = src_norm.find(q, max(lo, cursor), hi)
                if pos < 0 or pos + len(q) > hi:
                    first = src_norm.find(q, lo, hi)
                    if first < 0 or first + len(q) > hi:
                        scope = "its entry" if name == "clarifications.toml" else source
                        problem(where, f"quote not found verbatim in {scope}: {q[:70]!r}")
                    else:
                        problem(where, "entry out of source order (quote occurs only before the previous entry's)")
                        cursor = max(cursor, first)
                else:
                    cursor = pos
            # levels
            st, te = r.get("strictness"), r.get("testability")
            if st not in STRICTNESS:
                problem(where, f"invalid strictness {st!r}")
            if te not in TESTABILITY:
                problem(where, f"invalid testability {te!r}")
            reason = r.get("reason")
            if te != "vector" or source == "project":
                if not isinstance(reason, str) or not reason.strip():
                    problem(where, "`reason` required (testability is not vector, or a project decision)")
            if reason is not None and (not isinstance(reason, str) or "\n" in reason):
                problem(where, "`reason` must be a one-line string")
            prof = r.get("profile")
            if st == "PROFILE" and (not isinstance(prof, str) or not prof.strip()):
                problem(where, "`profile` required when strictness is PROFILE")
            if st != "PROFILE" and prof is not None:
                problem(where, "`profile` only allowed when strictness is PROFILE")
            for k in ("clarified_by", "codes"):
                v = r.get(k)
                if v is not None and (not isinstance(v, list) or not all(isinstance(x, str) for x in v)):
                    problem(where, f"`{k}` must be an array of strings")

    # cross-file: clarified_by cites existing CL ids; every clarification entry is covered
    cl_ids = {i for i, f in all_ids.items() if f == "clarifications.toml"}
    for name, reqs in entries_by_file.items():
        for r in reqs:
            if not isinstance(r, dict):
                continue
            for c in r.get("clarified_by") or []:
                if isinstance(c, str) and c not in cl_ids:
                    problem(f"{name} {r.get('id')}", f"clarified_by cites unknown id {c}")
    covered = {re.sub(r"^CL-([A-D]\d{2})-\d+$", r"\1", i) for i in cl_ids}
    for entry in cl_blocks:
        if entry not in covered:
            problem("clarifications.toml", f"CLARIFICATIONS entry {entry} has no register entry")

    # report
    def table(field, values):
        width = max(len(n) for n in FILES) + 2
        head = "file".ljust(width) + "".join(v.rjust(16) for v in values) + "total".rjust(8)
        print(head)
        totals = Counter()
        for name in FILES:
            c = Counter(r.get(field) for r in entries_by_file.get(name, []) if isinstance(r, dict))
            totals.update(c)
            print(name.ljust(width) + "".join(str(c[v]).rjust(16) for v in values)
                  + str(sum(c.values())).rjust(8))
        print("total".ljust(width) + "".join(str(totals[v]).rjust(16) for v in values)
              + str(sum(totals.values())).rjust(8))
        print()

    table("strictness", STRICTNESS)
    table("testability", TESTABILITY)

    if problems:
        for p in problems:
            print("PROBLEM", p, file=sys.stderr)
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    print("register OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
