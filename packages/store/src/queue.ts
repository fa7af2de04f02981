import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';

/** SQS's hard ceiling on a message delay (15 minutes). Longer waits are reached by re-enqueueing. */
export const MAX_DELAY_SECONDS = 900;

/** One received message, its JSON body already parsed. */
export interface ReceivedMessage<T> {
  body: T;
  messageId: string;
  receiptHandle: string;
  /** How many times SQS has handed this message out (1 on the first receive). */
  receiveCount: number;
}

export interface ReceiveOptions {
  /** Long-poll wait, 0 to 20 seconds (SQS's maximum). */
  waitSeconds?: number;
  /** 1 to 10 (SQS's maximum per call). */
  maxMessages?: number;
  /** Overrides the queue's visibility timeout for these messages. */
  visibilityTimeoutSeconds?: number;
  /** Aborts the long poll (used to stop a worker promptly). */
  abortSignal?: AbortSignal;
}

/**
 * A queue whose message bodies are JSON. The URL is either given (AWS injects it) or resolved
 * once by name (locally). Bodies that are not JSON are handed back as `null` so the consumer can
 * drop them instead of looping on them.
 */
export class JsonQueue<T> {
  private url: Promise<string> | undefined;

  constructor(
    private readonly sqs: SQSClient,
    private readonly target: { url?: string; name: string },
  ) {}

  queueUrl(): Promise<string> {
    this.url ??= this.target.url
      ? Promise.resolve(this.target.url)
      : this.sqs.send(new GetQueueUrlCommand({ QueueName: this.target.name })).then((out) => {
          if (!out.QueueUrl) throw new Error(`queue ${this.target.name} has no URL`);
          return out.QueueUrl;
        });
    // A failed resolution is not cached: the next call tries again.
    this.url.catch(() => {
      this.url = undefined;
    });
    return this.url;
  }

  /** Sends one message; `delaySeconds` is clamped to SQS's 0..900 and rounded up. */
  async send(body: T, options: { delaySeconds?: number } = {}): Promise<string | undefined> {
    const delay = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(options.delaySeconds ?? 0)));
    const out = await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: await this.queueUrl(),
        MessageBody: JSON.stringify(body),
        DelaySeconds: delay || undefined,
      }),
    );
    return out.MessageId;
  }

  async receive(options: ReceiveOptions = {}): Promise<ReceivedMessage<T | null>[]> {
    const out = await this.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: await this.queueUrl(),
        WaitTimeSeconds: options.waitSeconds ?? 20,
        MaxNumberOfMessages: options.maxMessages ?? 10,
        VisibilityTimeout: options.visibilityTimeoutSeconds,
        MessageSystemAttributeNames: ['ApproximateReceiveCount'],
      }),
      { abortSignal: options.abortSignal },
    );
    return (out.Messages ?? []).map((m) => ({
      body: parseJson<T>(m.Body),
      messageId: m.MessageId ?? '',
      receiptHandle: m.ReceiptHandle ?? '',
      receiveCount: Number(m.Attributes?.ApproximateReceiveCount ?? 1),
    }));
  }

  async delete(receiptHandle: string): Promise<void> {
    await this.sqs.send(
      new DeleteMessageCommand({ QueueUrl: await this.queueUrl(), ReceiptHandle: receiptHandle }),
    );
  }

  /** Makes a received message visible again after `seconds` (0 = at once). */
  async changeVisibility(receiptHandle: string, seconds: number): Promise<void> {
    await this.sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: await this.queueUrl(),
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: Math.max(0, Math.min(43_200, Math.ceil(seconds))),
      }),
    );
  }
}

function parseJson<T>(text: string | undefined): T | null {
  if (text === undefined) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
