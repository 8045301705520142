// Omission's service worker (go-app's app-worker.js template, with an
// offline-first cache that also answers pages opened with a query string,
// and under a sub-path).
const cacheName = "app-" + "{{.Version}}";
const resourcesToCache = {{.ResourcesToCache}};

self.addEventListener("install", (event) => {
  event.waitUntil(installWorker().then(() => self.skipWaiting()));
});

// installWorker stores every resource. A page URL that the host redirects
// (/sub to /sub/, /article to /article/) is stored as a plain response under
// both addresses: a redirected response cannot answer a navigation.
async function installWorker() {
  const cache = await caches.open(cacheName);
  const urls = new Set(resourcesToCache);
  urls.add(self.registration.scope);
  await Promise.all([...urls].map(async (url) => {
    const res = await fetch(url, { cache: "no-cache" });
    if (!res.ok) {
      throw new Error("caching " + url + " failed: " + res.status);
    }
    const body = await res.blob();
    const clean = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    await cache.put(url, clean.clone());
    if (res.redirected && res.url !== url) {
      await cache.put(res.url, clean);
    }
  }));
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const keys = await caches.keys();
    await Promise.all(keys.filter((k) => k !== cacheName).map((k) => caches.delete(k)));
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") {
    return;
  }
  event.respondWith(fetchWithCache(event.request));
});

async function fetchWithCache(request) {
  const cache = await caches.open(cacheName);
  let cached = await cache.match(request);
  if (!cached && request.mode === "navigate") {
    // A share URL carries its state in the query: the page is the same.
    cached = await cache.match(request, { ignoreSearch: true });
    if (!cached) {
      const url = new URL(request.url);
      url.search = "";
      if (!url.pathname.endsWith("/")) {
        url.pathname += "/";
        cached = await cache.match(url.href);
      }
    }
    if (!cached) {
      cached = await cache.match(self.registration.scope);
    }
  }
  if (cached) {
    return cached;
  }
  return fetch(request);
}
