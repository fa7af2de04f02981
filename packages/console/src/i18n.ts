import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

export type Lang = 'en' | 'fr';

const en = {
  title: 'Operator console',
  signIn: 'Sign in',
  signOut: 'Sign out',
  email: 'Email',
  password: 'Password',
  badCredentials: 'Wrong email or password.',
  lockedOut: 'Too many failed attempts. Try again in a few minutes.',
  badForm: 'The form expired. Please try again.',
  reviewQueue: 'Review queue',
  reviewEmpty: 'No verification waits for a decision.',
  created: 'Created',
  score: 'Score',
  mode: 'Mode',
  document: 'Document',
  checks: 'Checks',
  note: 'Note (optional, up to 2000 characters)',
  approve: 'Approve',
  reject: 'Reject',
  decided: 'Decision recorded.',
  alreadyDecided: 'This verification was already decided.',
  noteTooLong: 'The note is too long (2000 characters at most).',
  notFound: 'Not found.',
  forbidden: 'Your role does not allow this action.',
  readOnly: 'Your role can see the queue but not decide.',
  language: 'Français',
  apiKeys: 'API keys',
  createKey: 'Create a key',
  keyCreated: 'Copy this key now: it will not be shown again.',
  prefix: 'Prefix',
  state: 'State',
  active: 'active',
  revoked: 'revoked',
  revoke: 'Revoke',
  keyRevoked: 'Key revoked.',
  liveNotEnabled: 'Live mode is not active for your organisation yet.',
  noKeys: 'No key yet.',
} as const;

export type Messages = { [K in keyof typeof en]: string };

const fr: Messages = {
  title: "Console d'exploitation",
  signIn: 'Se connecter',
  signOut: 'Se déconnecter',
  email: 'E-mail',
  password: 'Mot de passe',
  badCredentials: 'E-mail ou mot de passe incorrect.',
  lockedOut: 'Trop de tentatives échouées. Réessayez dans quelques minutes.',
  badForm: 'Le formulaire a expiré. Veuillez réessayer.',
  reviewQueue: 'File de revue',
  reviewEmpty: "Aucune vérification n'attend de décision.",
  created: 'Créée',
  score: 'Score',
  mode: 'Mode',
  document: 'Document',
  checks: 'Contrôles',
  note: "Note (facultative, jusqu'à 2000 caractères)",
  approve: 'Approuver',
  reject: 'Rejeter',
  decided: 'Décision enregistrée.',
  alreadyDecided: 'Cette vérification a déjà été décidée.',
  noteTooLong: 'La note est trop longue (2000 caractères au plus).',
  notFound: 'Introuvable.',
  forbidden: 'Votre rôle ne permet pas cette action.',
  readOnly: 'Votre rôle permet de voir la file, pas de décider.',
  language: 'English',
  apiKeys: 'Clés API',
  createKey: 'Créer une clé',
  keyCreated: 'Copiez cette clé maintenant : elle ne sera plus affichée.',
  prefix: 'Préfixe',
  state: 'État',
  active: 'active',
  revoked: 'révoquée',
  revoke: 'Révoquer',
  keyRevoked: 'Clé révoquée.',
  liveNotEnabled: "Le mode live n'est pas encore activé pour votre organisation.",
  noKeys: 'Aucune clé.',
};

export const MESSAGES: Record<Lang, Messages> = { en, fr };

const LANG_COOKIE = 'idv_lang';

/** `?lang=` (remembered in a cookie), else the cookie, else the browser's Accept-Language. */
export function pickLang(c: Context): Lang {
  const asked = c.req.query('lang');
  if (asked === 'en' || asked === 'fr') {
    setCookie(c, LANG_COOKIE, asked, { path: '/console', sameSite: 'Lax', maxAge: 365 * 86_400 });
    return asked;
  }
  const remembered = getCookie(c, LANG_COOKIE);
  if (remembered === 'en' || remembered === 'fr') return remembered;
  return /^\s*fr\b/i.test(c.req.header('accept-language') ?? '') ? 'fr' : 'en';
}
