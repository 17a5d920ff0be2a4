import type { Page } from 'playwright-core';

/** One node of Chromium's accessibility tree, as a screen reader gets it: role, name and ARIA states. */
export interface AxNode {
  role: string;
  name: string;
  /** States and properties Chromium exposes (`focusable`, `expanded`, ...), by name. */
  properties: Record<string, unknown>;
  /** The DOM element's `aria-current`, which the CDP tree does not list among its properties. */
  current: string | null;
}

/**
 * The page's full accessibility tree through the Chrome DevTools Protocol
 * (`Accessibility.getFullAXTree`), without the ignored nodes. What it lists is what assistive
 * technology is told, which the HTML alone does not prove (a hidden or unnamed element drops out).
 */
export async function axTree(page: Page): Promise<AxNode[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Accessibility.enable');
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const out: AxNode[] = [];
    for (const node of nodes) {
      if (node.ignored) continue;
      const properties = Object.fromEntries((node.properties ?? []).map((p) => [p.name, p.value.value]));
      let current: string | null = null;
      if (node.backendDOMNodeId && node.role?.value === 'link') {
        const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: node.backendDOMNodeId });
        const read = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId!, functionDeclaration: 'function () { return this.getAttribute("aria-current"); }', returnByValue: true });
        current = (read.result.value as string | null) ?? null;
      }
      out.push({ role: String(node.role?.value ?? ''), name: String(node.name?.value ?? ''), properties, current });
    }
    return out;
  } finally {
    await cdp.detach();
  }
}
