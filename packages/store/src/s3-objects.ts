import { DeleteObjectsCommand, GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';

/**
 * The S3 object calls both buckets make the same way (the images bucket, images/image-store.ts,
 * and the direct uploads' staging bucket, uploads/upload-store.ts): read a whole object or learn
 * that it is not there, and delete a list of keys in one request.
 */

/** S3 answers a missing object with NoSuchKey on GET and a bare 404 (NotFound) on HEAD. */
export function isMissingObject(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** The object's bytes and user metadata, or null when there is no object at that key. */
export async function getObjectBytes(
  s3: S3Client,
  bucket: string,
  key: string,
): Promise<{ bytes: Uint8Array; metadata: Record<string, string> } | null> {
  try {
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const bytes = await out.Body?.transformToByteArray();
    return bytes ? { bytes, metadata: out.Metadata ?? {} } : null;
  } catch (error) {
    if (isMissingObject(error)) return null;
    throw error;
  }
}

/** Deletes the keys in one request (up to S3's 1,000 per call; an empty list sends nothing). */
export async function deleteObjects(s3: S3Client, bucket: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await s3.send(
    new DeleteObjectsCommand({
      Bucket: bucket,
      Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
    }),
  );
}
