// A stand-in for Telegram's telegram-web-app.js in browser tests (served by the test, never fetched): it reads
// initData, theme and colour scheme from the address's fragment, as Telegram's clients pass them.
(() => {
  const hash = new URLSearchParams(location.hash.slice(1));
  const initData = hash.get("tgWebAppData") || "";
  const fields = new URLSearchParams(initData);
  window.Telegram = {
    WebApp: {
      initData,
      initDataUnsafe: {
        user: JSON.parse(fields.get("user") || "null"),
        start_param: fields.get("start_param") || undefined,
        auth_date: Number(fields.get("auth_date") || 0),
      },
      themeParams: JSON.parse(hash.get("tgWebAppThemeParams") || "{}"),
      colorScheme: hash.get("tgWebAppColorScheme") || "light",
      platform: "tests",
      version: "8.0",
      ready() { window.telegramReady = true; },
      expand() {},
      onEvent() {},
      offEvent() {},
      HapticFeedback: { selectionChanged() {}, impactOccurred() {}, notificationOccurred() {} },
    },
  };
})();
