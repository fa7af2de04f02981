import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { followStartedService, type StartedService } from '../../support/started-service.ts';

/**
 * The real `npm start` as a user runs it, in a process group of its own (npm, its shell, tsx,
 * the service and DynamoDB Local's Java all share it, as they share a terminal's), so that a
 * test can do what a terminal or an operator does to the whole group: Ctrl-C (SIGINT) or kill -9.
 */
export interface ServiceProcess extends StartedService {
  /** The group id (the npm process's pid): the target of `kill -- -<pgid>`. */
  pgid: number;
}

export function startService(env: Record<string, string>): ServiceProcess {
  const child = spawn('npm', ['start'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, as a terminal's foreground job has
  });
  const pgid = child.pid;
  if (pgid === undefined) throw new Error('npm start did not spawn');
  return { ...followStartedService(child), pgid };
}

/** Sends `signal` to every process of the group at once (what `kill -9 -- -<pgid>` does). */
export function signalGroup(service: ServiceProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-service.pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

interface ProcessInfo {
  pid: number;
  state: string;
  pgid: number;
  cmdline: string;
}

/** Every process on the machine, from /proc (state, group and command line). */
function processes(): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      out.push({ pid: Number(name), state: fields[0] ?? '', pgid: Number(fields[2]), cmdline });
    } catch {
      // the process ended while being read
    }
  }
  return out;
}

/**
 * The live processes (zombies excluded: they hold no port, file or memory) that belong to the
 * service: its group, or any process whose command line names its data folder (DynamoDB Local
 * runs with `-dbPath <DATA_DIR>/dynamodb`, so a Java left behind outside the group is seen too).
 */
export function survivors(service: ServiceProcess, dataDir: string): ProcessInfo[] {
  return processes().filter(
    (p) =>
      p.state !== 'Z' && p.pid !== process.pid && (p.pgid === service.pgid || p.cmdline.includes(dataDir)),
  );
}

/** Waits until no live process of the service is left; returns those still alive after `timeoutMs`. */
export async function waitForNoSurvivors(
  service: ServiceProcess,
  dataDir: string,
  timeoutMs = 15_000,
): Promise<ProcessInfo[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = survivors(service, dataDir);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}
