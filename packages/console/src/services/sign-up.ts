import { type AppDeps, nowOf } from '@idv/api';
import { type ConsoleUser, isConditionFailure, type Organisation } from '@idv/store';

export interface SignUpInput {
  organisation: string;
  email: string;
  password: string;
}

/** What can be wrong with a sign-up form, per field (the page shows each beside its field). */
export type SignUpProblem =
  | 'organisation_missing'
  | 'organisation_too_long'
  | 'email_invalid'
  | 'email_taken'
  | 'password_too_short'
  | 'password_too_long';

export type SignUpErrors = Partial<Record<keyof SignUpInput, SignUpProblem>>;

export type SignUpResult =
  | { ok: true; user: ConsoleUser; org: Organisation }
  | { ok: false; errors: SignUpErrors };

export const ORGANISATION_NAME_MAX = 100;
/** Long enough to resist guessing behind the lock-out; the upper bound keeps scrypt's input sane. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;
const EMAIL_MAX = 254;
// Deliberately plain: one @, no spaces, a dot in the domain. Delivery is what proves an address.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateSignUp(input: SignUpInput): SignUpErrors {
  const errors: SignUpErrors = {};
  const name = input.organisation.trim();
  if (!name) errors.organisation = 'organisation_missing';
  else if (name.length > ORGANISATION_NAME_MAX) errors.organisation = 'organisation_too_long';
  const email = input.email.trim();
  if (!EMAIL.test(email) || email.length > EMAIL_MAX) errors.email = 'email_invalid';
  if ([...input.password].length < PASSWORD_MIN) errors.password = 'password_too_short';
  else if (input.password.length > PASSWORD_MAX) errors.password = 'password_too_long';
  return errors;
}

/**
 * Creates an organisation in test mode (live mode waits for the platform operator) with its
 * first application and its owner, in one transaction: the owner's write is conditional on the
 * email being free, so two sign-ups with one email can never both succeed, and a refused one
 * leaves no organisation behind. The audit journal of the new organisation opens with it.
 */
export async function signUp(deps: AppDeps, input: SignUpInput): Promise<SignUpResult> {
  const errors = validateSignUp(input);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const { store } = deps;
  const now = nowOf(deps);
  const email = input.email.trim().toLowerCase();
  const created = store.organisations.createItems(
    { name: input.organisation.trim(), appName: 'Default application', liveEnabled: false },
    now,
  );
  const owner = await store.users.createItems(
    { orgId: created.org.id, email, role: 'owner', password: input.password },
    now,
  );
  try {
    await store.transact([
      ...created.items,
      ...owner.items,
      store.audit.recordItem(
        {
          org_id: created.org.id,
          action: 'organisation.signed_up',
          actor: owner.user.id,
          resource_id: created.org.id,
          details: { name: created.org.name, email, mode: 'test' },
        },
        now,
      ),
    ]);
  } catch (error) {
    // The organisation's ids are new, so the one condition that can fail is the email's.
    if (isConditionFailure(error)) return { ok: false, errors: { email: 'email_taken' } };
    throw error;
  }
  return { ok: true, user: owner.user, org: created.org };
}
