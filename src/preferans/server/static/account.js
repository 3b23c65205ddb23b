// Sign in and create an account (/account): the server checks the name and password and sets
// the session cookie (HttpOnly); this page only sends the form and goes on where it was asked to.
"use strict";
(function () {
  const { $ } = PREF;
  const { t } = I18N;
  // Only a path of this site (not //other.example): nobody's link sends a player elsewhere after signing in.
  function next(name) {
    const n = new URLSearchParams(location.search).get("next") || "";
    return /^\/(?!\/)/.test(n) ? n : "/u/" + encodeURIComponent(name);
  }
  function reason(data) {
    return (data.texts && data.texts[PREF.lang]) || data.message || t("Error");
  }
  async function send(path, name, password, errorBox) {
    errorBox.textContent = "";
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name, password }) }).catch(() => null);
    const data = r ? await r.json().catch(() => ({})) : {};
    if (!r || !r.ok) {
      errorBox.textContent = r && r.status === 413 ? t("That is far too long.") : reason(data);
      return;
    }
    location.href = next(data.account.name);
  }
  async function start() {
    await PREF.start({});
    document.title = t("Sign in") + " — " + t("Preferans");
    if (PREF.account) { location.href = next(PREF.account.name); return; }
    $("signin-form").addEventListener("submit", (ev) => { ev.preventDefault();
      send("/api/account/signin", $("signin-name").value.trim(), $("signin-password").value, $("signin-error")); });
    $("register-form").addEventListener("submit", (ev) => { ev.preventDefault();
      send("/api/account/register", $("register-name").value.trim(), $("register-password").value, $("register-error")); });
  }
  start();
})();
