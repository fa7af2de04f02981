import { randomBytes } from 'node:crypto';
import type { AppDeps } from '@idv/api';
import type { Role } from '@idv/store';
import { expect } from 'vitest';
import {
  createTestOrganisation,
  type TestOrganisation,
  testApp,
  testStore,
} from '../../../test/support/stack.ts';
import { mountConsole } from '../src/index.ts';

export * from '../../../test/support/stack.ts';
export { seedVerification } from '../../api/test/support.ts';

/** The API app with the console mounted, as `npm start` builds it. */
export function consoleApp(
  overrides: Partial<AppDeps> = {},
  lockout?: { maxFailures: number; windowSeconds: number },
) {
  const app = testApp(overrides);
  mountConsole(
    app,
    { store: testStore(), baseUrl: 'http://localhost:8787', ...overrides },
    {
      sessionKey: randomBytes(32),
      lockout,
    },
  );
  return app;
}

type ConsoleApp = ReturnType<typeof consoleApp>;

/**
 * A browser in miniature: keeps the cookies the console sets and sends them back, and reads
 * the CSRF token out of the last page, so tests post forms the way a browser would.
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  lastHtml = '';
  constructor(
    private readonly app: ConsoleApp,
    readonly origin = 'http://localhost',
  ) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const res = await this.app.request(`${this.origin}${path}`, {
      headers: { ...this.cookieHeader(), ...headers },
    });
    return this.keep(res);
  }

  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    const res = await this.app.request(`${this.origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.cookieHeader(), ...headers },
      body: new URLSearchParams(fields).toString(),
    });
    return this.keep(res);
  }

  /** The CSRF token of the last page's forms. */
  csrf(): string {
    const match = /name="csrf" value="([^"]+)"/.exec(this.lastHtml);
    if (!match?.[1]) throw new Error('no CSRF token on the last page');
    return match[1];
  }

  async signIn(email: string, password: string): Promise<Response> {
    await this.get('/console/sign-in');
    return this.post('/console/sign-in', { email, password, csrf: this.csrf() });
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  private async keep(res: Response): Promise<Response> {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    if ((res.headers.get('content-type') ?? '').includes('text/html')) {
      this.lastHtml = await res.clone().text();
    }
    return res;
  }
}

export interface ConsoleTeam {
  org: TestOrganisation;
  password: string;
  emails: Record<Role, string>;
}

/** An organisation with one console user of each role (all with the same password). */
export async function createTeam(options: { liveEnabled?: boolean } = {}): Promise<ConsoleTeam> {
  const org = await createTestOrganisation(options);
  const password = randomBytes(12).toString('base64url');
  const emails = {} as Record<Role, string>;
  for (const role of ['owner', 'admin', 'reviewer', 'developer'] as const) {
    emails[role] = `${role}+${org.orgId}@example.com`.toLowerCase();
    await testStore().users.create({ orgId: org.orgId, email: emails[role], role, password });
  }
  return { org, password, emails };
}

/** A browser signed in as the given role of the team. */
export async function signedIn(app: ConsoleApp, team: ConsoleTeam, role: Role): Promise<Browser> {
  const browser = new Browser(app);
  const res = await browser.signIn(team.emails[role], team.password);
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe('/console/reviews');
  return browser;
}
