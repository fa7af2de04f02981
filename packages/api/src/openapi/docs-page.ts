/**
 * A self-contained API reference page rendered on the server from the generated OpenAPI
 * document: no script or stylesheet from a CDN, so it works offline and under a strict CSP.
 */
interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  security?: Record<string, unknown>[];
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );

const schemaText = (schema: unknown) => escapeHtml(JSON.stringify(schema, null, 2));

export function renderDocsPage(doc: OpenApiDoc): string {
  const sections: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? [])
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${escapeHtml(p.description ?? '')}</td></tr>`,
        )
        .join('');
      const body = Object.entries(op.requestBody?.content ?? {})
        .map(
          ([type, c]) => `<p>Body (<code>${escapeHtml(type)}</code>)</p><pre>${schemaText(c.schema)}</pre>`,
        )
        .join('');
      const responses = Object.entries(op.responses ?? {})
        .map(([status, r]) => {
          const schema = Object.values(r.content ?? {})[0]?.schema;
          return `<details><summary><b>${escapeHtml(status)}</b> ${escapeHtml(r.description ?? '')}</summary>${schema ? `<pre>${schemaText(schema)}</pre>` : ''}</details>`;
        })
        .join('');
      sections.push(`<section id="${escapeHtml(`${method}-${path}`)}">
<h2><span class="m ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h2>
<p><b>${escapeHtml(op.summary ?? '')}</b></p>
<p>${escapeHtml(op.description ?? '')}</p>
${op.security?.length ? `<p>Auth: ${escapeHtml(op.security.map((s) => Object.keys(s).join(', ')).join(' or '))}</p>` : ''}
${params ? `<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Description</th></tr>${params}</table>` : ''}
${body}
<h3>Responses</h3>${responses}
</section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(doc.info.title)} — API reference</title>
<style>
body{font-family:system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1b1f24}
section{border-top:1px solid #ddd;padding:1rem 0}pre{background:#f5f6f8;padding:.75rem;overflow:auto;font-size:.8rem}
.m{display:inline-block;padding:.1rem .4rem;border-radius:4px;color:#fff;font-size:.8rem;background:#555}
.get{background:#2f6f3e}.post{background:#1f5fa8}.delete{background:#a83a1f}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left}
</style></head><body>
<h1>${escapeHtml(doc.info.title)} <small>v${escapeHtml(doc.info.version)}</small></h1>
<p>${escapeHtml(doc.info.description ?? '')}</p>
<p>Machine-readable description: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
${sections.join('\n')}
</body></html>`;
}
