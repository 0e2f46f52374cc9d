#!/usr/bin/env python3
"""`python3 scripts/sql-callgrind.py <db.sqlite> <statements.json> <name>[,name…] [reps]`: SQLite's own
instructions per execution of a statement, split into prepare (sqlite3_prepare_v2) and run (sqlite3_step),
counted by valgrind's callgrind around the system Python's sqlite3 with no statement cache (D1 keeps no
prepared statement from one call to the next, so every call pays both). `statements.json` maps a name to
`{"sql": …, "values": […]}` as a tool binds them (e.g. from `PINCHER_SQL_TIMING` and the code that builds
the statement); use a copy of a latency tier's D1 file (`sqlite3 <tier>.sqlite ".backup db.sqlite"`), never
the tier itself. Each figure is (a run of 1 + `reps` executions − a run of 1) ÷ reps: start-up, the schema read and the
first page reads are left out.
The count is of whichever libsqlite3.so.0 Python loads: Debian's is 3.40, which plans without bound LIMIT values;
`LD_LIBRARY_PATH=<dir>` with one built from another amalgamation (workerd bundles 3.47.0) counts that version.
`scripts/bench/lite-statements.json` holds the warm lite calls' statements on the 3,000-file tier, with the
project check folded as a subquery (`.before`) and appended as a LIMIT (`.after`), and `ready`'s.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

PY = '/usr/bin/python3'  # the real interpreter: a shim (pyenv) would hide it from valgrind


def child(db, stmts, name, reps):
    import sqlite3
    s = json.load(open(stmts))[name]
    c = sqlite3.connect(db, cached_statements=0)
    # Once before counting (both runs): the schema is read and the pages cached, as on a long-lived D1 connection.
    c.execute(s['sql'], s['values']).fetchall()
    for _ in range(reps):
        c.execute(s['sql'], s['values']).fetchall()


def inclusive(out):
    text = subprocess.run(['callgrind_annotate', '--inclusive=yes', '--threshold=100', out], capture_output=True, text=True).stdout
    found = {}
    for line in text.splitlines():
        m = re.match(r'\s*([\d,]+)\s+(?:\(.*?\)\s+)?\S*:(\w+)', line)
        if m:
            found.setdefault(m.group(2), int(m.group(1).replace(',', '')))
    return found


def measure(db, stmts, name, reps):
    counts = []
    for n in (reps, 0):
        with tempfile.NamedTemporaryFile(suffix='.cg', delete=False) as f:
            out = f.name
        subprocess.run(['valgrind', '--tool=callgrind', f'--callgrind-out-file={out}', PY, __file__, '--child', db, stmts, name, str(n)], check=True, stderr=subprocess.DEVNULL)
        counts.append(inclusive(out))
        os.unlink(out)
    per = lambda fn: (counts[0].get(fn, 0) - counts[1].get(fn, 0)) / reps / 1e6
    print(f'{name}: prepare {per("sqlite3_prepare_v2"):.3f}M  step {per("sqlite3_step"):.3f}M instructions per call')


if __name__ == '__main__':
    if sys.argv[1:2] == ['--child']:
        child(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif len(sys.argv) >= 4:
        for name in sys.argv[3].split(','):
            measure(sys.argv[1], sys.argv[2], name, int(sys.argv[4]) if len(sys.argv) > 4 else 20)
    else:
        print(__doc__)
        sys.exit(2)
