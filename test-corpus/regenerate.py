#!/usr/bin/env python3
"""Re-records the project's own corpus (test-corpus/corpus/) with our own tools and writes each file's sidecar.

    test-corpus/regenerate.py            # from anywhere; needs Linux, gcc and the examples (./weft builds them)

Every recording is made by `weft run` (our live broker, plain and windowed) or `weft fuzz`; the negative cases are
edits of those recordings. The sidecar of LOG is LOG.expect.json: the results our tools gave when it was made
(`weft replay`, `weft replay --check fifo,dup`, `weft check chord|raft`), which the tests then pin. A recording
of a multi-process run differs from run to run in the order concurrent sends reached the broker (docs/examples.md),
so regenerating rewrites the logs and their sidecars together; review the diff of the verdicts before committing.
"""
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "test-corpus" / "corpus"
WEFT = str(REPO / "weft")
EXAMPLES = REPO / "shim-native" / "target" / "examples"
INLINE_LIMIT = 8192  # larger outputs are pinned by sha256, size and first line

CHORD_NET = "latency=uniform:1000-60000"
RAFT_NET = "latency=uniform:2000-10000"

# (log, environment, weft run arguments before "--", program and its arguments, description, gzip afterwards)
RECORDINGS = [
    ("pingpong/pp-loss0.1-s1.weftlog", {}, ["--seed", "1", "--net", "loss=0.1", "--nodes", "2"], ["pingpong"],
     "pingpong, 2 nodes, loss=0.1, seed 1", False),
    ("pingpong/pp-uniform1000-50000-s2.weftlog", {}, ["--seed", "2", "--net", "latency=uniform:1000-50000", "--nodes", "2"],
     ["pingpong"], "pingpong, 2 nodes, uniform latency, seed 2", False),
    ("pingpong/pp-window1000-s1.weftlog", {}, ["--seed", "1", "--net", "latency=uniform:1000-50000", "--nodes", "2",
                                               "--window", "1000"], ["pingpong"],
     "pingpong, 2 nodes, windowed (1 us): replays identical", False),
    ("pingpong/pp-reliable-s4.weftlog.gz", {}, ["--seed", "4", "--net", "", "--nodes", "2"], ["pingpong"],
     "pingpong, 2 nodes, reliable network, seed 4, gzip-compressed afterwards", True),
    ("kvreplica/kv-uniform1000-50000-s0.weftlog", {}, ["--seed", "0", "--net", "latency=uniform:1000-50000"], ["kvreplica"],
     "kvreplica (two threads, one process), seed 0: a stale read (fifo violations)", False),
    ("kvreplica/kv-reliable-s1.weftlog", {}, ["--seed", "1", "--net", ""], ["kvreplica"],
     "kvreplica on a FIFO network, seed 1: never stale", False),
    ("chord/chord-fix0-s3-violation.weftlog", {"CHORD_NNODES": "7", "CHORD_FIX": "0"},
     ["--seed", "3", "--net", CHORD_NET, "--nodes", "7"], ["chord_node", "6", "45", "3"],
     "chord_node 7 procs, CHORD_FIX=0, seed 3: weft check chord says VIOLATION", False),
    ("chord/chord-fix2-s3.weftlog", {"CHORD_NNODES": "7", "CHORD_FIX": "2"},
     ["--seed", "3", "--net", CHORD_NET, "--nodes", "7"], ["chord_node", "6", "45", "3"],
     "chord_node 7 procs, CHORD_FIX=2, seed 3: the fix holds (OK)", False),
    ("chord/chord-window1000-fix0-s0.weftlog.gz", {"CHORD_NNODES": "7", "CHORD_FIX": "0"},
     ["--seed", "0", "--net", CHORD_NET, "--nodes", "7", "--window", "1000"], ["chord_node", "6", "45", "3"],
     "chord_node 7 procs, CHORD_FIX=0, seed 0, windowed (1 us): replays identical; gzip-compressed afterwards", True),
    ("raft/raft-fix0-s32-violation.weftlog", {"RAFT_NNODES": "6", "RAFT_FIX": "0"},
     ["--seed", "32", "--net", RAFT_NET, "--nodes", "6"], ["raft_node", "40"],
     "raft_node 6 procs, RAFT_FIX=0, seed 32: two leaders in one term (VIOLATION)", False),
    ("raft/raft-fix1-s32.weftlog", {"RAFT_NNODES": "6", "RAFT_FIX": "1"},
     ["--seed", "32", "--net", RAFT_NET, "--nodes", "6"], ["raft_node", "40"],
     "raft_node 6 procs, RAFT_FIX=1, seed 32: ElectionSafety holds (OK)", False),
    ("raft/raft-window1000-fix1-s1.weftlog.gz", {"RAFT_NNODES": "6", "RAFT_FIX": "1"},
     ["--seed", "1", "--net", RAFT_NET, "--nodes", "6", "--window", "1000"], ["raft_node", "40"],
     "raft_node 6 procs, RAFT_FIX=1, seed 1, windowed (1 us): replays identical; gzip-compressed afterwards", True),
]

FUZZ_CONFIG = {
    "//": "The project's own fuzz case: latency variance and loss over 3 nodes; fifo violations are expected.",
    "net": "latency=uniform:0-8000,loss=0.02",
    "seed_start": 0,
    "seed_count": 20,
    "invariants": ["fifo", "dup"],
    "workload": {"nodes": 3, "sends": 30, "payload_len": 4},
    "out_dir": "weft-fuzz-out",
}


def run(args, env_extra=None, cwd=CORPUS, check=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    p = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, encoding="utf-8")
    if check is not None and p.returncode not in check:
        sys.exit(f"regenerate.py: {' '.join(args)} exited {p.returncode}:\n{p.stderr}")
    return p


def text(log):
    data = (CORPUS / log).read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def facts(log):
    data = (CORPUS / log).read_bytes()
    out = {"size_bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(), "gzip": log.endswith(".gz")}
    try:
        plain = text(log)
        out["uncompressed_bytes"] = len(plain)
        out["lines"] = plain.count(b"\n") + (0 if plain.endswith(b"\n") or not plain else 1)
        first = plain.split(b"\n", 1)[0]
        out["header"] = json.loads(first) if first.startswith(b"{") else None
    except Exception:  # a damaged gzip or header is the point of some negative cases
        out["header"] = None
    return out


def command(argv_shown, argv_run):
    """Runs a weft command from the corpus folder and returns its sidecar entry (argv as the tests replay it)."""
    p = run([WEFT] + argv_run)
    entry = {"argv": argv_shown, "exit_code": p.returncode}
    for name, value in (("stdout", p.stdout), ("stderr", p.stderr)):
        raw = value.encode("utf-8")
        if len(raw) <= INLINE_LIMIT:
            entry[name] = value
        else:
            entry[name] = None
            entry[name + "_sha256"] = hashlib.sha256(raw).hexdigest()
            entry[name + "_bytes"] = len(raw)
            entry[name + "_first_line"] = value.split("\n", 1)[0]
            entry[name + "_last_line"] = value.rstrip("\n").rsplit("\n", 1)[-1]
    return entry


def parse_replay(entry):
    out = entry["stdout"] if entry["stdout"] is not None else entry["stdout_first_line"] + "\n"
    first = out.split("\n", 1)[0]
    parsed = {"first_line": first, "identical": first.startswith("replay identical: ")}
    if parsed["identical"]:
        words = first.split()
        parsed["ops"] = int(words[2])
        parsed["digest"] = words[-1]
    last = out.rstrip("\n").rsplit("\n", 1)[-1] if entry["stdout"] is not None else entry["stdout_last_line"]
    parsed["violations"] = int(last.split()[0]) if last.endswith("invariant violation(s)") else 0
    return parsed


def sidecar(log, description, origin):
    side = {"log": log, "category": log.split("/", 1)[0], "description": description, "facts": facts(log)}
    side.update(origin)
    side["replay"] = command(["weft", "replay", log], ["replay", log])
    side["replay_check"] = command(["weft", "replay", log, "--check", "fifo,dup"], ["replay", log, "--check", "fifo,dup"])
    replay = parse_replay(side["replay"])
    check = parse_replay(side["replay_check"])
    expected = {"replay_exit": side["replay"]["exit_code"], "replay_identical": replay["identical"],
                "replay_check_exit": side["replay_check"]["exit_code"], "replay_check_violations": check["violations"]}
    if replay["identical"]:
        expected["ops"] = replay["ops"]
        expected["digest"] = replay["digest"]
    else:
        expected["error"] = side["replay"]["stderr"].split("\n", 1)[0]
    if side["category"] == "chord":
        c = command(["chord-check", log, "6"], ["check", "chord", log, "6"])
        c["verdict_line"] = next((l[len("verdict   : "):] for l in (c["stdout"] or "").split("\n")
                                  if l.startswith("verdict   : ")), None)
        side["chord_check"] = c
        side["chord_trace"] = command(["chord-trace", log, "6"], ["trace", "chord", log, "6"])
        expected["chord_check_exit"] = c["exit_code"]
        expected["chord_check_verdict"] = c["verdict_line"]
    if side["category"] == "raft":
        c = command(["raft-check", log], ["check", "raft", log])
        c["verdict_line"] = next((l[len("verdict   : "):] for l in (c["stdout"] or "").split("\n")
                                  if l.startswith("verdict   : ")), None)
        side["raft_check"] = c
        expected["raft_check_exit"] = c["exit_code"]
        expected["raft_check_verdict"] = c["verdict_line"]
    side["expected"] = expected
    (CORPUS / (log + ".expect.json")).write_text(json.dumps(side, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return side


def gzip_file(path):
    """gzip with no name and no time in the header, so the bytes depend on the content only."""
    data = path.read_bytes()
    with open(str(path) + ".gz", "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as gz:
        gz.write(data)
    path.unlink()


def record(log, env, run_args, program, description, compress):
    plain = log[:-3] if compress else log
    (CORPUS / plain).parent.mkdir(parents=True, exist_ok=True)
    argv = ["run"] + run_args + ["--record", plain, "--", str(EXAMPLES / program[0])] + program[1:]
    p = run([WEFT] + argv, env, check={0, 1, 2, 3})
    if not (CORPUS / plain).exists():
        sys.exit(f"regenerate.py: {log} was not recorded (exit {p.returncode}):\n{p.stderr}")
    if compress:
        gzip_file(CORPUS / plain)
    shown = " ".join(f"{k}={v}" for k, v in env.items())
    shown += (" " if shown else "") + "weft " + " ".join(a if a else '""' for a in argv[:-len(program)] + program)
    return {"produced_by": {"cmdline": shown.replace(str(EXAMPLES) + "/", ""), "exit_code": p.returncode}}


def derive(name, source, edit, transform, description):
    """A negative (or positive-control) case: an edit of one of our recordings."""
    out = CORPUS / "negative" / name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(transform(text(source) if not name.endswith(".gz") else (CORPUS / source).read_bytes()))
    sidecar("negative/" + name, description, {"derived_from": {"source": source, "edit": edit}})


def lines(data):
    return data.split(b"\n")


def negatives():
    src = "pingpong/pp-uniform1000-50000-s2.weftlog"
    big = "chord/chord-fix2-s3.weftlog"

    def cut_at_line(n):
        return lambda d: b"\n".join(lines(d)[:n]) + b"\n"

    def cut_mid_line(n):
        return lambda d: b"\n".join(lines(d)[:n]) + b"\n" + lines(d)[n][: len(lines(d)[n]) // 2]

    def edit_payload(n):
        def f(d):
            ls = lines(d)
            ls[n] = ls[n].replace(b'"conn":1', b'"conn":0', 1) if b'"conn":1' in ls[n] else ls[n].replace(b'"conn":0', b'"conn":1', 1)
            return b"\n".join(ls)
        return f

    def duplicate_line(n):
        def f(d):
            ls = lines(d)
            return b"\n".join(ls[: n + 1] + [ls[n]] + ls[n + 1:])
        return f

    def swap_lines(n):
        def f(d):
            ls = lines(d)
            ls[n], ls[n + 1] = ls[n + 1], ls[n]
            return b"\n".join(ls)
        return f

    def replace_line(n, new):
        def f(d):
            ls = lines(d)
            ls[n] = new
            return b"\n".join(ls)
        return f

    def insert_line(n, new):
        return lambda d: b"\n".join(lines(d)[:n] + [new] + lines(d)[n:])

    def header(old, new):
        return lambda d: d.replace(old, new, 1)

    def gz_truncated(fraction):
        return lambda d: d[: int(len(d) * fraction)]

    derive("neg-empty-file.weftlog", src, "empty file", lambda d: b"", "empty file")
    derive("neg-header-format-wrong.weftlog", src, "header format weft-log -> weft-logz",
           header(b'"format":"weft-log"', b'"format":"weft-logz"'), "not a weft-log (format)")
    derive("neg-header-version3.weftlog", src, "header version 2 -> 3", header(b'"version":2', b'"version":3'),
           "unsupported format version")
    derive("neg-malformed-line5.weftlog", src, "line 5 replaced by text that is not JSON",
           replace_line(4, b'{"op":3,"vt":0,"e":{"k":"hello"'), "a malformed record line")
    derive("pos-blank-interior-line.weftlog", src, "an empty line inserted after line 5", insert_line(5, b""),
           "positive control: an interior blank line is skipped (writers never emit one)")
    derive("neg-trunc-midline.weftlog", src, "cut in the middle of line 9", cut_mid_line(8),
           "truncated inside a record")
    derive("neg-trunc-lineboundary-10lines.weftlog", src, "cut after line 10", cut_at_line(10),
           "truncated at a line boundary: a verified prefix without its end record")
    derive("neg-chain-broken-op6.weftlog", src, "conn of op 6 changed, chain left as it was", edit_payload(7),
           "a record edited without fixing the chain")
    derive("neg-duplicate-record-line8.weftlog", src, "line 8 written twice", duplicate_line(7),
           "a duplicated record: op order broken")
    derive("neg-swapped-records-lines8-9.weftlog", src, "lines 8 and 9 swapped", swap_lines(7),
           "two records swapped: op order broken")
    derive("neg-header-seed-changed.weftlog", src, "header seed 2 -> 3 (the chain starts over the header)",
           header(b'"seed":2', b'"seed":3'), "the header edited: the chain breaks at op 0")
    derive("pos-no-trailing-newline.weftlog", src, "last newline removed", lambda d: d.rstrip(b"\n"),
           "positive control: the last line has no newline")
    derive("neg-gz-truncated-60pct.weftlog.gz", "chord/chord-window1000-fix0-s0.weftlog.gz",
           "compressed file cut at 60% of its bytes", gz_truncated(0.6), "a gzip recording cut short")


def fuzz():
    d = CORPUS / "fuzz"
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    (d / "demo.json").write_text(json.dumps(FUZZ_CONFIG, indent=2) + "\n", encoding="utf-8")
    argv = ["fuzz", "--config", "fuzz/demo.json", "--out", "fuzz/demo-out"]
    p = run([WEFT] + argv, check={0, 2})
    listing = sorted(x.name for x in (d / "demo-out").iterdir())
    (d / "demo.run.json").write_text(json.dumps({
        "argv": ["weft"] + argv, "exit_code": p.returncode, "stdout": p.stdout, "stderr": p.stderr,
        "out_dir_listing": listing}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for name in listing:
        if name.endswith(".weftlog"):
            sidecar("fuzz/demo-out/" + name, "a reproducer written by weft fuzz (fuzz/demo.run.json)",
                    {"produced_by": {"cmdline": "weft " + " ".join(argv), "exit_code": p.returncode}})


def main():
    run([WEFT, "--version"], cwd=REPO, check={0})
    if not (EXAMPLES / "pingpong").exists():
        run(["mvn", "-q", "-o", "-pl", "shim-native", "-am", "package", "-DskipTests"], cwd=REPO, check={0})
    for sub in ("pingpong", "kvreplica", "chord", "raft", "negative"):
        if (CORPUS / sub).exists():
            shutil.rmtree(CORPUS / sub)
    only = sys.argv[1:]
    for log, env, run_args, program, description, compress in RECORDINGS:
        if only and not any(o in log for o in only):
            continue
        origin = record(log, env, run_args, program, description, compress)
        side = sidecar(log, description, origin)
        print(f"{log}: {side['expected']}", flush=True)
    negatives()
    fuzz()
    index = ["log\tcategory\tops\treplay_exit\tdigest\tcheck_exit\tcheck_violations\tchecker_exit\tdescription"]
    for p in sorted(CORPUS.rglob("*.expect.json")):
        s = json.loads(p.read_text(encoding="utf-8"))
        e = s["expected"]
        checker = e.get("chord_check_exit", e.get("raft_check_exit", ""))
        index.append("\t".join(str(x) for x in (s["log"], s["category"], e.get("ops", ""), e["replay_exit"],
                                                  e.get("digest", ""), e["replay_check_exit"],
                                                  e["replay_check_violations"], checker, s["description"])))
    (CORPUS / "INDEX.tsv").write_text("\n".join(index) + "\n", encoding="utf-8")
    print("\n".join(index))


if __name__ == "__main__":
    main()
