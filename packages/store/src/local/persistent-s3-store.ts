import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The local S3 server (fauxqs) keeps objects in memory only. Live-mode images must survive a
 * restart of `npm start` like every other piece of local data, so this subclass of fauxqs's
 * own store writes each object through to `<dir>/<bucket>/<encoded key>` and reloads them at
 * start. fauxqs does not export its store classes, so they are imported by file path.
 */

interface S3ObjectLike {
  key: string;
  body: Buffer;
  contentType: string;
  metadata: Record<string, string>;
}

interface S3StoreLike {
  createBucket(name: string): void;
  hasBucket(name: string): boolean;
  putObject(
    bucket: string,
    key: string,
    body: Buffer,
    contentType?: string,
    metadata?: Record<string, string>,
  ): S3ObjectLike;
  deleteObject(bucket: string, key: string): void;
  deleteObjects(bucket: string, keys: string[]): string[];
  completeMultipartUpload(uploadId: string, parts: { partNumber: number; etag: string }[]): S3ObjectLike;
}

type StoreClass<T> = new () => T;

/** fauxqs's dist folder, found the way Node searches node_modules (its exports hide it). */
function fauxqsDist(): string {
  const require = createRequire(import.meta.url);
  for (const dir of require.resolve.paths('fauxqs') ?? []) {
    const candidate = join(dir, 'fauxqs', 'dist');
    if (existsSync(join(candidate, 'app.js'))) return candidate;
  }
  throw new Error('fauxqs is not installed (run npm install)');
}

async function fauxqsModule<T>(relative: string): Promise<T> {
  return (await import(pathToFileURL(join(fauxqsDist(), relative)).href)) as T;
}

export async function fauxqsStoreClasses() {
  const { S3Store } = await fauxqsModule<{ S3Store: StoreClass<S3StoreLike> }>('./s3/s3Store.js');
  const { SqsStore } = await fauxqsModule<{ SqsStore: StoreClass<object> }>('./sqs/sqsStore.js');
  const { SnsStore } = await fauxqsModule<{ SnsStore: StoreClass<object> }>('./sns/snsStore.js');
  return { S3Store, SqsStore, SnsStore };
}

export async function createPersistentS3Store(dir: string): Promise<S3StoreLike> {
  const { S3Store } = await fauxqsStoreClasses();
  mkdirSync(dir, { recursive: true });

  const objectPath = (bucket: string, key: string) => join(dir, bucket, encodeURIComponent(key));
  let loading = false;

  class PersistentS3Store extends S3Store {
    override createBucket(name: string): void {
      super.createBucket(name);
      mkdirSync(join(dir, name), { recursive: true });
    }

    override putObject(
      bucket: string,
      key: string,
      body: Buffer,
      contentType?: string,
      metadata?: Record<string, string>,
    ): S3ObjectLike {
      const object = super.putObject(bucket, key, body, contentType, metadata);
      if (!loading) persist(bucket, object);
      return object;
    }

    override completeMultipartUpload(uploadId: string, parts: { partNumber: number; etag: string }[]) {
      const object = super.completeMultipartUpload(uploadId, parts);
      const bucket = findBucketOf(object.key);
      if (bucket) persist(bucket, object);
      return object;
    }

    override deleteObject(bucket: string, key: string): void {
      super.deleteObject(bucket, key);
      rmSync(objectPath(bucket, key), { force: true });
      rmSync(`${objectPath(bucket, key)}.meta.json`, { force: true });
    }

    override deleteObjects(bucket: string, keys: string[]): string[] {
      const deleted = super.deleteObjects(bucket, keys);
      for (const key of keys) {
        rmSync(objectPath(bucket, key), { force: true });
        rmSync(`${objectPath(bucket, key)}.meta.json`, { force: true });
      }
      return deleted;
    }
  }

  const store = new PersistentS3Store();

  function persist(bucket: string, object: S3ObjectLike): void {
    const path = objectPath(bucket, object.key);
    mkdirSync(join(dir, bucket), { recursive: true });
    // Write to a temporary name, then rename: a crash never leaves half an object.
    writeFileSync(`${path}.tmp`, object.body);
    writeFileSync(
      `${path}.meta.json`,
      JSON.stringify({ contentType: object.contentType, metadata: object.metadata }),
    );
    renameSync(`${path}.tmp`, path);
  }

  // Multipart completion does not tell the bucket; find the one that now holds the key.
  function findBucketOf(key: string): string | undefined {
    for (const bucket of readdirSync(dir)) {
      if (store.hasBucket(bucket)) {
        try {
          // getObject throws when absent.
          (store as unknown as { getObject(b: string, k: string): unknown }).getObject(bucket, key);
          return bucket;
        } catch {}
      }
    }
    return undefined;
  }

  loading = true;
  for (const bucket of readdirSync(dir)) {
    store.createBucket(bucket);
    for (const file of readdirSync(join(dir, bucket))) {
      if (file.endsWith('.meta.json') || file.endsWith('.tmp')) continue;
      const path = join(dir, bucket, file);
      let meta: { contentType?: string; metadata?: Record<string, string> } = {};
      try {
        meta = JSON.parse(readFileSync(`${path}.meta.json`, 'utf8'));
      } catch {}
      store.putObject(
        bucket,
        decodeURIComponent(file),
        readFileSync(path),
        meta.contentType,
        meta.metadata ?? {},
      );
    }
  }
  loading = false;
  return store;
}
