/**
 * The dashboard's live-push section, part of the page's one inline script
 * (see client.ts): `GET /v1/events` read as a fetch stream (EventSource cannot
 * send the Authorization header), resumed with Last-Event-ID after each
 * reconnect, each push drawn as one list item with its progress. Same string
 * rules as client.ts: no backquote, no dollar-brace.
 */
export const LIVE_JS = String.raw`
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

`;
