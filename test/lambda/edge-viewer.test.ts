import { describe, expect, it } from 'vitest';
import { applyEdgeViewer, EDGE_SECRET_HEADER, VIEWER_IP_HEADER } from '../../functions/edge-viewer.ts';

/** The caller's address behind CloudFront: taken from the edge only when the edge's secret vouches for it. */
const SECRET = 'k3Jx9QeV0mZ4tB8wL2aN6cR1yH5uD7fG';

function event(headers: Record<string, string>) {
  return {
    headers: { host: 'abc123.execute-api.eu-west-1.amazonaws.com', ...headers },
    requestContext: { http: { sourceIp: '130.176.0.1' } },
  };
}

describe('functions/edge-viewer.ts', () => {
  it("takes the viewer's address from a request that came through the edge, and removes the edge's headers", () => {
    const e = event({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_IP_HEADER]: '198.51.100.11' });
    applyEdgeViewer(e, SECRET);
    expect(e.requestContext.http.sourceIp).toBe('198.51.100.11');
    expect(e.headers).toEqual({ host: 'abc123.execute-api.eu-west-1.amazonaws.com' });
    const v6 = event({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_IP_HEADER]: '2001:db8::7' });
    applyEdgeViewer(v6, SECRET);
    expect(v6.requestContext.http.sourceIp).toBe('2001:db8::7');
  });

  it('keeps the gateway address when the secret is missing, wrong or not configured, or the address is not one', () => {
    const cases: [Record<string, string>, string | undefined][] = [
      [{ [VIEWER_IP_HEADER]: '198.51.100.11' }, SECRET],
      [{ [EDGE_SECRET_HEADER]: 'guess', [VIEWER_IP_HEADER]: '198.51.100.11' }, SECRET],
      [{ [EDGE_SECRET_HEADER]: `${SECRET}x`, [VIEWER_IP_HEADER]: '198.51.100.11' }, SECRET],
      [{ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_IP_HEADER]: '198.51.100.11' }, undefined],
      [{ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_IP_HEADER]: 'evil, 1.2.3.4' }, SECRET],
    ];
    for (const [headers, secret] of cases) {
      const e = event(headers);
      applyEdgeViewer(e, secret);
      expect(e.requestContext.http.sourceIp).toBe('130.176.0.1');
      // The app never sees either header, vouched for or not.
      expect(Object.keys(e.headers)).toEqual(['host']);
    }
  });
});
