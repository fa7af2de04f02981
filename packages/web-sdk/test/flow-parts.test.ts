import { describe, expect, it } from 'vitest';
import { NetworkFailure, withNetworkRetry } from '../src/api-client.ts';
import { capturePageHtml } from '../src/capture-page.ts';
import { browserLocale, messages } from '../src/i18n.ts';
import { fitLongSide } from '../src/image.ts';
import { documentChoices, stepsFor } from '../src/steps.ts';

describe('capture flow parts', () => {
  it('asks for the photos each document needs', () => {
    expect(stepsFor('passport').map((s) => s.kind)).toEqual(['front', 'selfie']);
    expect(stepsFor('cni').map((s) => s.kind)).toEqual(['front', 'back', 'selfie']);
    expect(stepsFor('cni_old').map((s) => s.kind)).toEqual(['front', 'selfie']);
    // The paper card page is taller than wide; the ID-1 card is wider.
    expect(stepsFor('cni_old')[0]?.aspect).toBeLessThan(1);
    expect(stepsFor('cni')[0]?.aspect).toBeCloseTo(1.586, 2);
  });

  it('offers only the documents the session allows', () => {
    expect(documentChoices(undefined)).toEqual(['passport', 'cni', 'cni_old']);
    expect(documentChoices('passport')).toEqual(['passport']);
    expect(documentChoices('cni')).toEqual(['cni', 'cni_old']);
  });

  it('compresses to a long side of 2000 px and never enlarges', () => {
    expect(fitLongSide(4000, 3000)).toEqual({ width: 2000, height: 1500 });
    expect(fitLongSide(3024, 4032)).toEqual({ width: 1500, height: 2000 });
    expect(fitLongSide(1280, 720)).toEqual({ width: 1280, height: 720 });
  });

  it('follows the browser language and has every text in both languages', () => {
    expect(browserLocale(['fr-FR', 'en'])).toBe('fr');
    expect(browserLocale(['de', 'en-GB'])).toBe('en');
    expect(browserLocale(['de'])).toBe('en');
    const en = messages('en');
    const fr = messages('fr');
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    for (const issue of ['not_a_document', 'wrong_side', 'cut_off', 'obstructed', 'glare', 'illegible']) {
      expect(en[`issue_${issue}` as keyof typeof en]).toBeTruthy();
      expect(fr[`issue_${issue}` as keyof typeof fr]).not.toBe(en[`issue_${issue}` as keyof typeof en]);
    }
  });

  it('retries an upload cut by the network, never one the API refused', async () => {
    let calls = 0;
    const result = await withNetworkRetry(
      async () => {
        calls += 1;
        if (calls < 3) throw new NetworkFailure('cut');
        return 'ok';
      },
      () => undefined,
      [0, 0, 0],
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    let refused = 0;
    await expect(
      withNetworkRetry(
        async () => {
          refused += 1;
          throw new Error('422');
        },
        () => undefined,
        [0, 0],
      ),
    ).rejects.toThrow('422');
    expect(refused).toBe(1);
    await expect(
      withNetworkRetry(
        async () => {
          throw new NetworkFailure('down');
        },
        () => undefined,
        [0],
      ),
    ).rejects.toBeInstanceOf(NetworkFailure);
  });

  it('builds a capture page that reads the token from the fragment and cannot be broken out of', () => {
    const html = capturePageHtml({ sessionId: 'ses_abc', documentType: 'passport', sdkPath: '/sdk/v1.js' });
    expect(html).toContain("import { mount } from '/sdk/v1.js'");
    expect(html).toContain('location.hash');
    expect(html).toContain('"documentType":"passport"');
    expect(html).toContain('name="viewport"');
    const hostile = capturePageHtml({
      sessionId: 'ses_</script><script>x',
      documentType: null,
      sdkPath: '/sdk/v1.js',
    });
    expect(hostile).not.toContain('</script><script>x');
  });
});
