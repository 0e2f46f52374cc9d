/**
 * The dashboard's browser script, inlined into the page (no build step, no
 * framework). It reads the API with the key from sessionStorage in the
 * Authorization header — never a URL — so a refused key (401) brings the key
 * form back; open mode sends none. Live pushes come from `GET /v1/events` read
 * as a fetch stream (EventSource cannot send headers), resumed with
 * Last-Event-ID after each reconnect. Plain ES2020 in a string: no backquote
 * and no dollar-brace inside, so the template below holds it verbatim.
 */
export const DASHBOARD_JS = String.raw`
(function () {
  'use strict';
  var KEY = 'pincher.key';
  var open = document.body.getAttribute('data-open') === '1';
  var COLORS = ['#0b57d0', '#b3261e', '#146c2e', '#8a4b00', '#6a1b9a', '#00695c'];
  var $ = function (id) { return document.getElementById(id); };
  var stream = { ctrl: null, last: null, retry: 2000 };
  var pushes = new Map();
  var projects = [];
  var searchHits = [];
  var reloadTimer = 0;

  function esc(s) {
    return String(s == null ? '' : s).replace(/[&<>"']/g, function (ch) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[ch];
    });
  }
  function key() { return sessionStorage.getItem(KEY) || ''; }
  function headers(extra) {
    var h = Object.assign({}, extra || {});
    var k = key();
    if (k) h.Authorization = 'Bearer ' + k;
    return h;
  }
  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }
  function num(n) { return n == null ? '–' : Number(n).toLocaleString('en-US'); }
  function when(iso) {
    if (!iso) return '–';
    var d = new Date(iso);
    var ago = Math.round((Date.now() - d.getTime()) / 60000);
    var rel = ago < 1 ? 'just now' : ago < 60 ? ago + ' min ago' : ago < 2880 ? Math.round(ago / 60) + ' h ago' : Math.round(ago / 1440) + ' d ago';
    return '<time datetime="' + esc(iso) + '" title="' + esc(iso) + '">' + esc(iso.slice(0, 16).replace('T', ' ')) + ' UTC (' + rel + ')</time>';
  }
  function ms(n) { return n == null ? '–' : n < 1000 ? n + ' ms' : (n / 1000).toFixed(1) + ' s'; }
  function table(label, head, rows) {
    return '<div class="scroll" tabindex="0" role="region" aria-label="' + esc(label) + '"><table><thead><tr>' +
      head.map(function (h) { return '<th scope="col"' + (h.num ? ' class="num"' : '') + '>' + esc(h.t || h) + '</th>'; }).join('') +
      '</tr></thead><tbody>' + rows.join('') + '</tbody></table></div>';
  }
  function td(v, cls) { return '<td' + (cls ? ' class="' + cls + '"' : '') + '>' + v + '</td>'; }

  function AuthError(message) { this.message = message; }
  async function request(path, body) {
    var init = body === undefined ? { headers: headers() } : { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify(body) };
    var res = await fetch(path, init);
    var json = null;
    try { json = await res.json(); } catch (e) { json = null; }
    var code = json && json.error ? json.error.code : null;
    if (res.status === 401 || code === 'auth_not_configured') throw new AuthError(json && json.error ? json.error.message : 'refused');
    return { status: res.status, json: json };
  }
  async function api(path, body) {
    var r = await request(path, body);
    if (r.status >= 400) throw new Error(r.json && r.json.error ? r.json.error.code + ': ' + r.json.error.message : 'HTTP ' + r.status);
    return r.json;
  }

  /* ---------------------------------------------------------------- access */
  function askKey(message, refused) {
    $('key-form').hidden = false;
    var s = $('auth-state');
    s.textContent = message;
    s.className = refused ? 'bad' : '';
    if (refused) $('key').focus();
  }
  function refused(err) {
    sessionStorage.removeItem(KEY);
    stopEvents();
    clearData();
    askKey('The key was refused: ' + err.message + '. Enter another key.', true);
  }
  function clearData() {
    ['state-body', 'projects-body', 'activity-body'].forEach(function (id) { $(id).innerHTML = '<p class="muted">Enter a key to see this.</p>'; });
    $('live-list').innerHTML = '';
    $('search-project').innerHTML = '';
    $('search-results').innerHTML = '';
    $('slice').hidden = true;
    pushes.clear();
  }
  $('key-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var v = $('key').value.trim();
    if (!v) return;
    sessionStorage.setItem(KEY, v);
    $('key').value = '';
    loadAll();
  });
  $('forget').addEventListener('click', function () {
    sessionStorage.removeItem(KEY);
    stopEvents();
    clearData();
    askKey('Key forgotten. Enter a key to see this server.', false);
  });

  /* ---------------------------------------------------------------- loading */
  async function start() {
    var health = await (await fetch('/v1/health')).json();
    if (health.auth_required && !key()) {
      pill('key needed', 'warn');
      clearData();
      askKey('This server needs a key. A read key is enough.', false);
      return;
    }
    await loadAll();
  }

  async function loadAll() {
    try {
      await loadOverview();
    } catch (err) {
      if (err instanceof AuthError) return refused(err);
      pill('error', 'bad');
      $('state-body').innerHTML = '<p class="bad">' + esc(err.message) + '</p>';
      return;
    }
    if (!open) {
      $('key-form').hidden = false;
      $('auth-state').className = 'ok';
      $('auth-state').textContent = 'Key accepted; it stays in this tab only.';
    }
    loadActivity().catch(showActivityError);
    startEvents();
  }

  async function loadOverview() {
    var all = await Promise.all([request('/v1/ready'), api('/v1/tools/health', { limit: 100 }), api('/v1/projects')]);
    var ready = all[0].json;
    var health = all[1].result;
    var byName = new Map(health.projects.map(function (p) { return [p.name, p]; }));
    projects = all[2].projects.map(function (p) { return Object.assign({}, p, { health: byName.get(p.name) || null }); });
    renderState(ready, health);
    renderProjects();
    renderSearchProjects();
    await Promise.all(projects.map(loadHistory));
  }

  function scheduleReload() {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(function () {
      loadOverview().catch(function (err) { if (err instanceof AuthError) refused(err); });
      loadActivity().catch(showActivityError);
    }, 400);
  }

  /* ---------------------------------------------------------------- health */
  function pill(text, cls) {
    var p = $('health-pill');
    p.textContent = text;
    p.className = 'pill ' + cls;
  }
  function renderState(ready, h) {
    var drift = h.binary_drift ? 'D1 holds a newer schema than this Worker (rolling deploy or rollback): redeploy the newer Worker' :
      !h.migrations_current ? 'migrations pending: run wrangler d1 migrations apply DB' : 'none';
    pill(ready.ready ? (h.binary_drift ? 'ready, schema drift' : 'ready') : 'not ready', ready.ready ? (h.binary_drift ? 'warn' : 'ok') : 'bad');
    var rows = [
      ['Ready', ready.ready ? '<span class="ok">yes</span>' : '<span class="bad">no: ' + esc((ready.reasons || []).join('; ')) + '</span>'],
      ['Version', esc(h.version)],
      ['Schema', 'this Worker ' + esc(h.schema_version) + ', D1 ' + esc(h.applied_migrations == null ? 'unreachable' : h.applied_migrations)],
      ['Schema drift', '<span class="' + (drift === 'none' ? 'ok' : 'warn') + '">' + esc(drift) + '</span>'],
      ['Extractor', esc(h.extractor_version)],
      ['Capabilities', esc(h.capabilities.join(', '))],
    ];
    if (ready.warnings && ready.warnings.length) rows.push(['Warnings', '<span class="warn">' + esc(ready.warnings.join('; ')) + '</span>']);
    $('state-body').innerHTML = table('Health and schema', ['item', 'state'], rows.map(function (r) { return '<tr><th scope="row">' + r[0] + '</th>' + td(r[1], 'wrap') + '</tr>'; }));
  }

  /* ---------------------------------------------------------------- projects */
  function renderProjects() {
    if (!projects.length) {
      $('projects-body').innerHTML = '<p>No project is indexed yet. Push one: <code>npx --yes ' + esc(location.origin) + '/v1/cli.tgz push --url ' + esc(location.origin) + '</code></p>';
      return;
    }
    var head = ['project', 'ref', 'commit', 'indexed', { t: 'files', num: 1 }, { t: 'symbols', num: 1 }, 'languages', { t: 'failures', num: 1 }, 'state'];
    var rows = projects.map(function (p) {
      var h = p.health;
      var fails = h ? h.extraction_failures.reduce(function (a, f) { return a + f.files; }, 0) : 0;
      var langs = h ? h.languages.map(function (l) { return l.language; }).join(', ') : '';
      var st = !h ? '<span class="muted">not indexed</span>' : h.stale ? '<span class="warn">stale: ' + esc(h.stale_reason) + '</span>' : '<span class="ok">current</span>';
      return '<tr><th scope="row"><a href="#p-' + esc(p.name) + '">' + esc(p.name) + '</a></th>' + td(esc(p.ref || '–')) + td('<code>' + esc((p.commit || '–').slice(0, 12)) + '</code>') +
        td(when(p.indexed_at)) + td(num(p.files), 'num') + td(num(p.symbols), 'num') + td(esc(langs), 'wrap') + td(num(fails), 'num') + td(st, 'wrap') + '</tr>';
    });
    var details = projects.map(function (p) {
      var h = p.health;
      var langs = h && h.languages.length ? table('Languages of ' + p.name, ['language', { t: 'files', num: 1 }, { t: 'symbols', num: 1 }, 'parser tier', { t: 'confidence', num: 1 }, 'graph reach'], h.languages.map(function (l) {
        return '<tr><th scope="row">' + esc(l.language) + '</th>' + td(num(l.files), 'num') + td(num(l.symbols), 'num') + td(esc(l.tier || 'none')) + td(l.confidence == null ? '–' : esc(l.confidence), 'num') + td(esc(l.graph.replace('_', '-'))) + '</tr>';
      })) : '<p class="muted">No languages.</p>';
      var fails = h && h.extraction_failures.length ? table('Failures of ' + p.name, ['status', 'reason', { t: 'files', num: 1 }], h.extraction_failures.map(function (f) {
        return '<tr>' + td(esc(f.status)) + td(esc(f.reason), 'wrap') + td(num(f.files), 'num') + '</tr>';
      })) : '<p class="muted">No extraction failures.</p>';
      return '<details id="p-' + esc(p.name) + '" open><summary>' + esc(p.name) + '</summary>' +
        '<h3>Languages</h3>' + langs + '<h3>Failures by reason</h3>' + fails +
        '<h3>Pushes</h3><div id="h-' + esc(p.name) + '"><p class="muted">Loading…</p></div></details>';
    });
    $('projects-body').innerHTML = table('Projects', head, rows) + details.join('');
  }

  async function loadHistory(p) {
    var r = await api('/v1/projects/' + encodeURIComponent(p.name) + '/uploads?limit=20');
    var box = document.getElementById('h-' + p.name);
    if (!box) return;
    if (!r.uploads.length) { box.innerHTML = '<p class="muted">No push recorded.</p>'; return; }
    box.innerHTML = table('Pushes of ' + p.name, ['started', 'by', 'outcome', { t: 'duration', num: 1 }, 'ref', 'commit', { t: 'files', num: 1 }, 'changes'], r.uploads.map(function (u) {
      var c = u.changes;
      var changes = c ? c.new + ' new, ' + c.changed + ' changed, ' + c.deleted + ' deleted, ' + c.unchanged + ' unchanged' : '<span class="muted">collected</span>';
      var cls = u.status === 'committed' ? 'ok' : u.status === 'open' ? 'warn' : 'bad';
      return '<tr>' + td(when(u.started_at)) + td(esc(u.pushed_by || '–')) + td('<span class="' + cls + '">' + esc(u.status === 'open' ? 'running' : u.status) + '</span>') + td(ms(u.duration_ms), 'num') +
        td(esc(u.ref || '–')) + td('<code>' + esc((u.commit || '–').slice(0, 12)) + '</code>') + td(num(u.files), 'num') + td(changes, 'wrap') + '</tr>';
    }));
  }

  /* ---------------------------------------------------------------- activity */
  $('hours').addEventListener('change', function () { loadActivity().catch(showActivityError); });
  function showActivityError(err) {
    if (err instanceof AuthError) return refused(err);
    $('activity-body').innerHTML = '<p class="bad">' + esc(err.message) + '</p>';
  }

  async function loadActivity() {
    var a = await api('/v1/activity?hours=' + encodeURIComponent($('hours').value));
    if (!a.tools.length) { $('activity-body').innerHTML = '<p class="muted">No tool call in this window.</p>'; return; }
    var rows = a.tools.map(function (t) {
      var reasons = Object.keys(t.empty_by_reason).map(function (r) { return esc(r) + ' ' + t.empty_by_reason[r]; }).join(', ');
      return '<tr><th scope="row">' + esc(t.tool) + '</th>' + td(num(t.calls), 'num') + td((100 * t.empty_rate).toFixed(1) + '%', 'num') + td(reasons || '–', 'wrap') +
        td(num(t.errors), 'num') + td(ms(t.p50_ms), 'num') + td(ms(t.p99_ms), 'num') + td(num(t.tokens_saved), 'num') + '</tr>';
    });
    var start = Date.parse(a.window.from);
    var buckets = [];
    for (var i = 0; i < 24; i++) buckets.push(start + i * a.window.bucket_ms);
    var top = a.tools.slice(0, COLORS.length).map(function (t) { return t.tool; });
    function lines(field) {
      return top.map(function (tool) {
        var values = buckets.map(function () { return null; });
        a.series.forEach(function (s) {
          if (s.tool !== tool) return;
          var idx = Math.round((Date.parse(s.bucket) - start) / a.window.bucket_ms);
          if (idx >= 0 && idx < values.length) values[idx] = s[field];
        });
        return { name: tool, values: values };
      });
    }
    $('activity-body').innerHTML = table('Tool calls per tool', ['tool', { t: 'calls', num: 1 }, { t: 'empty', num: 1 }, 'empty by reason', { t: 'errors', num: 1 }, { t: 'p50', num: 1 }, { t: 'p99', num: 1 }, { t: 'tokens saved', num: 1 }], rows) +
      '<div class="charts">' + chart('c-calls', 'Calls', buckets, lines('calls'), '') + chart('c-p50', 'p50 latency (ms)', buckets, lines('p50_ms'), ' ms') +
      chart('c-p99', 'p99 latency (ms)', buckets, lines('p99_ms'), ' ms') + chart('c-saved', 'Tokens saved', buckets, lines('tokens_saved'), '') + '</div>';
  }

  function niceMax(v) {
    var p = Math.pow(10, Math.floor(Math.log10(v)));
    var m = [1, 2, 2.5, 5, 10].find(function (f) { return f * p >= v; });
    return m * p;
  }
  function label(t, hours) {
    var iso = new Date(t).toISOString();
    return hours ? iso.slice(11, 16) : iso.slice(5, 10);
  }
  /** A line chart as inline SVG: one line per tool over the window's buckets; gaps where a tool had no call. */
  function chart(id, title, buckets, series, unit) {
    var W = 480, H = 210, L = 52, R = 10, T = 10, B = 28;
    var max = 0;
    series.forEach(function (s) { s.values.forEach(function (v) { if (v != null && v > max) max = v; }); });
    var top = niceMax(max || 1);
    var x = function (i) { return L + (W - L - R) * (i / (buckets.length - 1)); };
    var y = function (v) { return T + (H - T - B) * (1 - v / top); };
    var hours = buckets[buckets.length - 1] - buckets[0] < 2 * 86400000;
    var out = [];
    [0, top / 2, top].forEach(function (v) {
      out.push('<line x1="' + L + '" x2="' + (W - R) + '" y1="' + y(v) + '" y2="' + y(v) + '" stroke="#c9ced6"/>');
      out.push('<text x="' + (L - 6) + '" y="' + (y(v) + 4) + '" text-anchor="end" font-size="11" fill="#555">' + esc(num(v)) + '</text>');
    });
    [0, Math.floor(buckets.length / 2), buckets.length - 1].forEach(function (i) {
      var anchor = i === 0 ? 'start' : i === buckets.length - 1 ? 'end' : 'middle';
      out.push('<text x="' + x(i) + '" y="' + (H - 8) + '" text-anchor="' + anchor + '" font-size="11" fill="#555">' + label(buckets[i], hours) + '</text>');
    });
    series.forEach(function (s, k) {
      var d = '';
      var pen = false;
      s.values.forEach(function (v, i) {
        if (v == null) { pen = false; return; }
        d += (pen ? 'L' : 'M') + x(i).toFixed(1) + ' ' + y(v).toFixed(1);
        pen = true;
        out.push('<circle cx="' + x(i).toFixed(1) + '" cy="' + y(v).toFixed(1) + '" r="2.5" fill="' + COLORS[k] + '"><title>' + esc(s.name + ': ' + num(v) + unit) + '</title></circle>');
      });
      if (d) out.push('<path d="' + d + '" fill="none" stroke="' + COLORS[k] + '" stroke-width="2"/>');
    });
    var summary = series.map(function (s) {
      var vals = s.values.filter(function (v) { return v != null; });
      return s.name + ' max ' + (vals.length ? num(Math.max.apply(null, vals)) + unit : 'none');
    }).join('; ');
    return '<figure><figcaption id="' + id + '">' + esc(title) + '</figcaption><svg viewBox="0 0 ' + W + ' ' + H + '" role="img" aria-labelledby="' + id + ' ' + id + '-d"><desc id="' + id + '-d">' + esc(summary) + '</desc>' + out.join('') + '</svg>' +
      '<ul class="legend">' + series.map(function (s, k) { return '<li><span style="background:' + COLORS[k] + '"></span>' + esc(s.name) + '</li>'; }).join('') + '</ul></figure>';
  }

  /* ---------------------------------------------------------------- search */
  function renderSearchProjects() {
    var sel = $('search-project');
    var keep = sel.value;
    sel.innerHTML = projects.map(function (p) { return '<option>' + esc(p.name) + '</option>'; }).join('');
    if (keep && projects.some(function (p) { return p.name === keep; })) sel.value = keep;
  }
  $('search-form').addEventListener('submit', async function (e) {
    e.preventDefault();
    var project = $('search-project').value;
    var query = $('search-query').value.trim();
    if (!project || !query) return;
    $('search-state').textContent = 'Searching…';
    $('search-results').innerHTML = '';
    try {
      var r = await request('/v1/tools/search', { project: project, query: query, limit: 20 });
      if (r.status >= 400) { $('search-state').textContent = r.json.error.message + (r.json.error.suggestion ? ' (' + r.json.error.suggestion + ')' : ''); return; }
      searchHits = r.json.result.results.map(function (h) { return Object.assign({ project: project }, h); });
      var meta = r.json._meta || {};
      $('search-state').textContent = searchHits.length ? searchHits.length + ' of ' + r.json.result.total + ' result(s); choose one to read its source.' : 'No result' + (meta.diagnosis ? ': ' + meta.diagnosis : '.');
      $('search-results').innerHTML = searchHits.map(function (h, i) {
        return '<li><button type="button" data-hit="' + i + '">' + esc(h.qualified_name || h.name) + '</button> <span class="muted">' + esc(h.kind) + ' · ' + esc(h.file_path) + ':' + h.start_line + '</span></li>';
      }).join('');
    } catch (err) {
      if (err instanceof AuthError) return refused(err);
      $('search-state').textContent = err.message;
    }
  });
  $('search-results').addEventListener('click', function (e) {
    var b = e.target.closest('button[data-hit]');
    if (b) openHit(searchHits[Number(b.getAttribute('data-hit'))]).catch(function (err) {
      if (err instanceof AuthError) return refused(err);
      $('search-state').textContent = err.message;
    });
  });
  async function openHit(h) {
    var first = Math.max(1, h.start_line - 2);
    var last = Math.min(h.end_line + 2, first + 199);
    var r = await api('/v1/tools/read', { project: h.project, path: h.file_path, offset: first, limit: last - first + 1 });
    var lines = (r.result.text || '').split('\n').filter(Boolean);
    $('slice-h').textContent = h.file_path + ' lines ' + h.start_line + '–' + h.end_line + ' (' + (h.qualified_name || h.name) + ')';
    $('slice-text').innerHTML = lines.map(function (line) {
      var bar = line.indexOf('|');
      var anchor = line.slice(0, bar);
      var n = Number(anchor.split(':')[0]);
      var inside = n >= h.start_line && n <= h.end_line;
      return '<span id="L' + n + '"' + (inside ? ' class="hit"' : '') + '><span class="ln">' + esc(anchor) + ' </span>' + esc(line.slice(bar + 1)) + '</span>';
    }).join('\n');
    var box = $('slice');
    box.hidden = false;
    box.focus();
  }

  /* ---------------------------------------------------------------- live events */
  function stopEvents() {
    if (stream.ctrl) stream.ctrl.abort();
    stream.ctrl = null;
    $('live-state').textContent = 'Not connected.';
  }
  /** GET /v1/events read as a fetch stream (EventSource cannot send the Authorization header); reconnects with Last-Event-ID. */
  async function startEvents() {
    stopEvents();
    var ctrl = new AbortController();
    stream.ctrl = ctrl;
    while (!ctrl.signal.aborted) {
      try {
        var h = headers({ Accept: 'text/event-stream' });
        if (stream.last !== null) h['Last-Event-ID'] = stream.last;
        var res = await fetch('/v1/events', { headers: h, signal: ctrl.signal });
        if (res.status === 401) return refused(new Error('the events stream refused the key'));
        if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
        $('live-state').textContent = 'Connected: pushes appear here as they run.';
        var reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        var buf = '';
        for (;;) {
          var chunk = await reader.read();
          if (chunk.done) break;
          buf += chunk.value.replace(/\r\n?/g, '\n');
          var cut;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            dispatch(buf.slice(0, cut));
            buf = buf.slice(cut + 2);
          }
        }
      } catch (err) {
        if (ctrl.signal.aborted) return;
      }
      if (ctrl.signal.aborted) return;
      $('live-state').textContent = 'Reconnecting…';
      await sleep(stream.retry);
    }
  }
  function dispatch(block) {
    var type = 'message';
    var data = [];
    block.split('\n').forEach(function (line) {
      if (!line || line[0] === ':') return;
      var c = line.indexOf(':');
      var field = c < 0 ? line : line.slice(0, c);
      var value = c < 0 ? '' : line.slice(c + 1).replace(/^ /, '');
      if (field === 'id') stream.last = value;
      else if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry' && /^\d+$/.test(value)) stream.retry = Number(value);
    });
    if (!data.length) return;
    var d;
    try { d = JSON.parse(data.join('\n')); } catch (e) { return; }
    onEvent(type, d);
  }
  function onEvent(type, d) {
    if (type === 'gap') return scheduleReload();
    if (!d.upload_id) return;
    var p = pushes.get(d.upload_id) || { project: d.project, state: 'running', files: null, missing: null, received: 0, symbols: 0 };
    if (type === 'upload_opened') { p.files = d.files; p.missing = d.missing; p.ref = d.ref; p.commit = d.commit; scheduleReload(); }
    else if (type === 'files_received') { p.received += (d.accepted || 0); p.symbols += d.symbols || 0; }
    else if (type === 'committed') { p.state = 'committed'; p.plan = d.files; p.total = d.symbols; p.duration = d.duration_ms; scheduleReload(); }
    else if (type === 'resolution_finished') { p.state = 'resolved'; p.edges = d.edges; scheduleReload(); }
    else if (type === 'resolution_pending') { p.state = 'graph pending'; scheduleReload(); }
    else if (type === 'upload_aborted') { p.state = 'aborted'; scheduleReload(); }
    else return;
    pushes.set(d.upload_id, p);
    renderPush(d.upload_id, p);
  }
  function renderPush(id, p) {
    var li = document.getElementById('push-' + id);
    if (!li) {
      li = document.createElement('li');
      li.id = 'push-' + id;
      $('live-list').prepend(li);
    }
    li.setAttribute('data-state', p.state);
    var parts = ['<strong>' + esc(p.project) + '</strong>'];
    if (p.ref || p.commit) parts.push(esc(p.ref || '') + ' <code>' + esc((p.commit || '').slice(0, 12)) + '</code>');
    if (p.files != null) parts.push(num(p.files) + ' files, ' + num(p.missing) + ' to send');
    if (p.missing) parts.push('<progress max="' + p.missing + '" value="' + Math.min(p.received, p.missing) + '" aria-label="files received">' + p.received + '</progress> ' + num(p.received) + ' received');
    if (p.symbols) parts.push(num(p.symbols) + ' symbols extracted');
    var state = p.state;
    if (p.plan) state += ' (' + p.plan.new + ' new, ' + p.plan.changed + ' changed, ' + p.plan.deleted + ' deleted; ' + num(p.total) + ' symbols in ' + ms(p.duration) + ')';
    if (p.edges != null) state += ', ' + num(p.edges) + ' graph edges';
    parts.push('<span class="' + (p.state === 'aborted' ? 'bad' : p.state === 'running' ? 'warn' : 'ok') + '">' + esc(state) + '</span>');
    li.innerHTML = parts.join(' · ');
  }

  start().catch(function (err) { pill('error', 'bad'); $('state-body').innerHTML = '<p class="bad">' + esc(err.message) + '</p>'; });
})();
`;
