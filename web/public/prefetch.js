// Starts the public configuration request while the application's modules load; main.tsx
// takes the promise (a plain script, so it runs before the module graph is fetched).
window.__tmPublicConfig = fetch('/api/config/public', { headers: { accept: 'application/json', platform: 'desktop' } })
  .then(function (res) {
    if (!res.ok) throw new Error('GET /api/config/public answered ' + res.status);
    return res.json();
  });
window.__tmPublicConfig.catch(function () { /* main.tsx reports it */ });

// Inside the feature frame with a session stored, the definitions and the access check the
// feature host asks for first start now too (guest/FeatureHost.tsx takes them when the token is
// still the session's). The session is `<deployment>.session`, as app/storage.ts names it.
(function () {
  if (window.self === window.top) return;
  var token = null;
  try {
    for (var i = 0; i < localStorage.length; i++) {
      var key = localStorage.key(i);
      if (!key || key.slice(-8) !== '.session') continue;
      var s = JSON.parse(localStorage.getItem(key) || 'null');
      if (s && typeof s.token === 'string' && s.token && !(s.expiresAt && Date.parse(s.expiresAt) <= Date.now())) { token = s.token; break; }
    }
  } catch (e) { return; }
  if (!token) return;
  var get = function (path) {
    var p = fetch(path, { headers: { accept: 'application/json', platform: 'desktop', authorization: 'Bearer ' + token } })
      .then(function (res) { return res.ok ? res.json() : null; });
    p.catch(function () { /* the feature host asks again */ });
    return p;
  };
  window.__tmFrameBoot = { token: token, config: get('/api/config'), validate: get('/api/auth/validate') };
})();
