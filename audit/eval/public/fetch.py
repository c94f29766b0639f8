#!/usr/bin/env python3
"""Regenerate the public claim-verification jsonl files in this directory.

Python 3.11, standard library only.  Nothing is downloaded: point the script at
copies of the original sources (see README.md for exact repositories, commits
and package versions):

  --fever    athnlp/athnlp-labs      (a bare git dir or a checkout)
  --vitaminc bigbench==1.0.0 sdist   (bigbench-1.0.0.tar.gz, an extracted sdist
                                      directory, or an installed `bigbench`
                                      package directory)
  --scifact  XiaZeng0223/active_pets (a bare git dir or a checkout)
  --fever-official PATH...            (optional, with --fever: official FEVER
                                      jsonl files, e.g. paper_dev.jsonl and
                                      paper_test.jsonl, used only to add the
                                      Wikipedia page titles of the evidence)

Example:
  python3 fetch.py \
      --fever    /work/.mirror/athnlp+athnlp-labs/repo \
      --vitaminc /tmp/bb/bigbench-1.0.0.tar.gz \
      --scifact  /work/.mirror/XiaZeng0223+active_pets/repo \
      --fever-official /tmp/fever/paper_dev.jsonl /tmp/fever/paper_test.jsonl

Any source left out is skipped.  Output goes next to this file unless --out is
given.  The conversion only selects rows, renames fields and maps labels; claim
and evidence text is copied byte-for-byte from the source.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import subprocess
import sys
import tarfile

FEVER_COMMIT = "136f2d3dce4b9159cf35c9dc2bfd7b7670ce6f5d"
SCIFACT_COMMIT = "67d304a6072d111d1d3d4044d92f7a54c201e927"
VITAMINC_TASK = "bigbench/benchmark_tasks/vitaminc_fact_verification/task.json"

FEVER_PER_LABEL_PER_SPLIT = 500
VITAMINC_PER_LABEL = 600


# --------------------------------------------------------------------------
# source access
# --------------------------------------------------------------------------

def read_repo_file(repo: str, path: str, commit: str) -> str:
    """Read `path` from a checkout, or from `commit` of a bare git dir."""
    worktree_path = os.path.join(repo, path)
    if os.path.isfile(worktree_path):
        with open(worktree_path, encoding="utf-8") as fh:
            return fh.read()
    out = subprocess.run(
        ["git", "--git-dir", repo, "show", f"{commit}:{path}"],
        check=True, capture_output=True,
    )
    return out.stdout.decode("utf-8")


def read_jsonl(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def read_vitaminc_task(src: str) -> dict:
    if os.path.isfile(src) and tarfile.is_tarfile(src):
        with tarfile.open(src) as tf:
            for member in tf.getmembers():
                if member.name.endswith(VITAMINC_TASK):
                    fh = tf.extractfile(member)
                    assert fh is not None
                    return json.loads(fh.read().decode("utf-8"))
        raise SystemExit(f"{VITAMINC_TASK} not found in {src}")
    for cand in (os.path.join(src, VITAMINC_TASK),
                 os.path.join(src, VITAMINC_TASK.split("/", 1)[1])):
        if os.path.isfile(cand):
            with open(cand, encoding="utf-8") as fh:
                return json.load(fh)
    raise SystemExit(f"{VITAMINC_TASK} not found under {src}")


def write_jsonl(path: str, rows: list[dict]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def summary(name: str, rows: list[dict]) -> None:
    c = collections.Counter((r["split"], r["label"]) for r in rows)
    print(f"{name}: {len(rows)} rows", file=sys.stderr)
    for (split, label), n in sorted(c.items()):
        print(f"  {split:6s} {label:9s} {n}", file=sys.stderr)


# --------------------------------------------------------------------------
# FEVER (FEVER-lite, as vendored by athnlp/athnlp-labs)
# --------------------------------------------------------------------------

FEVER_LABELS = {"SUPPORTS": "supported", "REFUTES": "refuted",
                "NOT ENOUGH INFO": "nei"}


# FEVER-lite file -> official FEVER file it was made from (NOT ENOUGH INFO
# claims removed, order kept; checked for all rows used here).  Used only to
# choose between several official claims with the same text and label.
FEVER_OFFICIAL_FOR = {"validation": "paper_dev", "test": "paper_test"}
FEVER_TITLE_ESCAPES = (("_", " "), ("-LRB-", "("), ("-RRB-", ")"),
                       ("-LSB-", "["), ("-RSB-", "]"), ("-LCB-", "{"),
                       ("-RCB-", "}"), ("-COLON-", ":"))


def fever_readable_title(page: str) -> str:
    """`Soul_Food_-LRB-film-RRB-` -> `Soul Food (film)`."""
    for old, new in FEVER_TITLE_ESCAPES:
        page = page.replace(old, new)
    return page


def fever_evidence_pages(ex: dict) -> list[str]:
    """Distinct pages of an official claim's evidence, in evidence order
    (first evidence set first)."""
    pages: list[str] = []
    for evidence_set in ex["evidence"]:
        for _ann_id, _ev_id, page, _sent_id in evidence_set:
            if page is not None and page not in pages:
                pages.append(page)
    return pages


def norm_ws(text: str) -> str:
    return " ".join(text.split())


def load_fever_official(paths: list[str]) -> dict:
    """(claim text, label) -> [(file stem, rank among the file's
    SUPPORTS/REFUTES claims, claim)] over the official FEVER jsonl files."""
    index: dict = collections.defaultdict(list)
    for path in paths:
        stem = os.path.basename(path).split(".")[0]
        rank = 0
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                ex = json.loads(line)
                if ex["label"] == "NOT ENOUGH INFO":
                    continue
                index[(norm_ws(ex["claim"]), ex["label"])].append(
                    (stem, rank, ex))
                rank += 1
    return index


def add_fever_titles(rows: list[dict], paths: list[str]) -> None:
    """Set `title` (page of the first evidence sentence) and `titles` (all
    distinct evidence pages) from the official claim with the same text
    (whitespace normalised) and the same label.  Several such claims (the
    same claim text annotated more than once) are narrowed to the one at the
    row's position in the official file it came from; a row still ambiguous
    or without a match keeps title ""."""
    index = load_fever_official(paths)
    to_official = {v: k for k, v in FEVER_LABELS.items()}
    stats: collections.Counter = collections.Counter()
    for row in rows:
        fname = os.path.basename(row["source_file"]).split(".")[0]
        cands = index.get((norm_ws(row["claim"]), to_official[row["label"]]),
                          [])
        if len(cands) > 1:
            stats["several_official_claims"] += 1
            cands = [c for c in cands
                     if c[0] == FEVER_OFFICIAL_FOR.get(fname)
                     and c[1] == row["source_line"]]
        if len(cands) != 1:
            stats["no_title_ambiguous" if cands else "no_title_no_match"] += 1
            continue
        stem, _rank, ex = cands[0]
        pages = fever_evidence_pages(ex)
        if not pages:
            stats["no_title_no_pages"] += 1
            continue
        row["title"] = fever_readable_title(pages[0])
        row["titles"] = [fever_readable_title(p) for p in pages]
        row["fever_id"] = ex["id"]
        row["fever_official_file"] = stem
        stats["titled"] += 1
    for k, v in sorted(stats.items()):
        print(f"  fever {k}: {v}", file=sys.stderr)


def convert_fever(repo: str) -> list[dict]:
    rows: list[dict] = []
    # file name in the source -> split name used here
    for fname, split in (("validation", "dev"), ("test", "test")):
        src = read_jsonl(read_repo_file(repo, f"data/fever/{fname}.jsonl",
                                        FEVER_COMMIT))
        taken: collections.Counter = collections.Counter()
        for lineno, ex in enumerate(src):
            label = FEVER_LABELS[ex["label"]]
            evidence = [s for s in ex["evidence"] if s.strip()]
            if not evidence or taken[label] >= FEVER_PER_LABEL_PER_SPLIT:
                continue
            taken[label] += 1
            rows.append({
                "id": f"feverlite-{fname}-{lineno}",
                "dataset": "fever",
                "split": split,
                "claim": ex["claim"],
                "evidence": evidence,
                "label": label,
                "title": "",
                "titles": [],
                "fever_id": None,
                "fever_official_file": None,
                "source_file": f"data/fever/{fname}.jsonl",
                "source_line": lineno,
            })
    return rows


# --------------------------------------------------------------------------
# VitaminC (BIG-bench task vitaminc_fact_verification)
# --------------------------------------------------------------------------

VITAMINC_LABELS = {"True": "supported", "False": "refuted", "Neither": "nei"}


def convert_vitaminc(src: str) -> list[dict]:
    task = read_vitaminc_task(src)
    candidates = []
    for index, ex in enumerate(task["examples"]):
        # input is "<page>: <evidence>\nClaim: <claim>"
        head, claim = ex["input"].rsplit("\nClaim: ", 1)
        # Only keep rows whose "<page>: <evidence>" part has exactly one ": ",
        # so page title and evidence separate without guessing (page titles
        # and evidence sentences can themselves contain ": ").
        if head.count(": ") != 1:
            continue
        page, evidence = head.split(": ", 1)
        gold = [k for k, v in ex["target_scores"].items() if v == 1]
        if len(gold) != 1 or not evidence.strip():
            continue
        key = hashlib.sha256(ex["input"].encode("utf-8")).hexdigest()
        candidates.append((key, index, page, evidence, claim,
                           VITAMINC_LABELS[gold[0]]))
    candidates.sort()
    taken: collections.Counter = collections.Counter()
    rows = []
    for _key, index, page, evidence, claim, label in candidates:
        if taken[label] >= VITAMINC_PER_LABEL:
            continue
        taken[label] += 1
        rows.append({
            "id": f"bigbench-vitaminc-{index}",
            "dataset": "vitaminc",
            "split": "test",
            "claim": claim,
            "evidence": [evidence],
            "label": label,
            "title": page,
            "source_index": index,
        })
    rows.sort(key=lambda r: r["source_index"])
    return rows


# --------------------------------------------------------------------------
# SciFact (XiaZeng0223/active_pets data/scifact_oracle)
# --------------------------------------------------------------------------

SCIFACT_LABELS = {"SUPPORTS": "supported", "REFUTES": "refuted",
                  "NOT_ENOUGH_INFO": "nei"}
ORIG_LABELS = {"SUPPORT": "supported", "CONTRADICT": "refuted"}


def original_scifact_label(claim: dict) -> str:
    labels = {ORIG_LABELS[ev["label"]]
              for evs in claim["evidence"].values() for ev in evs}
    if not labels:
        return "nei"
    if len(labels) > 1:
        return "mixed"
    return labels.pop()


def convert_scifact(repo: str) -> list[dict]:
    # Original SciFact claim files, vendored in the same repository.
    original: dict[str, list[tuple[str, dict]]] = collections.defaultdict(list)
    for split in ("train", "dev"):
        for c in read_jsonl(read_repo_file(
                repo, f"data/scifact_oracle/original/claims_{split}.jsonl",
                SCIFACT_COMMIT)):
            original[c["claim"]].append((split, c))
    rows = []
    stats: collections.Counter = collections.Counter()
    per_claim: collections.Counter = collections.Counter()
    for pets_split in ("train", "dev", "test"):
        src = read_jsonl(read_repo_file(
            repo, f"data/scifact_oracle/{pets_split}.jsonl", SCIFACT_COMMIT))
        for ex in src:
            label = SCIFACT_LABELS[ex["label"]]
            if not ex["evidence"].strip():
                stats["dropped_empty_evidence"] += 1
                continue
            matches = original.get(ex["claim"], [])
            # keep only original claims whose label agrees with the row
            agreeing = [(s, c) for s, c in matches
                        if original_scifact_label(c) == label]
            if len(agreeing) != 1:
                stats[f"dropped_{len(agreeing)}_original_matches"] += 1
                continue
            orig_split, orig = agreeing[0]
            # a claim can have several rows (one per evidence set / abstract)
            k = per_claim[orig["id"]]
            per_claim[orig["id"]] += 1
            rows.append({
                "id": f"scifact-{orig['id']}-{k}",
                "dataset": "scifact",
                "split": orig_split,
                "claim": ex["claim"],
                "evidence": [ex["evidence"]],
                "label": label,
                "title": "",
                "scifact_claim_id": orig["id"],
                "cited_doc_ids": orig["cited_doc_ids"],
                "evidence_kind": ("gold_rationale" if label != "nei"
                                  else "abstract_sentences_without_rationale"),
                "source_file": f"data/scifact_oracle/{pets_split}.jsonl",
            })
    # drop exact duplicates (same claim, evidence and label)
    seen = set()
    unique = []
    for r in rows:
        key = (r["claim"], r["evidence"][0], r["label"])
        if key in seen:
            stats["dropped_exact_duplicates"] += 1
            continue
        seen.add(key)
        unique.append(r)
    rows = unique
    for k, v in sorted(stats.items()):
        print(f"  scifact {k}: {v}", file=sys.stderr)
    rows.sort(key=lambda r: (r["split"], r["scifact_claim_id"], r["id"]))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fever")
    ap.add_argument("--vitaminc")
    ap.add_argument("--scifact")
    ap.add_argument("--fever-official", nargs="+", metavar="PATH",
                    help="official FEVER jsonl files (paper_dev.jsonl, "
                         "paper_test.jsonl) for the evidence page titles")
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    if args.fever_official and not args.fever:
        ap.error("--fever-official needs --fever")

    def fever_job(repo: str) -> list[dict]:
        rows = convert_fever(repo)
        if args.fever_official:
            add_fever_titles(rows, args.fever_official)
        return rows

    jobs = (("fever", args.fever, fever_job),
            ("vitaminc", args.vitaminc, convert_vitaminc),
            ("scifact", args.scifact, convert_scifact))
    for name, src, fn in jobs:
        if not src:
            continue
        rows = fn(src)
        write_jsonl(os.path.join(args.out, f"{name}.jsonl"), rows)
        summary(name, rows)


if __name__ == "__main__":
    main()
