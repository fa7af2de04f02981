// Local-only entry point (not bundled into Lambda functions): the stand-in servers.

export * from './local/ports.ts';
export { ensureResources } from './local/resources.ts';
export * from './local/seed.ts';
export * from './local/servers.ts';
