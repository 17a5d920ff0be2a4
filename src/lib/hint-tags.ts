/*
 * GitBook's hint blocks, as its markdown export writes them:
 *
 *   {% hint style="info" %}
 *   Text, **formatted**, in one or more paragraphs.
 *   {% endhint %}
 *
 * The tags are plain text to a markdown parser: the opening one starts a paragraph, the closing one
 * ends one (the same paragraph when there is no blank line). The published reader draws hints from
 * the HTML, the document format from the markdown tree: both read the tags here.
 */

/** The styles the platform's hint block knows; another or none reads as `info`. */
export const HINT_STYLES = new Set(['info', 'success', 'warning', 'danger']);
/** The opening tag at the start of a paragraph's text; group 1 is the style. */
export const HINT_OPEN = /^\s*\{%\s*hint(?:\s+style\s*=\s*"([a-z]*)")?\s*%\}[ \t]*\n?/;
/** The closing tag at the end of a paragraph's text. */
export const HINT_CLOSE = /\n?[ \t]*\{%\s*endhint\s*%\}\s*$/;

export const hintStyle = (style: string | undefined) => (style && HINT_STYLES.has(style) ? style : 'info');
