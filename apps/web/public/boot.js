/*
 * Early start of the home screen, before the app's JavaScript has arrived (the home screen's
 * Largest Contentful Paint is the first banner, which otherwise waits for the app bundle, then for the banners
 * request, then for the image).
 *
 * On / and /home only: requests the banners of the user's language exactly as the app's API client would
 * (GET /api/data/data/getBanners?bannerType=DATA_BANNER&global=..., header lang), keeps the answer for the app
 * (window.__exchangeEarly[url]: a promise of { status, statusText, text }, taken once by
 * src/shared/api-client/early.ts), preloads the first banner's image and, while the app has not rendered yet,
 * shows it in the page's shell (index.html, #boot) where the home screen shows it. The server usually sent the page
 * with that banner already in the shell (apps/server/src/main/web-shell.ts, in the request's language); this adds it
 * when the page came without it (the service worker's copy of the page) or replaces it when the app's language is
 * the other one. The language is the persisted one
 * (localStorage 'currentLangue', src/shared/storage/store.ts), else the browser's, as the store decides.
 * On every route it applies the persisted night theme to the page at once, so the shell is not white for it.
 * Nothing here is needed: if it fails or is blocked the app makes its own request.
 * A classic script (the page's CSP allows scripts from 'self' only, so it is a file, not inline).
 */
(function () {
  try {
    // The persisted night theme at once (src/shared/theme/theme.ts sets it again when the app starts), so the shell
    // is not a white page for a night-theme user.
    if (localStorage.getItem('theme') === 'night') document.documentElement.setAttribute('data-theme', 'night');
    var path = location.pathname;
    if (path !== '/' && path !== '/home') return;
    var lang = localStorage.getItem('currentLangue');
    if (lang !== 'zh' && lang !== 'en') lang = /^zh/i.test(navigator.language || '') ? 'zh' : 'en';
    var url = '/api/data/data/getBanners?bannerType=DATA_BANNER&global=' + (lang === 'zh' ? 'CHINESE_SIM' : 'ENGLISH');
    var answer = fetch(url, { headers: { lang: lang, Accept: 'application/json' } }).then(function (res) {
      return res.text().then(function (text) {
        return { status: res.status, statusText: res.statusText, text: text };
      });
    });
    var early = (window.__exchangeEarly = window.__exchangeEarly || {});
    early[url] = answer;
    answer
      .then(function (r) {
        var env = JSON.parse(r.text);
        var first = env && env.status === 'SUCCEED' && env.result && env.result[0];
        if (!first || typeof first.bannerUrl !== 'string' || !/^\/(?!\/)/.test(first.bannerUrl)) return;
        // The server puts the banner in the page in the request's language (data-lang): nothing to do when it is this
        // one; one in the other language goes.
        var shell = document.getElementById('boot');
        var served = shell && shell.querySelector('.boot-banner');
        if (served && served.getAttribute('data-lang') === lang && served.getAttribute('src') === first.bannerUrl) return;
        var link = document.createElement('link');
        link.rel = 'preload';
        link.setAttribute('as', 'image');
        link.href = first.bannerUrl;
        link.setAttribute('fetchpriority', 'high');
        document.head.appendChild(link);
        // While the app has not rendered yet, the shell shows the banner where the home screen will show it.
        if (!shell) return;
        if (served) served.remove();
        var img = document.createElement('img');
        img.className = 'boot-banner';
        img.alt = typeof first.title === 'string' ? first.title : '';
        img.src = first.bannerUrl;
        shell.appendChild(img);
      })
      .catch(function () {});
  } catch {
    /* the app makes its own request */
  }
})();
