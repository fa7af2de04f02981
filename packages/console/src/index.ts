export { can, type Permission, ROLE_PERMISSIONS } from './auth/permissions.ts';
export { createConsole, deriveConsoleSessionKey, mountConsole } from './console-app.ts';
export type { ConsoleOptions } from './env.ts';
