import { createHash } from 'node:crypto';
import type { SandboxCheckout } from './sandbox-checkout.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0;padding:3rem 1rem}
main{max-width:26rem;margin:0 auto;background:#fff;border-radius:.75rem;padding:2rem;box-shadow:0 2px 12px #0002}
h1{font-size:1.25rem;margin:0 0 .25rem}
.aviso{background:#fff4d6;border-radius:.5rem;padding:.5rem .75rem;font-size:.875rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.5rem 1rem}dt{color:#5b6475}dd{margin:0;font-weight:600}
form{display:inline}button{font:inherit;border:0;border-radius:.5rem;padding:.6rem 1.4rem;cursor:pointer}
.pagar{background:#1f6feb;color:#fff}.cancelar{background:#e4e7ec;color:#1d2330;margin-left:.5rem}
`;

/** The page's only style, allowed by its hash: no inline script, no other source. */
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * The sandbox checkout's Content-Security-Policy: nothing loads but its own style; its forms post
 * only to the API itself (and the dashboard it redirects to, at PUBLIC_BASE_URL).
 */
export function sandboxCheckoutPolicy(successUrl: string): string {
  const publicOrigin = new URL(successUrl).origin;
  return [
    "default-src 'none'",
    `style-src 'sha256-${STYLE_HASH}'`,
    `form-action 'self' ${publicOrigin}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

const price = (eur: string) => Number(eur).toLocaleString('pt-PT', { style: 'currency', currency: 'EUR' });

/** The sandbox's hosted checkout: the package, its price, "Pagar" and "Cancelar" (plain form POSTs). */
export function sandboxCheckoutPage(checkout: SandboxCheckout): string {
  const ref = escapeHtml(encodeURIComponent(checkout.reference));
  const action = `/payments/sandbox/checkout/${ref}`;
  const body =
    checkout.status === 'paid' || checkout.status === 'refunded'
      ? `<p>Este pagamento já foi concluído.</p><p><a href="${escapeHtml(checkout.successUrl)}">Voltar ao painel</a></p>`
      : `${checkout.status === 'pending' ? '' : `<p class="aviso">Estado atual: ${escapeHtml(checkout.status)}. Ainda pode pagar.</p>`}
<form method="post" action="${action}/pay"><button class="pagar" type="submit">Pagar</button></form>
<form method="post" action="${action}/cancel"><button class="cancelar" type="submit">Cancelar</button></form>`;
  return `<!doctype html>
<html lang="pt">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout de testes: ${escapeHtml(checkout.package.name)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Checkout de testes (sandbox)</h1>
<p class="aviso">Nenhum dinheiro é cobrado: este servidor não tem um fornecedor de pagamentos real.</p>
<dl>
<dt>Pacote</dt><dd>${escapeHtml(checkout.package.name)}</dd>
<dt>Créditos</dt><dd>${checkout.package.credits}</dd>
<dt>Preço</dt><dd>${escapeHtml(price(checkout.package.price_eur))}</dd>
<dt>Referência</dt><dd>${escapeHtml(checkout.reference)}</dd>
</dl>
${body}
</main>
</body>
</html>
`;
}
