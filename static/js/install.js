// Installing the site as an app: register the service worker (its URL comes from the script
// tag's data-worker), and in standalone mode, where the browser shows no Back button, show ours.
(() => {
  const script = document.currentScript;
  if ("serviceWorker" in navigator && script && script.dataset.worker) {
    navigator.serviceWorker.register(script.dataset.worker, { scope: "/" }).catch(() => {});
  }
  const standalone = () =>
    window.matchMedia("(display-mode: standalone)").matches || navigator.standalone === true;
  const back = document.querySelector("[data-app-back]");
  if (back && standalone()) {
    back.hidden = false;
    back.addEventListener("click", () => {
      if (window.history.length > 1) window.history.back();
      else window.location.assign(back.dataset.home);
    });
  }
})();
