// e2e TestReplyWaitsForAScriptStillLoading: the module script-module.html
// loads when its button is clicked, served late (/slow).
(() => {
  const p = document.createElement('p');
  p.textContent = 'Module ready';
  document.body.appendChild(p);
  const b = document.createElement('button');
  b.textContent = 'Module action';
  document.body.appendChild(b);
})();
