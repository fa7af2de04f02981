import { describe, expect, it } from 'vitest';
import {
  decisionCounts,
  noteDecision,
  profiled,
  startProfile,
  stopProfile,
} from '../../src/runtime/profile.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  it("counts a step's inner model runs once, under the model", async () => {
    startProfile();
    const t0 = performance.now();
    await profiled('step', 'mrz-read-both', 'TD3', async () => {
      await pause(5);
      await profiled('model', 'mrz-crnn', '1x1x32x600', () => pause(60));
      await profiled('model', 'ocr-rec', '1x3x48x900', () => pause(60));
    });
    const wall = performance.now() - t0;
    const events = stopProfile();
    const step = events.find((e) => e.kind === 'step')!;
    const models = events.filter((e) => e.kind === 'model');
    expect(models.every((m) => m.ms >= 55)).toBe(true);
    // The step's own time is its wall time less its model runs', not the whole span.
    const modelMs = models.reduce((s, m) => s + m.ms, 0);
    expect(step.ms).toBeLessThanOrEqual(wall - modelMs + 1);
    expect(models.every((m) => m.start >= step.start)).toBe(true);
  });

  it('records decisions only while a profile is taken, and counts them', () => {
    noteDecision('mrz-cascade', 'stopped sure');
    startProfile();
    noteDecision('mrz-cascade', 'stopped sure');
    noteDecision('mrz-cascade', 'voted: check digit failing');
    noteDecision('mrz-cascade', 'stopped sure');
    noteDecision('other', 'stopped sure');
    expect(decisionCounts(stopProfile(), 'mrz-cascade')).toEqual([
      ['stopped sure', 2],
      ['voted: check digit failing', 1],
    ]);
  });
});
