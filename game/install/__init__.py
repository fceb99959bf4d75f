"""Installing the site as an app: the web app manifest, the service worker and the offline page.

The service worker (templates/install/sw.js, served at /sw.js so that its scope is the whole
site) caches only two kinds of thing: the hashed static files, which never change under their
names, and the offline page in each language. Every other request goes to the network untouched,
so no POST, board fragment or embed page is ever answered from a cache.
"""
