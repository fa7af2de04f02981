import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { deleteObjects, getObjectBytes, isMissingObject } from '../s3-objects.ts';

/**
 * The staging bucket of direct uploads: the caller's browser or server PUTs each image there
 * with a presigned URL, so an image never travels through the API's gateway (6 MB cap). The
 * objects are the caller's plain bytes (the application's envelope can only be applied
 * server-side), so they live only until the verification that names them has read them, and a
 * lifecycle rule (infra/storage.ts) plus the daily purge remove the ones never used.
 */
export class UploadStore {
  constructor(
    private readonly s3: S3Client,
    /** A client whose endpoint is the one callers reach (the same on AWS). */
    private readonly presigner: S3Client,
    readonly bucket: string,
  ) {}

  /**
   * A presigned PUT whose signature covers the exact size and the content type: S3 refuses a
   * body of another length or type (403 SignatureDoesNotMatch), and the URL after it expires.
   */
  presignPut(
    key: string,
    contentType: string,
    size: number,
    expiresInSeconds: number,
    signedAt = new Date(),
  ): Promise<string> {
    return getSignedUrl(
      this.presigner,
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType, ContentLength: size }),
      {
        expiresIn: expiresInSeconds,
        signingDate: signedAt,
        signableHeaders: new Set(['content-type', 'content-length']),
      },
    );
  }

  /**
   * The origin callers PUT to (a page's CSP must allow it): read from a presigned URL, so it
   * is whatever the SDK addresses (the bucket's virtual host on AWS, the local server here).
   */
  async origin(): Promise<string> {
    this.originOnce ??= this.presignPut('uploads/origin', 'image/jpeg', 1, 60).then(
      (url) => new URL(url).origin,
    );
    return this.originOnce;
  }

  private originOnce: Promise<string> | undefined;

  /** Size and declared type of an uploaded object, or null when nothing was uploaded there. */
  async head(key: string): Promise<{ size: number; contentType: string } | null> {
    try {
      const out = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: out.ContentLength ?? 0, contentType: out.ContentType ?? '' };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    return (await getObjectBytes(this.s3, this.bucket, key))?.bytes ?? null;
  }

  /** For tests and tools: writes an object as a caller's upload would. */
  async putDirect(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType }),
    );
  }

  async deleteMany(keys: string[]): Promise<void> {
    await deleteObjects(this.s3, this.bucket, keys);
  }
}
