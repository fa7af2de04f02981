import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { AppDeps } from '@idv/api';
import { analyzeImages, warmUpAnalyzer } from '@idv/vision';
import { testApp, testStore } from './stack.ts';

/** The app with the real in-process analyzer (ONNX models) and its secrets. */
export async function verifyApp(overrides: Partial<AppDeps> = {}) {
  await warmUpAnalyzer();
  return testApp({ analyzer: { analyze: analyzeImages }, urlSigningKey: randomBytes(32), ...overrides });
}

/** A multipart body with the given image parts. */
export function imageForm(parts: Record<string, Uint8Array | string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value)], { type: 'image/jpeg' }), `${name}.jpg`);
  }
  return form;
}

/** Keys of stored objects for one organisation (to prove what is or is not kept). */
export async function storedImageKeys(orgId: string): Promise<string[]> {
  const store = testStore();
  const out = await store.clients.s3.send(
    new ListObjectsV2Command({ Bucket: store.config.bucketName, Prefix: `images/${orgId}/` }),
  );
  return (out.Contents ?? []).map((o) => o.Key ?? '');
}
