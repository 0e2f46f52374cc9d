import { ACTIVITY_JS } from './activity';
import { LIVE_JS } from './live';

/**
 * The dashboard's browser script, inlined into the page (no build step, no
 * framework). It reads the API with the key from sessionStorage in the
 * Authorization header — never a URL — so a refused key (401) brings the key
 * form back; open mode sends none. Live pushes come from `GET /v1/events` read
 * as a fetch stream (EventSource cannot send headers), resumed with
 * Last-Event-ID after each reconnect. Plain ES2020 in a string: no backquote
 * and no dollar-brace inside, so the template below holds it verbatim.
 */
const CORE_JS = String.raw`
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
      !h.migrations_current ? 'migrations pending on shard ' + (h.shards || []).filter(function (s) { return !s.migrations_current; }).map(function (s) { return s.shard; }).join(', ') + ': run npm run db:migrate -- --remote (every shard)' : 'none';
    pill(ready.ready ? (h.binary_drift ? 'ready, schema drift' : 'ready') : 'not ready', ready.ready ? (h.binary_drift ? 'warn' : 'ok') : 'bad');
    var rows = [
      ['Ready', ready.ready ? '<span class="ok">yes</span>' : '<span class="bad">no: ' + esc((ready.reasons || []).join('; ')) + '</span>'],
      ['Version', esc(h.version)],
      ['Schema', 'this Worker ' + esc(h.schema_version) + ', D1 ' + (h.shards && h.shards.length > 1
        ? h.shards.map(function (s) { return 'shard ' + esc(s.shard) + ' ' + esc(s.applied_migrations == null ? 'unreachable' : s.applied_migrations); }).join(', ')
        : esc(h.applied_migrations == null ? 'unreachable' : h.applied_migrations))],
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

`;

const START_JS = String.raw`
  start().catch(function (err) { pill('error', 'bad'); $('state-body').innerHTML = '<p class="bad">' + esc(err.message) + '</p>'; });
})();
`;

/** The whole script: one IIFE, so the sections share its scope (function declarations are hoisted). */
export const DASHBOARD_JS = CORE_JS + ACTIVITY_JS + LIVE_JS + START_JS;
