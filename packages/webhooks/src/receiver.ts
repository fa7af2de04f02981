/**
 * The signature scheme is defined once, in the public client package, so that the service signs
 * and receivers check with the same code; this module keeps the `@idv/webhooks/receiver` import.
 */
export * from '@idv/client/webhook-signature';
