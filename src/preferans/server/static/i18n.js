// The client's words: the project's gettext catalog (preferans.i18n), fetched as JSON from
// /api/i18n/{lang}.  A message id is the English text; t(), tn() and tp() follow gettext
// (gettext, ngettext, pgettext), and plural forms use the catalog's own Plural-Forms expression,
// read by a small parser below (no eval, so a strict Content-Security-Policy holds).
"use strict";
window.I18N = (function () {
  const loaded = {};
  let messages = {}, plural = (n) => (n === 1 ? 0 : 1);

  // Plural-Forms is a C expression of n: ?: || && == != < > <= >= + - * / % ! and parentheses.
  function compilePlural(src) {
    const tokens = src.match(/\d+|n|&&|\|\||[=!<>]=|[-+*/%()?:<>!]/g) || [];
    let i = 0;
    const peek = () => tokens[i], take = () => tokens[i++];
    const BIN = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]];
    function cond() {
      const c = binary(0);
      if (peek() !== "?") return c;
      take(); const a = cond(); take(); const b = cond();
      return (n) => (c(n) ? a(n) : b(n));
    }
    function binary(level) {
      if (level === BIN.length) return unary();
      let left = binary(level + 1);
      while (BIN[level].includes(peek())) {
        const op = take(), l = left, r = binary(level + 1);
        left = (n) => { const x = l(n), y = r(n);
          switch (op) {
            case "||": return x || y ? 1 : 0; case "&&": return x && y ? 1 : 0;
            case "==": return x === y ? 1 : 0; case "!=": return x !== y ? 1 : 0;
            case "<": return x < y ? 1 : 0; case ">": return x > y ? 1 : 0;
            case "<=": return x <= y ? 1 : 0; case ">=": return x >= y ? 1 : 0;
            case "+": return x + y; case "-": return x - y; case "*": return x * y;
            case "/": return Math.trunc(x / y); default: return x % y;
          } };
      }
      return left;
    }
    function unary() {
      const tok = take();
      if (tok === "!") { const e = unary(); return (n) => (e(n) ? 0 : 1); }
      if (tok === "(") { const e = cond(); take(); return e; }
      if (tok === "n") return (n) => n;
      const v = parseInt(tok, 10); return () => v;
    }
    const f = cond();
    return (n) => +f(n);
  }

  function format(s, vars) {
    return s.replace(/\{(\w+)\}/g, (m, k) => (vars && Object.prototype.hasOwnProperty.call(vars, k) ? String(vars[k]) : m));
  }
  async function load(lang) {
    if (!loaded[lang]) loaded[lang] = fetch("/api/i18n/" + lang).then((r) => r.json());
    const cat = await loaded[lang];
    messages = cat.messages || {};
    plural = compilePlural(cat.plural || "n != 1");
  }
  // gettext: the translation of an English id, formatted with {name} values.
  function t(msgid, vars) { const m = messages[msgid]; return format(typeof m === "string" ? m : msgid, vars); }
  // ngettext: the form for n (n is also a value of the text).
  function tn(singular, pluralId, n, vars) {
    const m = messages[singular];
    const s = Array.isArray(m) ? m[Math.min(plural(n), m.length - 1)] : (n === 1 ? singular : pluralId);
    return format(s, Object.assign({ n }, vars));
  }
  // pgettext: an id in a context ("call", "level", "phase", "sheet" …).
  function tp(context, msgid, vars) {
    const m = messages[context + "\u0004" + msgid];
    return format(typeof m === "string" ? m : msgid, vars);
  }
  // npgettext: the form for n of an id in a context.
  function tnp(context, singular, pluralId, n, vars) {
    const m = messages[context + "\u0004" + singular];
    const s = Array.isArray(m) ? m[Math.min(plural(n), m.length - 1)] : (n === 1 ? singular : pluralId);
    return format(s, Object.assign({ n }, vars));
  }
  // Whether the catalog has a text for an id (in a context): for ids that are codes, not English.
  function has(context, msgid) { return (context ? context + "\u0004" + msgid : msgid) in messages; }
  return { load, t, tn, tp, tnp, has, compilePlural };
})();
