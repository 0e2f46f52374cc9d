import { describe, expect, it } from 'vitest';
import { send } from '../contract/support';

describe('the dashboard at /', () => {
  it('is public HTML with landmarks, labelled controls and the inline script, and holds no index data', async () => {
    const reply = await send('/', {}, { PINCHER_HTTP_KEY: 'dash-full', PINCHER_READ_KEY: 'dash-read', PINCHER_ALLOW_OPEN: undefined });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    const page = reply.text;
    expect(page).toMatch(/<html lang="en">/);
    expect(page).toMatch(/<meta name="viewport"/);
    for (const landmark of ['<header>', '<main id="main">', '<nav aria-label="Sections">', 'role="search"']) expect(page).toContain(landmark);
    for (const control of ['<label>Access key <input id="key"', '<label>Project <select id="search-project"', '<label>Symbol or words <input id="search-query"', '<label>Window <select id="hours"']) {
      expect(page).toContain(control);
    }
    expect(page).toContain('data-open="0"');
    expect(page).not.toContain('dash-read');
    expect(page).toMatch(/<script>\s*\(function \(\) \{/);
    // Keys travel in the Authorization header and stay in sessionStorage, never in a URL or localStorage.
    expect(page).toContain("h.Authorization = 'Bearer ' + k");
    expect(page).toContain('sessionStorage');
    expect(page).not.toContain('localStorage');
    expect(page).not.toMatch(/[?&](key|token)=/);
  });

  it('says open mode and hides the key form when the server runs without keys', async () => {
    const reply = await send('/');
    expect(reply.text).toContain('data-open="1"');
    expect(reply.text).toContain('Open mode: this local server needs no key.');
    expect(reply.text).toMatch(/<form id="key-form" hidden>/);
  });
});
