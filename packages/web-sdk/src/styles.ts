/**
 * The flow's styles, scoped under `.vn-capture` so they never touch the customer's page.
 * Mobile first; text and controls meet WCAG AA contrast; targets are at least 44 px.
 */
export const STYLES = `
.vn-capture{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff;max-width:480px;margin:0 auto;padding:16px;box-sizing:border-box}
.vn-capture *{box-sizing:border-box}
.vn-capture h2{font-size:1.35rem;margin:.5rem 0 1rem;outline:none}
.vn-capture p{margin:.5rem 0}
.vn-capture .vn-top{display:flex;justify-content:space-between;align-items:center;gap:8px;font-size:.9rem;color:#444}
.vn-capture button,.vn-capture .vn-file{display:block;width:100%;min-height:48px;margin:.6rem 0;padding:.7rem 1rem;border-radius:10px;border:2px solid #0b57d0;font:inherit;font-weight:600;text-align:center;cursor:pointer}
.vn-capture .vn-primary{background:#0b57d0;color:#fff}
.vn-capture .vn-secondary,.vn-capture .vn-file{background:#fff;color:#0b57d0}
.vn-capture .vn-lang{width:auto;min-height:44px;margin:0;padding:.3rem .8rem;border-width:1px}
.vn-capture button:focus-visible,.vn-capture .vn-file:focus-within,.vn-capture input:focus-visible{outline:3px solid #f2a900;outline-offset:2px}
.vn-capture button:disabled{opacity:.5;cursor:not-allowed}
.vn-capture fieldset{border:0;padding:0;margin:0 0 1rem}
.vn-capture legend{font-weight:600;margin-bottom:.5rem}
.vn-capture label.vn-choice{display:flex;align-items:center;gap:.6rem;min-height:48px;padding:.5rem .8rem;border:1px solid #767676;border-radius:10px;margin:.4rem 0}
.vn-capture .vn-view{position:relative;width:100%;aspect-ratio:3/4;background:#111;border-radius:12px;overflow:hidden}
.vn-capture .vn-view video,.vn-capture .vn-view img{width:100%;height:100%;object-fit:cover;display:block}
.vn-capture .vn-view img{object-fit:contain}
.vn-capture input[type=radio]{width:22px;height:22px;margin:0}
.vn-capture .vn-frame{position:absolute;left:50%;top:50%;transform:translate(-50%,-50%);width:88%;border:3px solid #fff;border-radius:10px;box-shadow:0 0 0 100vmax rgba(0,0,0,.45);pointer-events:none}
.vn-capture .vn-frame.vn-oval{width:62%;border-radius:50%}
.vn-capture .vn-file input{position:absolute;width:1px;height:1px;opacity:0}
.vn-capture .vn-note{padding:.7rem .9rem;border-radius:10px;background:#f1f4f9}
.vn-capture .vn-warn{background:#fff4e5;border-left:4px solid #b35c00}
.vn-capture .vn-ok{background:#e8f5ec;border-left:4px solid #1e7b34}
.vn-capture progress{width:100%;height:14px}
`;
