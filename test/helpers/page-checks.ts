import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * A screenshot of the page as it is (into `folder`), after an automated accessibility check of it
 * (axe-core's WCAG 2.1 A and AA rules): every violation fails the test, named with the elements it
 * found.
 */
export async function accessibleShot(page: Page, folder: string, name: string): Promise<void> {
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true });
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const found = violations.map(
    (v) => `${name}: ${v.id} (${v.help}) em ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(found).toEqual([]);
}

/**
 * Tab (or Shift+Tab, for what comes before the focus) until `target` has the focus, as a person
 * using only the keyboard would.
 */
export async function tabTo(page: Page, target: Locator, { backwards = false } = {}): Promise<void> {
  for (let presses = 0; presses < 80; presses++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`o Tab nunca chegou a ${target.toString()}`);
}
