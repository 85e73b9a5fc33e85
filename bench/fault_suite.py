"""The fuzz and fault suite, longer than CI runs it: what an attacker and a bad cable find.

CI runs every fuzz and fault test once, with the examples its author chose, within the
test budget. This runs the same tests, as they are, for longer:

* **fuzz**: each hypothesis test with ``CAROM_FUZZ_SCALE`` times its CI examples (20 by
  default: the loaders, the API models and raw bodies, the admin token's gate, random
  byte flips of a match database), not derandomized, from a seed written down, so a
  counterexample found here can be replayed (``--hypothesis-seed``);
* **repeats**: the tests that race the wall clock, run ``--repeat`` times each (a
  wrong-token flood during a real-time match; a network camera that starts late, stalls
  and drops during a match; each kind of database damage), because a fault that shows
  one time in five is a fault.

The byte-fault sweep of the scoreboard link has its own benchmark
(``bench/scoreboard_faults.py``). Every test runs in a fresh ``pytest`` process, one at
a time. Writes ``bench/results/fault_suite.json`` and ``.md`` with the machine.

    PYTHONPATH=. .venv/bin/python bench/fault_suite.py [--scale 20] [--repeat 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from _machine import machine  # bench/ is on the path when a bench runs

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"

#: (test file, what it searches) for the scaled hypothesis runs.
FUZZ = (
    ("tests/referee/test_jsonbound.py", "the bounded decoder: random bytes, nesting, numbers"),
    ("tests/carom/match/test_loaders_fuzz.py", "mutated shot logs and match files"),
    ("tests/calibration/test_file_limits.py", "mutated calibration files"),
    ("tests/carom/web/test_fuzz.py", "every API model and raw bodies, with and without token"),
    ("tests/carom/web/test_guard.py", "the token gate: any sequence of clients and tokens"),
    ("tests/carom/live/test_damage_fuzz.py", "random byte flips of a match database"),
)
#: (test file, what it checks) run ``--repeat`` times each.
REPEAT = (
    ("tests/carom/web/test_auth_flood.py", "wrong-token flood during a real-time match"),
    ("tests/carom/live/test_live_network_camera.py", "network camera: late, stalls, drops"),
    ("tests/carom/live/test_damage.py", "each kind of database damage, the repair"),
)


def _pytest(path: str, env: dict[str, str], out: Path) -> dict[str, Any]:
    """One ``pytest`` process on ``path``; its counts and wall time from its JUnit XML."""
    started = time.monotonic()
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
           f"--junitxml={out}", path]  # fmt: skip
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    wall_s = time.monotonic() - started
    suite = ET.parse(out).getroot()
    suite = suite if suite.tag == "testsuite" else suite[0]
    counts = {k: int(suite.get(k, "0")) for k in ("tests", "failures", "errors", "skipped")}
    failed = [c.get("name", "") for c in suite.iter("testcase")
              if c.find("failure") is not None or c.find("error") is not None]  # fmt: skip
    bad = counts["failures"] + counts["errors"]
    summary = f"{counts['tests'] - bad - counts['skipped']} passed, {bad} failed, " \
              f"{counts['skipped']} skipped"  # fmt: skip
    return {"file": path, "wall_s": round(wall_s, 1), **counts, "failed": failed,
            "exit": done.returncode, "summary": summary}  # fmt: skip


def run(scale: int, repeat: int, seed: int, work: Path) -> dict[str, Any]:
    """Every fuzz file at ``scale``, then every repeat file ``repeat`` times."""
    base = {k: v for k, v in os.environ.items() if k != "CI"}  # CI derandomizes
    base["PYTHONPATH"] = str(ROOT)
    fuzz = []
    for i, (path, what) in enumerate(FUZZ):
        env = base | {"CAROM_FUZZ_SCALE": str(scale), "PYTEST_ADDOPTS": f"--hypothesis-seed={seed}"}
        row = _pytest(path, env, work / f"fuzz{i}.xml") | {"what": what}
        print(f"fuzz {path}: {row['summary']} ({row['wall_s']} s)", flush=True)
        fuzz.append(row)
    repeats = []
    for i, (path, what) in enumerate(REPEAT):
        runs = [_pytest(path, base, work / f"rep{i}_{k}.xml") for k in range(repeat)]
        print(f"repeat {path}: " + "; ".join(r["summary"] for r in runs), flush=True)
        repeats.append({"file": path, "what": what, "runs": runs})
    return {"machine": machine(), "scale": scale, "repeat": repeat, "seed": seed,
            "fuzz": fuzz, "repeats": repeats}  # fmt: skip


def markdown(doc: dict[str, Any]) -> str:
    """The results as the committed ``fault_suite.md``."""
    m = doc["machine"]
    lines = [f"# The fuzz and fault suite, longer than CI ({m['date']})", "",
             f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}; load "
             f"{m['load_1_5_15']} at the end.", "",
             f"Hypothesis tests at {doc['scale']}x their CI examples, seed {doc['seed']} "
             f"(replay: `CAROM_FUZZ_SCALE={doc['scale']} pytest --hypothesis-seed="
             f"{doc['seed']} FILE`); wall-clock tests {doc['repeat']} times each, each run a "
             "fresh pytest process. CI runs all of them once at 1x.", "",
             "| fuzz file | what it searches | tests | failed | wall s |",
             "|---|---|---|---|---|"]  # fmt: skip
    for r in doc["fuzz"]:
        bad = r["failures"] + r["errors"]
        lines.append(f"| `{r['file']}` | {r['what']} | {r['tests']} | {bad} "
                     f"{', '.join(r['failed'])} | {r['wall_s']} |")  # fmt: skip
    lines += [
        "",
        "| repeated file | what it checks | runs passed | wall s each |",
        "|---|---|---|---|",
    ]
    for rep in doc["repeats"]:
        ok = sum(1 for r in rep["runs"] if r["failures"] + r["errors"] == 0 and r["tests"])
        walls = ", ".join(str(r["wall_s"]) for r in rep["runs"])
        failed = sorted({name for r in rep["runs"] for name in r["failed"]})
        note = f" (failed: {', '.join(failed)})" if failed else ""
        lines.append(
            f"| `{rep['file']}` | {rep['what']} | {ok} of {len(rep['runs'])}{note} | {walls} |"
        )
    lines += [
        "",
        "The scoreboard link under byte faults: [scoreboard_faults.md](scoreboard_faults.md).",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    """Run the suite and write the results (the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=20, help="times the CI examples (20)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each wall-clock test (3)")
    parser.add_argument("--seed", type=int, default=1, help="hypothesis seed (1)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    args = parser.parse_args()
    work = args.out / ".fault_suite"
    work.mkdir(parents=True, exist_ok=True)
    doc = run(args.scale, args.repeat, args.seed, work)
    for xml in work.glob("*.xml"):
        xml.unlink()
    work.rmdir()
    (args.out / "fault_suite.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    (args.out / "fault_suite.md").write_text(markdown(doc), encoding="utf-8")
    print(f"wrote {args.out / 'fault_suite.md'}")


if __name__ == "__main__":
    main()
