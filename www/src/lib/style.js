// @ts-check
// A view's own style rules, adopted as a constructed style sheet: the page's CSP
// (style-src 'self') allows them, and a view's rules stay in its module.

/**
 * adoptStyle adds css to the document's adopted style sheets; where constructed sheets are not
 * supported, the view goes unstyled and says so on the console.
 * @param {string} css
 * @param {string} who the view, for the console
 */
export function adoptStyle(css, who) {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch (e) {
    console.info('neffscope: ' + who + ' has no style here (' + (e && e.message || e) + ')');
  }
}
