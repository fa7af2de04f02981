import type { S3Client } from '@aws-sdk/client-s3';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { deleteObjects, getObjectBytes } from '../s3-objects.ts';
import { decryptEnvelope, encryptEnvelope } from './envelope.ts';

/**
 * Images in S3, always encrypted by the application (envelope.ts) before they leave the
 * process. Bodies go up as bytes (Uint8Array), never streams; bodies above 8 MiB go up in
 * parts (the S3 API's multipart upload), which also keeps each request small.
 */
const MULTIPART_THRESHOLD = 8 * 1024 * 1024;
const PART_SIZE = 5 * 1024 * 1024; // S3's minimum part size (except the last)

export class ImageStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly masterKey: Uint8Array,
  ) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const body = encryptEnvelope(this.masterKey, bytes, key);
    // The stored object is ciphertext; its real type travels in metadata.
    const common = {
      Bucket: this.bucket,
      Key: key,
      ContentType: 'application/octet-stream',
      Metadata: { 'image-type': contentType },
    };
    if (body.byteLength <= MULTIPART_THRESHOLD) {
      await this.s3.send(new PutObjectCommand({ ...common, Body: new Uint8Array(body) }));
      return;
    }
    const { UploadId } = await this.s3.send(new CreateMultipartUploadCommand(common));
    try {
      const parts: { ETag: string | undefined; PartNumber: number }[] = [];
      for (let offset = 0, n = 1; offset < body.byteLength; offset += PART_SIZE, n++) {
        const chunk = new Uint8Array(body.subarray(offset, offset + PART_SIZE));
        const out = await this.s3.send(
          new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId, PartNumber: n, Body: chunk }),
        );
        parts.push({ ETag: out.ETag, PartNumber: n });
      }
      await this.s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      await this.s3
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId }))
        .catch(() => {});
      throw error;
    }
  }

  /** The decrypted image and its type, or null when the object does not exist. */
  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const object = await getObjectBytes(this.s3, this.bucket, key);
    if (!object) return null;
    return {
      bytes: decryptEnvelope(this.masterKey, object.bytes, key),
      contentType: object.metadata['image-type'] ?? 'application/octet-stream',
    };
  }

  /** Reads the raw stored object (ciphertext), for tests that prove nothing is in clear. */
  async getRaw(key: string): Promise<Uint8Array | null> {
    return (await getObjectBytes(this.s3, this.bucket, key))?.bytes ?? null;
  }

  async deleteMany(keys: string[]): Promise<void> {
    await deleteObjects(this.s3, this.bucket, keys);
  }
}
