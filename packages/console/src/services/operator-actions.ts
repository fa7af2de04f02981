import { type AppDeps, nowOf } from '@idv/api';
import { isConditionFailure, type PlatformOperator } from '@idv/store';

/** What the platform operator can do to an organisation. */
export type OperatorAction = 'activate_live' | 'suspend' | 'unsuspend';

export const OPERATOR_ACTIONS: readonly OperatorAction[] = ['activate_live', 'suspend', 'unsuspend'];

const CHANGE = {
  activate_live: { flag: 'live_enabled', value: true, audit: 'organisation.live_activated' },
  suspend: { flag: 'suspended', value: true, audit: 'organisation.suspended' },
  unsuspend: { flag: 'suspended', value: false, audit: 'organisation.unsuspended' },
} as const;

export type OperatorActionResult = 'done' | 'unchanged' | 'not_found';

/**
 * Applies an operator action to an organisation together with its audit entry (one
 * transaction, written in the organisation's own journal with the operator as author), so no
 * change goes unaudited and a repeated action (already live, already suspended) writes nothing.
 */
export async function applyOperatorAction(
  deps: AppDeps,
  operator: PlatformOperator,
  orgId: string,
  action: OperatorAction,
  reason?: string,
): Promise<OperatorActionResult> {
  const { store } = deps;
  const change = CHANGE[action];
  const now = nowOf(deps);
  try {
    await store.transact([
      store.organisations.setFlagItem(orgId, change.flag, change.value),
      store.audit.recordItem(
        {
          org_id: orgId,
          action: change.audit,
          actor: operator.id,
          resource_id: orgId,
          details: {
            by: 'platform_operator',
            operator_email: operator.email,
            [change.flag]: change.value,
            reason: reason?.trim() ? reason.trim().slice(0, 500) : null,
          },
        },
        now,
      ),
    ]);
    return 'done';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (await store.organisations.get(orgId)) ? 'unchanged' : 'not_found';
  }
}
