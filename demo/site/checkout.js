// The demo shop's checkout page. Three things make it hard for a driver
// that names elements by position: a cookie banner inserted above the
// form once the page has been read, a table whose rows are replaced every 500 ms, and
// the card number living in a cross-origin frame.
(function () {
  'use strict';
  const cardOrigin = new URL(document.getElementById('card').src).origin;
  let cardOK = false;

  // The card frame tells us, by postMessage, whether the number is filled.
  window.addEventListener('message', (ev) => {
    if (ev.origin === cardOrigin && ev.data && typeof ev.data.cardOK === 'boolean') {
      cardOK = ev.data.cardOK;
    }
  });

  const status = document.getElementById('status');
  document.getElementById('pay').addEventListener('click', () => {
    status.textContent = cardOK ? 'Payment accepted — thank you!' : 'Enter your card number first.';
  });

  // A table re-rendered from scratch, as many frameworks do: new rows,
  // new nodes, twice a second.
  const items = ['Blue mug', 'Red mug', 'Tea towel'];
  const tbody = document.getElementById('prices');
  let tick = 0;
  function render() {
    tick++;
    const rows = items.map((name, i) => {
      const tr = document.createElement('tr');
      const td1 = document.createElement('td');
      td1.textContent = name;
      const td2 = document.createElement('td');
      td2.textContent = '€' + (8 + i + ((tick + i) % 5) / 10).toFixed(2);
      const td3 = document.createElement('td');
      const add = document.createElement('button');
      add.type = 'button';
      add.textContent = 'Add ' + name;
      td3.appendChild(add);
      tr.append(td1, td2, td3);
      return tr;
    });
    tbody.replaceChildren(...rows);
  }
  render();
  setInterval(render, 500);

  // The cookie banner arrives above the form: everything below it moves
  // down.
  function showBanner() {
    const banner = document.createElement('div');
    banner.id = 'cookie-banner';
    banner.setAttribute('role', 'region');
    banner.setAttribute('aria-label', 'Cookie consent');
    const p = document.createElement('p');
    p.textContent = 'We use cookies to remember your basket.';
    const accept = document.createElement('button');
    accept.type = 'button';
    accept.textContent = 'Accept cookies';
    const dismiss = document.createElement('button');
    dismiss.type = 'button';
    dismiss.textContent = 'Dismiss';
    accept.addEventListener('click', () => banner.remove());
    dismiss.addEventListener('click', () => banner.remove());
    banner.append(p, accept, dismiss);
    document.getElementById('banner-slot').appendChild(banner);
  }
  // The banner comes when the shop's server says it is due (the demo
  // releases it once the agent has read the page), as a consent manager
  // loading late would: the moment is the server's, not a timer racing a
  // slow machine.
  function pollBanner() {
    fetch('/banner-due', { cache: 'no-store' })
      .then((r) => r.text())
      .then((due) => { if (due === 'yes') showBanner(); else setTimeout(pollBanner, 150); })
      .catch(() => setTimeout(pollBanner, 500));
  }
  window.addEventListener('load', () => {
    document.title = 'Checkout — grip demo shop';
    pollBanner();
  });
})();
