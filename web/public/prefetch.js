// Starts the public configuration request while the application's modules load; main.tsx
// takes the promise (a plain script, so it runs before the module graph is fetched).
window.__tmPublicConfig = fetch('/api/config/public', { headers: { accept: 'application/json', platform: 'desktop' } })
  .then(function (res) {
    if (!res.ok) throw new Error('GET /api/config/public answered ' + res.status);
    return res.json();
  });
window.__tmPublicConfig.catch(function () { /* main.tsx reports it */ });
