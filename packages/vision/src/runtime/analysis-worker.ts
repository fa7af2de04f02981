import { parentPort } from 'node:worker_threads';
import { analyzeImages, warmUpAnalyzer } from '../analyzer.ts';
import { precheckImage, readMrzLines } from '../session-helpers.ts';
import type { WorkerReply, WorkerTask } from './worker-messages.ts';

/**
 * The body of one analysis worker thread (runtime/worker-analyzer.ts starts it): its own warm
 * model sessions, one task at a time. onnxruntime-node runs a model synchronously on the thread
 * that calls it, so the models must run here, not on the HTTP thread, for the server to answer
 * while an analysis runs and for two analyses to use the two cores.
 */

const port = parentPort;
if (!port) throw new Error('analysis-worker.ts runs as a worker thread only');

async function run(task: WorkerTask): Promise<unknown> {
  switch (task.task) {
    case 'analyze':
      return analyzeImages(task.request);
    case 'precheck':
      return precheckImage(task.request.bytes, {
        documentType: task.request.documentType,
        side: task.request.side,
      });
    case 'readMrz':
      return readMrzLines(task.bytes);
  }
}

port.on('message', (task: WorkerTask) => {
  run(task).then(
    (value) => port.postMessage({ id: task.id, ok: true, value } satisfies WorkerReply),
    (error: unknown) => {
      const e = error instanceof Error ? error : new Error(String(error));
      port.postMessage({
        id: task.id,
        ok: false,
        error: { name: e.name, message: e.message, stack: e.stack },
      } satisfies WorkerReply);
    },
  );
});

// Ready only once every model is loaded: the pool sends no work before, so the first request
// never pays the load.
warmUpAnalyzer().then(
  () => port.postMessage({ ready: true } satisfies WorkerReply),
  (error: unknown) => {
    // Thrown outside any task: the thread exits with an error and the pool sees a failed start.
    throw error;
  },
);
