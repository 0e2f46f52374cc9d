#!/usr/bin/env python3
# Replays the writes of one cold push against a fresh database migrated from migrations/ and prints the CPU
# seconds SQLite spends on each part (best of REPEAT rounds): contents with their trigram rows and extractions in
# the upload's batches (multi-row VALUES, as src/db/index-store.ts binds them), each statement of the commit, then
# the edges. Input: the local D1 a push wrote (scripts/profile-push.mjs --keep-d1 DIR).
#
#   python3 scripts/bench/replay-push-writes.py DIR/v3/d1/miniflare-D1DatabaseObject/<largest>.sqlite [nograms]
#
# `nograms` drops the trigger that fills the trigram index. Python's sqlite3 is not workerd's SQLite build: read the
# figures as the size of SQLite's share of a push, not as workerd CPU.
import sqlite3, sys, time, glob, json, subprocess, os, re, tempfile
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
pushed, migdir = sys.argv[1], os.path.join(ROOT, 'migrations')
variant = sys.argv[2] if len(sys.argv) > 2 else 'base'
REPEAT = int(os.environ.get('REPEAT', '3'))
src = sqlite3.connect(pushed)
src.row_factory = None
proj = src.execute("select id from projects").fetchone()[0]
upl = src.execute("select id from uploads where project_id=? and status='committed'", (proj,)).fetchone()[0]
ev = src.execute("select extractor_version from projects where id=?", (proj,)).fetchone()[0]
# The index-store module imports the extractor: its grammar files load through extract-hooks.mjs, as wrangler bundles them.
HOOKS = 'data:text/javascript,import{register}from"node:module";import{pathToFileURL}from"node:url";register(pathToFileURL("scripts/bench/extract-hooks.mjs"))'
stmts = json.loads(subprocess.check_output(['node', '--import', 'tsx', '--import', HOOKS, 'scripts/bench/commit-sql.ts', proj, upl, str(ev)], cwd=ROOT))
# The commit's first statement rebuilds a held extraction's symbols JSON from its rows: the same SQL gives it back here.
REBUILT = re.search(r'SET symbols_json = (.*?)\s+WHERE rowid IN', stmts[0]['sql'], re.S).group(1)
blobs = src.execute("select hash,size,content,created_at from blobs order by rowid").fetchall()
ext_cols = "hash, language, extractor_version, corpus, status, reason, message, had_errors, symbol_count, ref_count, parse_ms, symbols_json, refs_json, created_at"
exts = src.execute(f"select hash, language, extractor_version, corpus, status, reason, message, had_errors, symbol_count, ref_count, parse_ms, CASE WHEN symbols_json = '' THEN {REBUILT} ELSE symbols_json END, refs_json, created_at from extractions order by rowid").fetchall()
edge_cols = [r[1] for r in src.execute("pragma table_xinfo(edges)") if r[6] == 0 and r[1] != 'rowid']
edges = src.execute(f"select {','.join(edge_cols)} from edges order by rowid").fetchall()
counts = {t: src.execute(f"select count(*) from {t}").fetchone()[0] for t in ['blobs', 'extractions', 'files', 'symbols', 'edges', 'upload_files']}
print('rows', counts, 'blob bytes', sum(len(b[2] or '') for b in blobs), 'symbols_json chars', sum(len(e[11] or '') for e in exts), 'refs_json chars', sum(len(e[12] or '') for e in exts))

def fresh(path):
    if os.path.exists(path): os.remove(path)
    for suf in ('-wal', '-shm', '-journal'):
        if os.path.exists(path + suf): os.remove(path + suf)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute('pragma journal_mode=wal')
    for f in sorted(glob.glob(os.path.join(migdir, '*.sql'))):
        db.executescript(open(f).read().replace('--> statement-breakpoint', ''))
    for t in ('projects', 'uploads', 'upload_files'):
        cols = [r[1] for r in src.execute(f'pragma table_xinfo({t})') if r[6] == 0]
        rows = src.execute(f"select {','.join(cols)} from {t}").fetchall()
        db.execute('begin')
        db.executemany(f"insert into {t} ({','.join(cols)}) values ({','.join('?' * len(cols))})", rows)
        db.execute('commit')
    db.execute("update uploads set status='open' where id=?", (upl,))
    db.execute("update projects set generation=0, file_count=0, symbol_count=0")
    return db

def multirow(db, table, cols, rows, conflict, budget=1_500_000):
    width = len(cols)
    per = max(1, 100 // width)
    cur, size = [], 0
    def flush():
        nonlocal cur, size
        if not cur: return
        tuples = ','.join('(' + ','.join('?' * width) + ')' for _ in cur)
        db.execute(f"insert into {table} ({','.join(cols)}) values {tuples} {conflict}", [v for r in cur for v in r])
        cur, size = [], 0
    for r in rows:
        chars = sum(len(v) for v in r if isinstance(v, str))
        if len(cur) >= per or (cur and size + chars > budget): flush()
        cur.append(r); size += chars
    flush()

def batches(rows, limit=2 * 1024 * 1024):
    out, cur, size = [], [], 0
    for r in rows:
        n = len(r[2] or '') if len(r) == 4 else 0
        if cur and size + n > limit: out.append(cur); cur, size = [], 0
        cur.append(r); size += n
    if cur: out.append(cur)
    return out

T = {}
def timed(name, fn):
    t = time.process_time(); fn(); T[name] = T.get(name, []) + [time.process_time() - t]

EXT_CONFLICT = """ON CONFLICT(hash, language, extractor_version) DO UPDATE SET corpus = excluded.corpus, status = excluded.status, reason = excluded.reason, message = excluded.message, had_errors = excluded.had_errors, symbol_count = excluded.symbol_count, ref_count = excluded.ref_count, parse_ms = excluded.parse_ms, symbols_json = excluded.symbols_json, refs_json = excluded.refs_json"""
ext_by_hash = {}
for e in exts: ext_by_hash.setdefault(e[0], []).append(e)
for rep in range(REPEAT):
    db = fresh(os.path.join(tempfile.gettempdir(), 'replay-push-writes.sqlite'))
    if variant == 'nograms': db.execute('drop trigger blob_grams_ai')
    for b in batches(blobs):
        hs = {r[0] for r in b}
        def go():
            db.execute('begin')
            multirow(db, 'blobs', ['hash', 'size', 'content', 'created_at'], b, 'ON CONFLICT(hash) DO NOTHING')
            db.execute('commit')
        timed('1 blobs+grams', go)
        def go2():
            db.execute('begin')
            multirow(db, 'extractions', [c.strip() for c in ext_cols.split(',')], [e for h in hs for e in ext_by_hash.get(h, [])], EXT_CONFLICT)
            db.execute('commit')
        timed('2 extractions', go2)
    db.execute('begin')
    for i, s in enumerate(stmts):
        sql = s['sql']
        label = '3 commit ' + re.sub(r'\s+', ' ', sql)[:40]
        timed(label, lambda: db.execute(sql, s['args']))
    t = time.process_time(); db.execute('commit'); T['3 commit COMMIT'] = T.get('3 commit COMMIT', []) + [time.process_time() - t]
    for t in ('files', 'symbols'):
        got = db.execute(f'select count(*) from {t}').fetchone()[0]
        if got != counts[t]: sys.exit(f'the replayed commit wrote {got} {t} rows, the push {counts[t]}')
    def go3():
        db.execute('begin')
        ph = ','.join('?' * len(edge_cols))
        db.executemany(f"insert into edges ({','.join(edge_cols)}) values ({ph})", edges)
        db.execute('commit')
    timed('4 edges', go3)
    db.close()
tot = 0
for k in sorted(T):
    v = T[k]
    n = len(v) // REPEAT
    per_rep = [sum(v[i * n:(i + 1) * n]) for i in range(REPEAT)]
    tot += min(per_rep)
    print(f'{k:60s} {min(per_rep):7.3f} s (min of {REPEAT})')
print(f'total {tot:.3f} s')
