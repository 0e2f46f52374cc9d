/**
 * The dashboard's activity section, part of the page's one inline script
 * (see client.ts): per-tool calls, empty rate, errors, p50/p99 and tokens
 * saved over the window from `GET /v1/activity`, drawn as inline-SVG line
 * charts. Same string rules as client.ts: no backquote, no dollar-brace.
 */
export const ACTIVITY_JS = String.raw`
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

`;
