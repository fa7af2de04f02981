import type { ApiApp } from '../../http/env.ts';
import { registerListLogs } from './list-logs.ts';

/** The request log: one operation, list. */
export function registerLogRoutes(app: ApiApp) {
  registerListLogs(app);
}
