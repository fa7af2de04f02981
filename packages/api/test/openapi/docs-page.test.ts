import { describe, expect, it } from 'vitest';
import { contractApp } from './contract-app.ts';

describe('/docs', () => {
  it('serves an HTML page that loads the renderer from the app itself, pointed at /openapi.json', async () => {
    const res = await contractApp().request('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const sources = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual(['/docs/assets/api-reference.js']);
    // Nothing from another origin: no absolute URL anywhere in the page.
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain('data-url="/openapi.json"');
    // What would reach Scalar's hosted services is switched off: web fonts, the AI agent, the proxy.
    expect(html).toContain('&quot;withDefaultFonts&quot;:false');
    expect(html).toContain('&quot;agent&quot;:{&quot;disabled&quot;:true}');
    expect(html).toContain('&quot;proxyUrl&quot;:&quot;&quot;');
  });

  it('serves the renderer bundle from node_modules as JavaScript', async () => {
    const res = await contractApp().request('/docs/assets/api-reference.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const body = await res.text();
    expect(body.length).toBeGreaterThan(1_000_000);
    expect(body).toContain('@scalar/api-reference');
    expect(body).toContain('createApiReference');
  });
});
