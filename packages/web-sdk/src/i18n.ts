import type { Locale } from './types.ts';

/** Every text of the flow, in both languages; plain words, no jargon. */
const EN = {
  title: 'Identity check',
  intro: 'Photograph your identity document, then take a selfie. It takes about two minutes.',
  language: 'Français',
  languageLabel: 'Passer en français',
  chooseDocument: 'Which document do you have?',
  passport: 'Passport',
  cni: 'Biometric ID card',
  cni_old: 'Paper ID card (Niger)',
  start: 'Start',
  stepOf: (n: number, total: number) => `Step ${n} of ${total}`,
  step_passport_front: 'Photo of the passport page with your picture',
  step_cni_front: 'Photo of the front of the card',
  step_cni_back: 'Photo of the back of the card',
  step_cni_old_front: 'Photo of the open card, whole page',
  step_selfie: 'A selfie: your face, looking at the camera',
  hint_document: 'Lay the document flat in good light and fit it inside the frame.',
  hint_selfie: 'Remove glasses and hat; keep your face inside the oval.',
  takePhoto: 'Take the photo',
  pickFile: 'Use the camera app or a file',
  cameraUnavailable: 'The camera cannot be opened here. Use the button below to take or choose a photo.',
  checking: 'Checking the photo…',
  looksGood: 'The photo looks good.',
  notChecked: 'The photo could not be checked; you can still use it.',
  usePhoto: 'Use this photo',
  retake: 'Take it again',
  preview: 'Your photo',
  issue_not_a_document: 'We cannot see a document in this photo. Fill the frame with the document.',
  issue_wrong_side: 'This looks like the other side of the document. Turn it over.',
  issue_cut_off: 'Part of the document is outside the photo. Move back so that all four corners show.',
  issue_obstructed: 'Something hides part of the document (a finger?). Clear it and try again.',
  issue_glare: 'A reflection hides part of the document. Tilt it slightly or move away from the light.',
  issue_illegible: 'The text is not sharp enough. Hold still, in more light, and try again.',
  sending: 'Sending your photos…',
  retrying: 'The connection was cut. Trying again…',
  sendFailed: 'The photos could not be sent. Check your connection and try again.',
  tryAgain: 'Try again',
  doneTitle: 'Thank you, it is done',
  doneText: 'Your documents were received. You can close this page.',
  unreadable: 'A photo was too blurry to be read. Please take the photos again.',
  unavailable: 'The service cannot take your photos right now. Please try again later.',
  expired: 'This link has expired. Ask for a new one.',
  completed: 'This link was already used. Ask for a new one if needed.',
  invalidLink: 'This link is not valid. Ask for a new one.',
  slowDown: 'Too many attempts. Wait a minute and try again.',
  errorTitle: 'Something went wrong',
};

export type Messages = typeof EN;

const FR: Messages = {
  title: "Vérification d'identité",
  intro: "Photographiez votre pièce d'identité, puis prenez un selfie. Cela prend environ deux minutes.",
  language: 'English',
  languageLabel: 'Switch to English',
  chooseDocument: 'Quelle pièce avez-vous ?',
  passport: 'Passeport',
  cni: "Carte d'identité biométrique",
  cni_old: "Carte d'identité papier (Niger)",
  start: 'Commencer',
  stepOf: (n, total) => `Étape ${n} sur ${total}`,
  step_passport_front: 'Photo de la page du passeport avec votre photo',
  step_cni_front: 'Photo du recto de la carte',
  step_cni_back: 'Photo du verso de la carte',
  step_cni_old_front: 'Photo de la carte ouverte, page entière',
  step_selfie: "Un selfie : votre visage, face à l'objectif",
  hint_document: 'Posez la pièce à plat, bien éclairée, et placez-la dans le cadre.',
  hint_selfie: "Retirez lunettes et chapeau ; gardez le visage dans l'ovale.",
  takePhoto: 'Prendre la photo',
  pickFile: "Utiliser l'appareil photo ou un fichier",
  cameraUnavailable:
    "La caméra ne peut pas s'ouvrir ici. Utilisez le bouton ci-dessous pour prendre ou choisir une photo.",
  checking: 'Vérification de la photo…',
  looksGood: 'La photo est bonne.',
  notChecked: "La photo n'a pas pu être vérifiée ; vous pouvez quand même l'utiliser.",
  usePhoto: 'Utiliser cette photo',
  retake: 'Reprendre',
  preview: 'Votre photo',
  issue_not_a_document: 'Nous ne voyons pas de pièce sur cette photo. Remplissez le cadre avec la pièce.',
  issue_wrong_side: "Cela semble être l'autre face de la pièce. Retournez-la.",
  issue_cut_off: 'Une partie de la pièce sort de la photo. Reculez pour voir les quatre coins.',
  issue_obstructed: 'Quelque chose cache une partie de la pièce (un doigt ?). Dégagez-la et recommencez.',
  issue_glare: 'Un reflet cache une partie de la pièce. Inclinez-la un peu ou éloignez-vous de la lumière.',
  issue_illegible: "Le texte n'est pas assez net. Restez immobile, avec plus de lumière, et recommencez.",
  sending: 'Envoi de vos photos…',
  retrying: 'La connexion a été coupée. Nouvel essai…',
  sendFailed: "Les photos n'ont pas pu être envoyées. Vérifiez votre connexion et réessayez.",
  tryAgain: 'Réessayer',
  doneTitle: "Merci, c'est terminé",
  doneText: 'Vos documents ont bien été reçus. Vous pouvez fermer cette page.',
  unreadable: 'Une photo était trop floue pour être lue. Merci de reprendre les photos.',
  unavailable: 'Le service ne peut pas recevoir vos photos pour le moment. Réessayez plus tard.',
  expired: 'Ce lien a expiré. Demandez-en un nouveau.',
  completed: 'Ce lien a déjà été utilisé. Demandez-en un nouveau si besoin.',
  invalidLink: "Ce lien n'est pas valide. Demandez-en un nouveau.",
  slowDown: 'Trop de tentatives. Attendez une minute et réessayez.',
  errorTitle: 'Un problème est survenu',
};

export function messages(locale: Locale): Messages {
  return locale === 'fr' ? FR : EN;
}

/** The browser's language when it prefers French, else English. */
export function browserLocale(languages: readonly string[] | undefined): Locale {
  for (const lang of languages ?? []) {
    const base = lang.toLowerCase().slice(0, 2);
    if (base === 'fr') return 'fr';
    if (base === 'en') return 'en';
  }
  return 'en';
}
