/**
 * Behind CloudFront (infra/edge.ts) API Gateway's `sourceIp` is the edge server's address, not
 * the caller's, so every caller behind one edge location would share a rate-limit bucket. The
 * edge's function writes the viewer's address into `x-idv-viewer-ip` (infra/edge/body-limit.js),
 * and CloudFront adds a per-stage secret origin header: only a request that carries the secret
 * came through the edge, so only then is the viewer address taken as the caller's. A request
 * straight to the execute-api URL keeps the gateway's own `sourceIp`, whatever it claims. Both
 * headers are removed before the app sees the request.
 */
import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

export const EDGE_SECRET_HEADER = 'x-idv-edge-secret';
export const VIEWER_IP_HEADER = 'x-idv-viewer-ip';

/** The parts of an API Gateway v2 event read and written here. */
export interface EdgeViewerEvent {
  headers?: Record<string, string | undefined>;
  requestContext?: { http?: { sourceIp?: string } };
}

function sameSecret(presented: string, secret: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Sets the event's `sourceIp` to the viewer's when the edge vouches for it; strips the edge's headers. */
export function applyEdgeViewer(event: EdgeViewerEvent, secret: string | undefined): void {
  const headers = event.headers;
  if (!headers) return;
  const presented = headers[EDGE_SECRET_HEADER];
  const viewer = headers[VIEWER_IP_HEADER]?.trim();
  delete headers[EDGE_SECRET_HEADER];
  delete headers[VIEWER_IP_HEADER];
  if (!secret || !presented || !sameSecret(presented, secret)) return;
  if (!viewer || !isIP(viewer) || !event.requestContext?.http) return;
  event.requestContext.http.sourceIp = viewer;
}
