import { spawnSync } from 'node:child_process';

/** DynamoDB Local is a Java program; it needs Java 17 or newer. */
export const MIN_JAVA_MAJOR = 17;

export function checkJava(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error(
      `Java ${MIN_JAVA_MAJOR}+ is needed to run DynamoDB Local, and no 'java' was found on PATH.\n` +
        'Install it with: apt-get update && apt-get install -y openjdk-17-jre-headless',
    );
  }
  // `java -version` prints to stderr, e.g. 'openjdk version "17.0.15" 2025-04-15'.
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  const major = match ? (match[1] === '1' ? Number(match[2]) : Number(match[1])) : Number.NaN;
  if (!(major >= MIN_JAVA_MAJOR)) {
    throw new Error(
      `DynamoDB Local needs Java ${MIN_JAVA_MAJOR}+, found: ${result.stderr.split('\n')[0]}.\n` +
        'Install it with: apt-get update && apt-get install -y openjdk-17-jre-headless',
    );
  }
}
