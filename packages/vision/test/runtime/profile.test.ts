import { describe, expect, it } from 'vitest';
import { profiled, startProfile, stopProfile } from '../../src/runtime/profile.ts';

describe('analysis profile', () => {
  it('records each operation with its input size only while a profile is taken', async () => {
    expect(await profiled('model', 'ocr-det', '1x3x480x640', async () => 1)).toBe(1);
    startProfile();
    await profiled('model', 'ocr-rec', '1x3x48x320', async () => 2);
    await expect(
      profiled(
        'decode',
        'normalize',
        () => '1370x1000',
        async () => Promise.reject(new Error('corrupt')),
      ),
    ).rejects.toThrow('corrupt');
    const events = stopProfile();
    expect(events.map((e) => [e.kind, e.name, e.detail])).toEqual([
      ['model', 'ocr-rec', '1x3x48x320'],
      ['decode', 'normalize', '1370x1000'],
    ]);
    for (const e of events) expect(e.ms).toBeGreaterThanOrEqual(0);
    await profiled('model', 'ocr-det', '1x3x480x640', async () => 3);
    expect(stopProfile()).toEqual([]);
  });
});
