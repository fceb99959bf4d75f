/* La Belle Lucie's service worker, served at /sw.js (game/install/views.py renders CONFIG).

   It keeps two things and nothing else: the hashed static files (their names change with their
   content, so a kept copy is never stale) and the offline page in each language. A navigation
   goes to the network as always; only when the network fails does it answer with the offline
   page of the URL's language. Everything else (every POST, every htmx board fragment, the embed)
   is not touched at all: the worker has no respondWith for it. */
"use strict";

const CONFIG = {{ config|safe }};
const HASHED = /\.[0-9a-f]{12}\.[A-Za-z0-9]+$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CONFIG.cache)
      .then((cache) => cache.addAll(CONFIG.precache))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("lucie-") && name !== CONFIG.cache)
          .map((name) => caches.delete(name))
      ))
      // The page that registered the worker has its offline page from now on, not from its
      // next load.
      .then(() => self.clients.claim())
  );
});

function isHashedStatic(url) {
  return CONFIG.hashed && url.pathname.startsWith(CONFIG.static) && HASHED.test(url.pathname);
}

function isEmbed(url) {
  return CONFIG.embed.some((prefix) => url.pathname.startsWith(prefix));
}

function offlinePage(url) {
  const language = Object.keys(CONFIG.offline).find(
    (code) => url.pathname === "/" + code + "/" || url.pathname.startsWith("/" + code + "/")
  );
  const page = CONFIG.offline[language] || CONFIG.offline.en;
  return caches.match(page).then((response) => response || Response.error());
}

async function fromCacheFirst(request) {
  const kept = await caches.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    caches.open(CONFIG.cache).then((cache) => cache.put(request, copy));
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (isHashedStatic(url)) {
    event.respondWith(fromCacheFirst(request));
  } else if (request.mode === "navigate" && !isEmbed(url)) {
    event.respondWith(fetch(request).catch(() => offlinePage(url)));
  }
});
