import type { Element, ElementContent, Root as HastRoot, RootContent, Text } from 'hast';
import { HINT_CLOSE as CLOSE, HINT_OPEN as OPEN, hintStyle } from '../../lib/hint-tags';

/*
 * GitBook's hint blocks (lib/hint-tags.ts), drawn from the sanitized tree, over its top level only,
 * once: everything from the opening tag to the closing one goes into a
 * `<div class="hint hint-<style>" role="note">`. A hint never closed runs to the end of the page.
 */

const isParagraph = (node: RootContent): node is Element => node.type === 'element' && node.tagName === 'p';

function firstText(p: Element): Text | null {
  const first = p.children[0];
  return first?.type === 'text' ? first : null;
}

function lastText(p: Element): Text | null {
  const last = p.children[p.children.length - 1];
  return last?.type === 'text' ? last : null;
}

/** A paragraph left with nothing to read once its tags are cut off. */
const blank = (p: Element) => p.children.every((c) => c.type === 'text' && !c.value.trim());

/** Cuts the closing tag off the end of a paragraph; whether it was there. */
function cutClose(p: Element): boolean {
  const text = lastText(p);
  if (!text || !CLOSE.test(text.value)) return false;
  text.value = text.value.replace(CLOSE, '');
  return true;
}

export function renderHints() {
  return (tree: HastRoot) => {
    const out: RootContent[] = [];
    let hint: Element | null = null;
    const add = (node: RootContent) => (hint ? hint.children.push(node as ElementContent) : out.push(node));
    for (const node of tree.children) {
      if (!hint && isParagraph(node)) {
        const text = firstText(node);
        const open = text && OPEN.exec(text.value);
        if (text && open) {
          const style = hintStyle(open[1]);
          hint = { type: 'element', tagName: 'div', properties: { className: ['hint', `hint-${style}`], role: 'note' }, children: [] };
          out.push(hint);
          text.value = text.value.slice(open[0].length);
          const closed = cutClose(node);
          if (!blank(node)) add(node);
          if (closed) hint = null;
          continue;
        }
      }
      if (hint && isParagraph(node) && cutClose(node)) {
        if (!blank(node)) add(node);
        hint = null;
        continue;
      }
      add(node);
    }
    tree.children = out;
  };
}
