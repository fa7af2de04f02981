import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * DynamoDB Local is a Java child of the service. A `kill -9` of the service alone (not of its
 * whole process group) cannot run any exit handler, so the Java outlives it, still holding the
 * data folder's database file and its memory. The pid is written beside the data, and the next
 * start on the same folder ends the process left behind before starting its own, so two
 * DynamoDB Locals never share one database file.
 */
const PID_FILE = 'dynamodb.pid';

export function recordDynamoPid(dynamoDir: string, pid: number | undefined): void {
  if (pid !== undefined) writeFileSync(join(dynamoDir, PID_FILE), String(pid));
}

export function forgetDynamoPid(dynamoDir: string): void {
  rmSync(join(dynamoDir, PID_FILE), { force: true });
}

/**
 * Ends the DynamoDB Local a previous run left on `dynamoDir`, if one is alive. Only a process
 * whose command line is DynamoDB Local on this very folder is touched: a pid reused by another
 * program is left alone. Returns the pid ended, if any.
 */
export async function endOrphanedDynamo(dynamoDir: string): Promise<number | undefined> {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dynamoDir, PID_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 1 || !isDynamoOn(pid, dynamoDir)) {
    forgetDynamoPid(dynamoDir);
    return undefined;
  }
  process.kill(pid, 'SIGKILL');
  const deadline = Date.now() + 10_000;
  while (isDynamoOn(pid, dynamoDir) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  forgetDynamoPid(dynamoDir);
  return pid;
}

/** Is `pid` a live (not zombie) DynamoDB Local with `-dbPath dynamoDir`? From /proc (Linux). */
function isDynamoOn(pid: number, dynamoDir: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.some((a) => a.includes('DynamoDBLocal')) && args[args.indexOf('-dbPath') + 1] === dynamoDir;
  } catch {
    return false; // no such process (or no /proc: nothing to reap there)
  }
}
