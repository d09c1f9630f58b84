// @ts-check
// The light/dark theme toggle.

import { $ } from '../dom.js';

// Theme: the OS preference (system) unless the toggle chose light or dark; the choice is
// remembered in localStorage, which some file:// contexts refuse (then it lasts the visit).

const THEMES = ['system', 'light', 'dark'];
const THEME_KEY = 'neffscope.theme';
const THEME_GLYPH = { system: '◐', light: '☀', dark: '☾' };

function storedTheme() {
  try { const t = localStorage.getItem(THEME_KEY); return THEMES.includes(t) ? t : 'system'; } catch (e) { return 'system'; }
}

function applyTheme(t) {
  if (t === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = t;
  const b = $('theme-toggle');
  const next = THEMES[(THEMES.indexOf(t) + 1) % THEMES.length];
  b.textContent = THEME_GLYPH[t];
  b.dataset.theme = t;
  b.setAttribute('aria-label', 'Theme: ' + t);
  b.title = 'Theme: ' + (t === 'system' ? 'follows the system' : t) + ' (click for ' + next + ')';
}

export function themeInit() {
  applyTheme(storedTheme());
  $('theme-toggle').addEventListener('click', () => {
    const cur = $('theme-toggle').dataset.theme || 'system';
    const t = THEMES[(THEMES.indexOf(cur) + 1) % THEMES.length];
    applyTheme(t);
    try { if (t === 'system') localStorage.removeItem(THEME_KEY); else localStorage.setItem(THEME_KEY, t); } catch (e) { /* not remembered */ }
  });
}
