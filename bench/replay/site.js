// The customer's page the replay benchmark records: a shop with a sign-up form, a long product list
// to scroll (and "load more"), tabs, a modal, a cart that changes as buttons are pressed, and a
// clock ticking in the header (a DOM change every second, as real pages have). posthog-js comes
// unchanged from node_modules, served by this site as a customer would host it.
import { readFileSync, existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT } from '../lib/harness.js';

const PRODUCTS = ['Trail shoe', 'Rain jacket', 'Wool socks', 'Day pack', 'Water bottle', 'Head torch', 'Camp stove', 'Sleeping mat'];

function page(token, apiHost) {
  const rows = Array.from({ length: 200 }, (_, i) => {
    const name = `${PRODUCTS[i % PRODUCTS.length]} ${i + 1}`;
    return `<li class="product" data-id="${i}"><img alt="" width="48" height="48" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><span class="name">${name}</span>
      <span class="price">${(9.5 + (i * 7) % 120).toFixed(2)} EUR</span><button class="add" data-name="${name}">Add to cart</button></li>`;
  }).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Outdoor shop</title><link rel="icon" href="data:,">
<style>
  body { font: 15px system-ui, sans-serif; margin: 0; } header { position: sticky; top: 0; background: #234; color: #fff; padding: 8px 16px; display: flex; gap: 16px; }
  main { display: grid; grid-template-columns: 2fr 1fr; gap: 24px; padding: 16px; } .product { display: flex; gap: 12px; align-items: center; padding: 6px; border-bottom: 1px solid #ddd; }
  .tabs button[aria-selected="true"] { font-weight: bold; } #modal { position: fixed; inset: 20% 30%; background: #fff; border: 1px solid #999; padding: 16px; }
  #modal[hidden] { display: none; } form label { display: block; margin: 8px 0; } .price { margin-left: auto; }
</style>
<script type="module">
  import posthog from '/posthog-js/module.js';
  posthog.init(${JSON.stringify(token)}, { api_host: ${JSON.stringify(apiHost)} });
  window.posthog = posthog;
</script></head>
<body>
<header><strong>Outdoor shop</strong><nav class="tabs"><button id="tab-shop" aria-selected="true">Shop</button><button id="tab-deals">Deals</button><button id="tab-help">Help</button></nav>
  <span>Cart: <b id="cart-count">0</b></span><span id="clock"></span></header>
<main>
  <section>
    <h1 id="title">All products</h1>
    <input id="filter" placeholder="Filter products" autocomplete="off">
    <ul id="products">${rows}</ul>
    <button id="more">Load more</button>
  </section>
  <aside>
    <h2>Sign up for news</h2>
    <form id="signup">
      <label>Name <input id="name" name="name"></label>
      <label>Email <input id="email" name="email" type="email"></label>
      <label>Country <select id="country"><option>Germany</option><option>France</option><option>Spain</option><option>Italy</option></select></label>
      <label>Message <textarea id="message" rows="3"></textarea></label>
      <label><input id="terms" type="checkbox"> I accept the terms</label>
      <button id="submit" type="submit">Sign up</button>
    </form>
    <p id="result" role="status"></p>
    <h2>Cart</h2><ol id="cart"></ol>
    <button id="open-modal">Shipping info</button>
  </aside>
</main>
<div id="modal" hidden><h2>Shipping</h2><p>Free shipping from 50 EUR. Delivery in 2-4 days.</p><button id="close-modal">Close</button></div>
<script>
  const $ = (id) => document.getElementById(id);
  let next = 200;
  document.addEventListener('click', (e) => {
    const add = e.target.closest('.add');
    if (add) {
      const li = document.createElement('li'); li.textContent = add.dataset.name; $('cart').appendChild(li);
      $('cart-count').textContent = String($('cart').children.length);
    }
  });
  for (const tab of ['shop', 'deals', 'help']) $('tab-' + tab).onclick = () => {
    for (const t of document.querySelectorAll('.tabs button')) t.setAttribute('aria-selected', String(t.id === 'tab-' + tab));
    $('title').textContent = tab === 'shop' ? 'All products' : tab === 'deals' ? 'Deals of the week' : 'Help and contact';
  };
  $('more').onclick = () => {
    for (let i = 0; i < 20; i++, next++) {
      const li = document.createElement('li'); li.className = 'product';
      li.innerHTML = '<span class="name">Extra item ' + next + '</span><span class="price">' + (5 + next % 50) + '.00 EUR</span><button class="add" data-name="Extra item ' + next + '">Add to cart</button>';
      $('products').appendChild(li);
    }
  };
  $('filter').oninput = () => {
    const q = $('filter').value.toLowerCase();
    for (const li of $('products').children) li.style.display = li.textContent.toLowerCase().includes(q) ? '' : 'none';
  };
  $('signup').onsubmit = (e) => { e.preventDefault(); $('result').textContent = 'Thanks, ' + $('name').value + '! We wrote to ' + $('email').value + '.'; };
  $('open-modal').onclick = () => { $('modal').hidden = false; };
  $('close-modal').onclick = () => { $('modal').hidden = true; };
  setInterval(() => { $('clock').textContent = new Date().toLocaleTimeString(); }, 1000);
</script>
</body></html>`;
}

/** Serves the page at / and posthog-js's bundles under /posthog-js/; returns its URL and close(). */
export async function serveShop(token, apiHost) {
  const bundles = path.join(ROOT, 'node_modules', 'posthog-js', 'dist');
  const html = page(token, apiHost);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    if (url.pathname === '/') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    const bundle = /^\/posthog-js\/([\w.-]+\.js)$/.exec(url.pathname)?.[1];
    if (bundle && existsSync(path.join(bundles, bundle))) {
      return void response.writeHead(200, { 'content-type': 'application/javascript' }).end(readFileSync(path.join(bundles, bundle)));
    }
    response.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
