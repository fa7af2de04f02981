import { readdirSync, readFileSync } from 'node:fs';

/** DynamoDB Local's Java process (started with `-port <port>`), from /proc. */
export function dynamoDbLocalPid(port: number): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const at = args.indexOf('-port');
      if (args.some((a) => a.includes('DynamoDBLocal')) && args[at + 1] === String(port)) return Number(name);
    } catch {
      // ended while being read
    }
  }
  return undefined;
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;

/** A process's CPU time (user + system, all threads), ms, from /proc/<pid>/stat. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after "pid (comm) ", in ticks.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}
